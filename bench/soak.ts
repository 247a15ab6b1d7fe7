/**
 * A long run that must hold (not part of npm test): the extension plays the real classic game in headless
 * Chromium for ≥ `--moves` moves at a short think time, and every `--every` moves samples
 *   - the memory (PSS, else RSS, from /proc) of every process of the browser, by kind: the browser, the
 *     extension's renderer (service worker, offscreen solver host and its workers, the popup), the game page's
 *     renderer, the GPU and utility processes;
 *   - the page's size (DOM nodes, JS heap) and the extension's storage (the history record: storage.local,
 *     and storage.session: the live statuses);
 *   - moves/s over the interval and desyncs.
 * A game that ends is recorded by the extension and a new one started (New Game, then Solve): the moves add up.
 * At the end: the last game's record must be complete (its replay ends on the board the page shows).
 * Writes a Markdown table (stdout, and `--out` .md) and a plot (`--plot` .png, drawn by the same browser).
 *
 *   npx tsx bench/soak.ts [--moves 10000] [--every 250] [--think 10] [--no-build] [--out FILE.md] [--plot FILE.png]
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { MISSING_BROWSER_MESSAGE, findChromium } from '../tests/harness/chromium';
import { readClassicSavedBoard } from '../tests/e2e/support/classic-board';
import { parseCommandLine } from '../src/cli/args';
import { GAME_LOG_KEYS, readStoredLog } from '../src/shared/game-log-parts';
import { replayFrames } from '../src/shared/history';
import type { RunStatus } from '../src/shared/messages';
import { buildTestExtension, openClassicRun } from './extension-run';
import type { ClassicRun } from './extension-run';

const KINDS = ['browser', 'extension', 'page', 'gpu', 'utility'] as const;
type Kind = (typeof KINDS)[number];

interface Sample {
  readonly moves: number;
  readonly seconds: number;
  readonly movesPerSecond: number;
  readonly desyncs: number;
  readonly games: number;
  readonly memoryMiB: Record<Kind, number>;
  readonly domNodes: number;
  readonly heapMiB: number;
  readonly localKiB: number;
  readonly sessionKiB: number;
  readonly load: number;
  /** What valued the last move: the learned network, or the heuristic (while it loads, or when it failed). */
  readonly evaluation: string;
}

// --------------------------------------------------------------------------------------- processes

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The browser's process (its command line names the profile) and all its descendants. */
function browserProcesses(profileDir: string): { pid: number; args: string }[] {
  const all: { pid: number; ppid: number; args: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readText(`/proc/${name}/stat`);
    const cmdline = readText(`/proc/${name}/cmdline`);
    if (!stat || cmdline === null) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    all.push({ pid: Number(name), ppid, args: cmdline.split('\0').join(' ') });
  }
  const root = all.find((p) => p.args.includes(`--user-data-dir=${profileDir}`) && !p.args.includes('--type='));
  if (!root) return [];
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const child of all) if (child.ppid === tree[i].pid) tree.push(child);
  return tree;
}

function kindOf(args: string): Kind | null {
  if (!args.includes('--type=')) return 'browser';
  if (args.includes('--type=renderer')) return args.includes('--extension-process') ? 'extension' : 'page';
  if (args.includes('--type=gpu-process')) return 'gpu';
  if (args.includes('--type=utility')) return 'utility';
  return null; // the zygotes: no memory of their own to speak of
}

/** A process's proportional set size in MiB (its share of shared pages), else its resident set. */
function memoryMiB(pid: number): number {
  const rollup = readText(`/proc/${pid}/smaps_rollup`);
  const pss = rollup ? /^Pss:\s+(\d+) kB/m.exec(rollup) : null;
  if (pss) return Number(pss[1]) / 1024;
  const status = readText(`/proc/${pid}/status`);
  const rss = status ? /^VmRSS:\s+(\d+) kB/m.exec(status) : null;
  return rss ? Number(rss[1]) / 1024 : 0;
}

function memoryByKind(profileDir: string): Record<Kind, number> {
  const memory = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  for (const { pid, args } of browserProcesses(profileDir)) {
    const kind = kindOf(args);
    if (kind) memory[kind] += memoryMiB(pid);
  }
  return memory;
}

// ---------------------------------------------------------------------------------------- the run

async function status(run: ClassicRun): Promise<RunStatus | undefined> {
  const worker = await run.browser.serviceWorker();
  return worker.evaluate((tab) => chrome.storage.session.get(`status:${tab}`).then((items) => items[`status:${tab}`] as RunStatus | undefined), run.tabId);
}

async function storageKiB(run: ClassicRun): Promise<{ local: number; session: number }> {
  const worker = await run.browser.serviceWorker();
  const [local, session] = await worker.evaluate(() => Promise.all([chrome.storage.local.getBytesInUse(null), chrome.storage.session.getBytesInUse(null)]));
  return { local: local / 1024, session: session / 1024 };
}

async function pageSize(run: ClassicRun): Promise<{ domNodes: number; heapMiB: number }> {
  return run.game.evaluate(() => ({
    domNodes: document.getElementsByTagName('*').length,
    heapMiB: ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0) / 1048576,
  }));
}

async function clickSolve(run: ClassicRun): Promise<void> {
  await run.popup.getByRole('button', { name: 'Solve', exact: true }).click();
}

// ---------------------------------------------------------------------------------------- output

function table(samples: readonly Sample[]): string {
  const head = ['moves', 'min', 'moves/s', 'desyncs', 'games', ...KINDS.map((k) => `${k} MiB`), 'page DOM nodes', 'page heap MiB', 'storage.local KiB', 'storage.session KiB', 'evaluation', 'load'];
  const rows = samples.map((s) => [
    String(s.moves),
    (s.seconds / 60).toFixed(1),
    s.movesPerSecond.toFixed(1),
    String(s.desyncs),
    String(s.games),
    ...KINDS.map((k) => s.memoryMiB[k].toFixed(0)),
    String(s.domNodes),
    s.heapMiB.toFixed(1),
    s.localKiB.toFixed(0),
    s.sessionKiB.toFixed(1),
    s.evaluation,
    s.load.toFixed(1),
  ]);
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---:').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Each kind's memory at the end against its level at the first sample from `fromMoves` on (+20 % at most). */
function growth(samples: readonly Sample[], fromMoves: number): { kind: Kind; from: number; to: number; change: number }[] {
  const base = samples.find((s) => s.moves >= fromMoves) ?? samples[0];
  const last = samples[samples.length - 1];
  return KINDS.map((kind) => ({ kind, from: base.memoryMiB[kind], to: last.memoryMiB[kind], change: base.memoryMiB[kind] > 0 ? last.memoryMiB[kind] / base.memoryMiB[kind] - 1 : 0 }));
}

const COLOURS: Record<Kind, string> = { browser: '#1f77b4', extension: '#d62728', page: '#2ca02c', gpu: '#9467bd', utility: '#8c564b' };

/** The memory of each kind of process against the moves played, as SVG. */
function plotSvg(samples: readonly Sample[], title: string): string {
  const width = 900;
  const height = 480;
  const left = 70;
  const right = 160;
  const top = 40;
  const bottom = 50;
  const maxMoves = Math.max(...samples.map((s) => s.moves), 1);
  const maxMiB = Math.max(...samples.flatMap((s) => KINDS.map((k) => s.memoryMiB[k])), 1) * 1.1;
  const x = (moves: number): number => left + (moves / maxMoves) * (width - left - right);
  const y = (mib: number): number => height - bottom - (mib / maxMiB) * (height - top - bottom);
  const grid: string[] = [];
  for (let i = 0; i <= 5; i++) {
    const mib = (maxMiB / 5) * i;
    grid.push(`<line x1="${left}" x2="${width - right}" y1="${y(mib)}" y2="${y(mib)}" stroke="#ddd"/><text x="${left - 8}" y="${y(mib) + 4}" text-anchor="end">${mib.toFixed(0)}</text>`);
    const moves = (maxMoves / 5) * i;
    grid.push(`<text x="${x(moves)}" y="${height - bottom + 20}" text-anchor="middle">${moves.toFixed(0)}</text>`);
  }
  const lines = KINDS.map((kind, i) => {
    const points = samples.map((s) => `${x(s.moves).toFixed(1)},${y(s.memoryMiB[kind]).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${COLOURS[kind]}" stroke-width="2" points="${points}"/><text x="${width - right + 12}" y="${top + 20 + i * 22}" fill="${COLOURS[kind]}">${kind}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="13"><rect width="100%" height="100%" fill="#fff"/><text x="${left}" y="24" font-size="15">${title}</text>${grid.join('')}<text x="${(left + width - right) / 2}" y="${height - 10}" text-anchor="middle">moves played</text><text x="18" y="${(top + height - bottom) / 2}" transform="rotate(-90 18 ${(top + height - bottom) / 2})" text-anchor="middle">memory (PSS), MiB</text>${lines.join('')}</svg>`;
}

// ------------------------------------------------------------------------------------------- main

async function main(): Promise<number> {
  const args = parseCommandLine(process.argv.slice(2), {
    moves: { type: 'string' },
    every: { type: 'string' },
    think: { type: 'string' },
    'no-build': { type: 'boolean' },
    out: { type: 'string' },
    plot: { type: 'string' },
  });
  const target = args.int('moves', { min: 100, max: 1_000_000 }, 10_000) ?? 10_000;
  const every = args.int('every', { min: 10, max: 100_000 }, 250) ?? 250;
  const thinkMs = args.int('think', { min: 10, max: 10_000 }, 10) ?? 10;
  if (!findChromium()) {
    console.error(MISSING_BROWSER_MESSAGE);
    return 1;
  }
  if (!args.flag('no-build') && !buildTestExtension()) {
    console.error('bench-soak: the build failed');
    return 1;
  }
  const run = await openClassicRun({ settings: { strategy: 'expectimax', thinkMs, pauseMs: 0 } });
  const samples: Sample[] = [];
  try {
    const started = Date.now();
    let finishedMoves = 0;
    let finishedDesyncs = 0;
    let games = 1;
    let lastGameId: string | undefined;
    let previous = { moves: 0, at: started };
    let nextSample = 0;
    await clickSolve(run);
    for (;;) {
      await new Promise((done) => setTimeout(done, 1_000));
      const now = await status(run);
      if (!now) continue;
      if (now.state === 'error') throw new Error(`the run failed: ${JSON.stringify(now.message)}`);
      if (now.gameId !== undefined) lastGameId = now.gameId;
      const total = finishedMoves + now.moves;
      const desyncs = finishedDesyncs + now.desyncs;
      if (total >= nextSample || total >= target) {
        const at = Date.now();
        const memory = memoryByKind(run.browser.profileDir);
        const { domNodes, heapMiB } = await pageSize(run);
        const storage = await storageKiB(run);
        const sample: Sample = {
          moves: total,
          seconds: (at - started) / 1000,
          movesPerSecond: at > previous.at ? ((total - previous.moves) * 1000) / (at - previous.at) : 0,
          desyncs,
          games,
          memoryMiB: memory,
          domNodes,
          heapMiB,
          localKiB: storage.local,
          sessionKiB: storage.session,
          load: loadavg()[0],
          evaluation: now.evaluation ?? '–',
        };
        samples.push(sample);
        previous = { moves: total, at };
        nextSample = Math.floor(total / every) * every + every;
        console.log(
          `bench-soak: ${total} moves, ${sample.movesPerSecond.toFixed(1)} moves/s, ${desyncs} desyncs, ${KINDS.map((k) => `${k} ${memory[k].toFixed(0)}`).join(', ')} MiB, load ${sample.load.toFixed(1)}`,
        );
      }
      if (total >= target) break;
      if (now.state === 'over' || now.state === 'won' || (!now.running && now.state !== 'thinking' && now.state !== 'moving')) {
        // The game ended (or the run stopped at the win): a new game, and Solve again.
        finishedMoves += now.moves;
        finishedDesyncs += now.desyncs;
        games++;
        const ended = now.gameId;
        await run.game.locator('.restart-button').click();
        await new Promise((done) => setTimeout(done, 300));
        await clickSolve(run);
        for (let i = 0; i < 60; i++) {
          const next = await status(run);
          if (next?.running && next.gameId !== ended) break;
          await new Promise((done) => setTimeout(done, 500));
        }
      }
    }
    const stop = run.popup.getByRole('button', { name: 'Stop', exact: true });
    if (await stop.isEnabled()) await stop.click();
    await new Promise((done) => setTimeout(done, 2_000));

    // The record of the game in play is complete: its replay ends on the page's board.
    const worker = await run.browser.serviceWorker();
    const log = readStoredLog(await worker.evaluate((keys) => chrome.storage.local.get(keys), [...GAME_LOG_KEYS]));
    const record = log.games.find((game) => game.gameId === lastGameId);
    const board = await readClassicSavedBoard(run.game);
    const frames = record?.replay ? replayFrames(record.replay) : [];
    const end = frames.at(-1)?.board;
    const complete = !!end && !!board && end.cells.join() === board.cells.join();
    const last = samples[samples.length - 1];

    const rows = growth(samples, 1_000);
    const report = [
      `bench-soak: ${last.moves} moves in ${(last.seconds / 60).toFixed(1)} min over ${last.games} game(s), ${last.desyncs} desyncs; expectimax at ${thinkMs} ms, Speed Fastest; load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')}`,
      `the last game's record: ${record ? `${record.moves} moves, replay of ${frames.length - 1} moves` : 'missing'}; its replay ends on the page's board: ${complete ? 'yes' : 'NO'}`,
      `memory from the first sample at ≥ 1 000 moves to the end: ${rows.map((r) => `${r.kind} ${r.from.toFixed(0)} → ${r.to.toFixed(0)} MiB (${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)} %)`).join(', ')}`,
      '',
      table(samples),
    ].join('\n');
    console.log(`\n${report}`);
    const out = args.string('out');
    if (out) writeFileSync(out, `${report}\n`);
    const plot = args.string('plot');
    if (plot) {
      const page = await run.browser.context.newPage();
      await page.setViewportSize({ width: 900, height: 480 });
      await page.setContent(plotSvg(samples, `Soak: ${last.moves} moves, expectimax at ${thinkMs} ms — memory of the browser's processes`));
      await page.screenshot({ path: plot });
      await page.close();
    }
    const grew = rows.filter((r) => r.change > 0.2);
    return complete && last.desyncs === 0 && grew.length === 0 ? 0 : 2;
  } finally {
    await run.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`bench-soak: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
