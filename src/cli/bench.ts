/**
 * npm run bench -- --strategy S --games N --seed K [--first-game I] [--jobs J] [--target TILE] [--depth D]
 *                  [--time-ms T] [--playouts P] [--runs R] [--size N] [--start FILE] [--json]
 * npm run bench -- --positions FILE.tsv [--limit N] [--json]
 */
import { availableParallelism } from 'node:os';
import { MAX_SPLIT_THREADS, maxTile } from '../engine/index';
import type { SearchOptions, StrategyName } from '../engine/index';
import { playGame } from './game';
import { parseStartBoards } from './board';
import { gameSeeds } from './seeds';
import type { GameResult } from './stats';
import { DEFAULT_TIME_MS } from '../engine/limits';
import { ParsedArgs, UsageError, parseCommandLine, isEntryPoint, runCli } from './args';
import type { CliIo } from './args';
import { runGamesInWorkers, settingsOfGame } from './bench-pool';
import type { BenchProgress, RunGamesOptions } from './bench-pool';
import type { GameSettings } from './game';
import { threadedChooser } from './split-games';
import type { SplitMode } from './split-games';
import { ENGINE_OPTION_SPECS, engineFrom, useEngine } from './engine';
import { NETWORK_HELP, NETWORK_OPTION_SPECS, networkFileFrom, networkInUse, useNetwork } from './network';
import { BANK_HELP, BANK_OPTION_SPECS, bankFrom, describeSearchOptions, EVALUATION_HELP, SEARCH_OPTION_SPECS, searchOptionsFrom, SIZE_RANGE, strategyChoices } from './search-options';
import { CLI_TABLE_SPECS, TABLES_OPTION_SPECS, installTables, loadOrBuildTables, tablesCacheDir, tablesFrom } from './tables';
import { REACH_TILES, summarizeBench } from './stats';
import { median } from '../shared/statistics';
import type { BenchSummary } from './stats';
import { formatNumber, formatPercent, formatTable } from './table';
import { endProgress, progress, readText } from './progress-line';
import { positionsBench } from './positions-bench';
import { formatReliability, reliability } from './chance-samples';

const USAGE = `Usage:
  npm run bench -- --strategy S --games N --seed K [--first-game I] [--jobs J] [--target TILE]
                   [--depth D] [--time-ms T] [--playouts P] [--runs R] [--size N] [--start FILE] [--json]
  npm run bench -- --positions FILE.tsv [--limit N] [--threads T] [--engine E] [--json]

Strength bench: plays N games (game i seeded from K and i: the result does not depend on --jobs) on J
worker threads (default: all cores), each to game over or until its best tile reaches --target.
Prints the share of games reaching 256..32768, score and move statistics and think time per move;
--json prints one JSON object as the last line of stdout. --runs R repeats the bench R times (each run
and the median time are reported). Results repeat exactly for a seed when the search is bounded by depth
or playouts; a time budget (--time-ms, or a strategy's default budget) depends on the machine's speed.

Positions bench: searches every position of a reference file (tests/fixtures/reference/
expectimax-positions.tsv) with the reference expectimax, one root move at a time, on one thread, and
compares best moves, move values and move-execution counts with the file.

Options:
  --strategy S   ${strategyChoices()}
                 (default expectimax)
  --games N      games to play (default 10)         --seed K     base seed (default 1)
  --first-game I with --games N: play games I..I+N-1 of a longer bench, each numbered, seeded and (--start)
                 started as there, so that a long bench can be played in parts (default 1)
  --jobs J       worker threads (default ${availableParallelism()})         --target TILE  stop a game at this tile
  --depth D      search depth                        --time-ms T  think time per move
  --playouts P   Monte-Carlo playouts per move      --runs R     repeat the bench R times (default 1)
  --size N       board size N x N (default 4)       --json       JSON summary as the last stdout line
${BANK_HELP}
  --reference    expectimax: the reference configuration (the native peer's depth rule and cut-off, no time limit)
  --engine E     expectimax search core: wasm (default, WebAssembly) | ts (TypeScript)
${EVALUATION_HELP}
${NETWORK_HELP}
  --tables on|off  endgame tables (default off): built once, cached in ~/.cache/2048-autopilot/tables/
  --table-threshold P  play the table's move when its success probability is ≥ P (default 0.5)
  --start F      start the games from the boards of file F (one per line, as --board of npm run solve,
                 --size squared values; # comments): game i from board i mod their count (default: one game each)
  --positions F  reference positions file           --limit N    only the first N positions
  --chance       the chance meter at every position: prints its reliability (estimate vs reached, per tenth)
  --threads T    threads searching each decision together (expectimax: sharing each root move's spawn children on
                 one table; other strategies: by root move); games are then played one at a time
  --split roots  with --threads: split each decision by root move instead, a table per thread (to compare)
  -h, --help     this help
`;

const OPTIONS = {
  strategy: { type: 'string' },
  games: { type: 'string' },
  'first-game': { type: 'string' },
  seed: { type: 'string' },
  jobs: { type: 'string' },
  target: { type: 'string' },
  start: { type: 'string' },
  ...SEARCH_OPTION_SPECS,
  ...BANK_OPTION_SPECS,
  ...ENGINE_OPTION_SPECS,
  ...NETWORK_OPTION_SPECS,
  ...TABLES_OPTION_SPECS,
  runs: { type: 'string' },
  size: { type: 'string' },
  json: { type: 'boolean' },
  positions: { type: 'string' },
  threads: { type: 'string' },
  split: { type: 'string' },
  limit: { type: 'string' },
  chance: { type: 'boolean' },
} as const;

const STRENGTH_ONLY = ['chance', 'strategy', 'games', 'first-game', 'seed', 'jobs', 'target', 'start', 'reference', 'depth', 'time-ms', 'bank', 'playouts', 'runs', 'size', 'tables', 'table-threshold', 'network', 'eval'];

function parseTarget(args: ParsedArgs): number | undefined {
  const target = args.int('target', { min: 4, max: 131_072 });
  if (target !== undefined && (target & (target - 1)) !== 0) throw new UsageError(`--target must be a power of two, got ${target}`);
  return target;
}

function describeOptions(strategy: StrategyName, options: SearchOptions, target: number | undefined, size: number): string {
  const parts = [`strategy ${strategy}`, ...describeSearchOptions(options)];
  if (target !== undefined) parts.push(`target ${target}`);
  if (size !== 4) parts.push(`board ${size}x${size}`);
  return parts.join(', ');
}

function printSummary(summary: BenchSummary, seconds: number): void {
  const lines: string[] = [];
  lines.push(
    ...formatTable(
      [{ header: 'reach', align: 'left' }, ...REACH_TILES.map((tile) => ({ header: String(tile) }))],
      [['games', ...REACH_TILES.map((tile) => formatPercent(summary.reach[String(tile)] ?? 0))]],
    ),
  );
  lines.push('');
  const row = (name: string, s: { min: number; median: number; mean: number; max: number }): string[] => [
    name,
    formatNumber(s.min),
    formatNumber(s.median),
    formatNumber(s.mean, 1),
    formatNumber(s.max),
  ];
  lines.push(
    ...formatTable(
      [{ header: '', align: 'left' }, { header: 'min' }, { header: 'median' }, { header: 'mean' }, { header: 'max' }],
      [row('score', summary.score), row('moves', summary.movesPerGame)],
    ),
  );
  lines.push('');
  lines.push(`best tile: median ${formatNumber(summary.maxTile.median)}, max ${formatNumber(summary.maxTile.max)}`);
  lines.push(`think time: ${summary.msPerMove.toFixed(3)} ms/move (p50 ${summary.thinkMs.p50.toFixed(1)}, p99 ${summary.thinkMs.p99.toFixed(1)}, max ${summary.thinkMs.max.toFixed(1)}); wall ${seconds.toFixed(1)} s`);
  if (summary.depth.mean > 0) {
    const spread = summary.depth.counts.map((n, depth) => (n > 0 ? `${depth}: ${formatPercent(n / summary.depth.counts.reduce((a, b) => a + b, 0))}` : '')).filter(Boolean);
    lines.push(`depth reached: mean ${summary.depth.mean.toFixed(2)} (${spread.join(', ')})`);
  }
  if (summary.stuck > 0) lines.push(`warning: ${summary.stuck} game(s) ended because the strategy returned no usable move`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function strengthBench(args: ParsedArgs): Promise<void> {
  const strategy = args.strategy();
  const size = args.int('size', SIZE_RANGE, 4) as number;
  const startFile = args.string('start');
  const starts = startFile === undefined ? undefined : parseStartBoards(readText(startFile), startFile, size);
  const games = args.int('games', { min: 1, max: 1_000_000 }, starts?.length ?? 10) as number;
  if (args.has('first-game') && !args.has('games')) throw new UsageError('--first-game needs --games: how many games to play from it');
  // Games are numbered from 1 where they are shown, indexed from 0 in the code (game i is seeded from K and i).
  const first = (args.int('first-game', { min: 1, max: 1_000_000 }, 1) as number) - 1;
  const seed = args.int('seed', { min: 0, max: 0xffffffff }, 1) as number;
  const jobs = args.int('jobs', { min: 1, max: 256 }, availableParallelism()) as number;
  const runs = args.int('runs', { min: 1, max: 1000 }, 1) as number;
  const target = parseTarget(args);
  const threads = args.int('threads', { min: 1, max: MAX_SPLIT_THREADS }, 1) as number;
  if (threads > 1 && args.has('jobs')) throw new UsageError('--threads above 1 plays one game at a time: leave out --jobs');
  if (args.has('split') && threads < 2) throw new UsageError('--split applies with --threads 2 or more');
  const split = args.choice<SplitMode>('split', ['shared', 'roots'], 'shared');
  const options = searchOptionsFrom(args, strategy);
  const engine = engineFrom(args);
  const network = networkFileFrom(args);
  if (strategy === 'network' && network === null) throw new UsageError('the network strategy needs a network: --network FILE (npm run train writes one)');
  const tables = tablesFrom(args);
  const bank = bankFrom(args, strategy, options, size);
  if (args.flag('chance') && network === null) throw new UsageError('--chance needs the network (the meter maps its values): --network FILE');
  // Every option is checked before the core and the network load (seconds): bad input is told at once.
  await useEngine(engine);
  const evaluatedWith = networkInUse(network, strategy, options, args.flag('chance'));
  useNetwork(evaluatedWith);
  let tableReports: Awaited<ReturnType<typeof loadOrBuildTables>>['reports'] = [];
  if (tables.on) {
    // Build (or check) the tables once here; the worker threads then read them from the cache (with
    // --threads the games are played on this thread).
    const loaded = await loadOrBuildTables(CLI_TABLE_SPECS, tablesCacheDir(), (text) => progress(text));
    tableReports = loaded.reports;
    installTables(loaded.tables);
    endProgress();
    const built = tableReports.filter((r) => r.source === 'built');
    const bytes = tableReports.reduce((sum, r) => sum + r.bytes, 0);
    process.stdout.write(
      `endgame tables: ${tableReports.length} (${(bytes / 2 ** 20).toFixed(1)} MiB) in ${tablesCacheDir()}` +
        (built.length ? `, ${built.length} built now in ${(built.reduce((t, r) => t + (r.buildMs ?? 0), 0) / 1000).toFixed(1)} s` : '') + '\n',
    );
  }
  const settings: GameSettings = {
    strategy,
    options,
    target,
    rows: size,
    cols: size,
    engine,
    network: evaluatedWith,
    ...(tables.on ? { tables } : {}),
    ...(bank !== undefined ? { bank } : {}),
    ...(args.flag('chance') ? { chance: 'measure' as const } : {}),
  };
  const json = args.flag('json');

  process.stdout.write(
    `bench: ${describeOptions(strategy, options, target, size)}${bank !== undefined ? `, time bank up to ${bank}x` : ''}${network !== null && (strategy === 'network' || (strategy === 'expectimax' && options.evaluation !== 'heuristic' && !options.reference)) ? `, network ${network}` : ''}; ${games} games${first > 0 ? ` (${first + 1} to ${first + games} of the bench)` : ''}${starts ? ` from the ${starts.length} boards of ${startFile}` : ''}, seed ${seed}, ${
      threads > 1 ? `one at a time, each move searched on ${threads} threads${split === 'roots' ? ' by root move' : ''}` : `${Math.min(jobs, games)} thread(s)`
    }\n`,
  );
  const perRun: { results: GameResult[]; summary: BenchSummary; seconds: number; tableMoves: number; extendedMoves: number }[] = [];
  for (let run = 1; run <= runs; run++) {
    const started = performance.now();
    const runLabel = runs > 1 ? `run ${run}/${runs}: ` : '';
    let reported = 0;
    const onProgress = (p: BenchProgress): void => {
      // Each finished game once, as it ends (a long bench keeps its games even if it is cut short).
      for (; reported < p.finished.length; reported++) {
        const g = p.finished[reported];
        endProgress();
        process.stderr.write(`${runLabel}game ${g.index + 1} (seed ${g.seed}): best tile ${g.maxTile}, score ${g.score}, ${g.moves} moves, ${g.end}\n`);
      }
      const best = Math.max(0, ...p.finished.map((g) => g.maxTile), ...[...p.running.values()].map((g) => g.maxTile));
      const moves = [...p.running.values()].reduce((sum, g) => sum + g.moves, 0) + p.finished.reduce((s, g) => s + g.moves, 0);
      const elapsed = (performance.now() - started) / 1000;
      progress(`${runLabel}${p.done}/${p.total} games, ${moves} moves, best tile ${best}, ${elapsed.toFixed(1)} s`);
    };
    const toPlay = { games, first, seed, settings, starts, onProgress };
    const results = threads > 1 ? await runGamesOnThreads(toPlay, threads, split) : await runGamesInWorkers({ ...toPlay, jobs });
    const seconds = (performance.now() - started) / 1000;
    endProgress();
    const summary = summarizeBench(strategy, seed, results);
    const total = (count: (g: GameResult) => number | undefined): number => results.reduce((n, g) => n + (count(g) ?? 0), 0);
    perRun.push({ results, summary, seconds, tableMoves: total((g) => g.tableMoves), extendedMoves: total((g) => g.extendedMoves) });
    if (bank !== undefined) {
      const moves = total((g) => g.moves);
      process.stdout.write(`${runLabel}time bank: ${total((g) => g.extendedMoves)} of ${moves} moves took extra time (up to ${bank} x ${options.timeMs ?? DEFAULT_TIME_MS} ms)\n`);
    }
    if (runs > 1) process.stdout.write(`run ${run}/${runs}: wall ${seconds.toFixed(2)} s, ${summary.msPerMove.toFixed(3)} ms/move, mean score ${formatNumber(summary.score.mean, 1)}\n`);
  }
  const seconds = median(perRun.map((r) => r.seconds));
  const msPerMove = median(perRun.map((r) => r.summary.msPerMove));
  const firstRun = perRun[0].summary;
  printSummary({ ...firstRun, msPerMove }, seconds);
  const chance = settings.chance ? reliability(perRun[0].results) : null;
  if (chance) process.stdout.write(`\n${formatReliability(chance).join('\n')}`);
  if (runs > 1) process.stdout.write(`median over ${runs} runs: wall ${seconds.toFixed(2)} s, ${msPerMove.toFixed(3)} ms/move\n`);
  if (json) {
    const out = {
      ...firstRun,
      msPerMove,
      seconds,
      jobs: threads > 1 ? 1 : Math.min(jobs, games),
      threads,
      split: threads > 1 ? split : null,
      engine,
      network,
      tables: tables.on ? { threshold: tables.threshold, tableMoves: perRun[0].tableMoves } : null,
      bank: bank !== undefined ? { factor: bank, extendedMoves: perRun[0].extendedMoves } : null,
      options: { ...options, target: target ?? null, size },
      start: starts ? { file: startFile, boards: starts.length } : null,
      firstGame: first + 1,
      // Each game by its number in the whole bench (--first-game), so that parts played apart add up.
      perGame: perRun[0].results.map((g) => ({ game: g.index + 1, seed: g.seed, score: g.score, maxTile: g.maxTile, moves: g.moves, end: g.end, thinkMs: g.thinkMs })),
      ...(chance ? { chance } : {}),
      runs: perRun.map((r) => ({ seconds: r.seconds, msPerMove: r.summary.msPerMove, meanScore: r.summary.score.mean })),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
}

/** Games one at a time, each move's search shared by `threads` worker threads (./split-games.ts). */
async function runGamesOnThreads(options: Omit<RunGamesOptions, 'jobs'>, threads: number, split: SplitMode): Promise<GameResult[]> {
  const { games, seed, settings, onProgress } = options;
  const first = options.first ?? 0;
  const chooser = await threadedChooser(settings, threads, split);
  try {
    const seeds = gameSeeds(seed, games, first);
    const finished: GameResult[] = [];
    const running = new Map<number, { moves: number; maxTile: number }>();
    const report = (): void => onProgress?.({ done: finished.length, total: games, running, finished });
    for (const [slot, gameSeed] of seeds.entries()) {
      const index = first + slot;
      const { grid: _grid, ...result } = await playGame(index, gameSeed, settingsOfGame(options, index), {
        choose: chooser.choose,
        onState: (state) => {
          running.set(index, { moves: state.moves, maxTile: maxTile(state.grid) });
          report();
        },
      });
      running.delete(index);
      finished.push(result);
      // Each game as it ends, the last one too.
      report();
    }
    return finished;
  } finally {
    await chooser.close();
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const args = parseCommandLine(argv, OPTIONS);
  if (args.has('positions')) await positionsBench(args, STRENGTH_ONLY);
  else {
    if (args.has('limit')) throw new UsageError('--limit applies only with --positions');
    await strengthBench(args);
  }
}

/** `npm run bench -- ARGS`: its exit status, its output through `io` (usage and errors; the work writes to the process). */
export function cli(argv: readonly string[], io?: CliIo): Promise<number> {
  return runCli(USAGE, () => main(argv), io);
}

if (isEntryPoint(import.meta.url)) await cli(process.argv.slice(2));
