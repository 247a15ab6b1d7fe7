/**
 * Expectimax: max over moves, expectation over spawns (every empty cell × {2: 0.9, 4: 0.1}), cut off where
 * a branch's cumulative probability falls below 0.0001 (docs: engine.md, "The search").
 *
 * Three ways to search one decision, chosen here:
 * - the reference configuration (options.reference): the reference solver's depth rule, a fresh exact
 *   transposition table per root move, no clock; it reproduces the values and move executions of
 *   tests/fixtures/reference/expectimax-positions.tsv on either core;
 * - a fixed depth (options.depth): one search, the table fresh per root move;
 * - a time budget (options.timeMs, default DEFAULT_TIME_MS): on the WebAssembly core the time manager
 *   (./time-manager.ts: its table kept across iterations and moves), else iterative deepening on the
 *   TypeScript engine.
 * 4x4 boards take the WebAssembly core when one is installed (../../wasm/core.ts), else the TypeScript
 * bitboard; other sizes (and 4x4 boards holding tiles above 32768) the TypeScript search on rank arrays
 * (./ts-search.ts).
 */
import type { Evaluation, Grid, MoveChoice, MoveValues, SearchEngine, SearchOptions, Strategy } from '../../types';
import { fitsBitboard, fromGrid, OUT } from '../../board';
import { DEFAULT_TT_LOG2, ttConfigure } from '../../ttable';
import { checkAbort, choice, deepen, intOption, now, prepare, timeBudget, valuesOf, yieldToEventLoop } from '../common';
import { wasmCore } from '../../wasm/core';
import type { WasmCore } from '../../wasm/core';
import { DEFAULT_TIME_MS } from '../../limits';
import { searchRootTs } from './ts-search';
import type { SearchContext, TsBoard } from './ts-search';
import { TimeManager, coreIterations, nodeBudget } from './time-manager';
import { networkCore } from '../../network/installed';
import { useCoreNetwork } from '../../wasm/network';

export { worthExtending } from './time-manager';

/** The deepest fixed depth, and the deepest iteration of the TypeScript engine's deepening. */
const MAX_DEPTH = 12;
/** The reference configuration's table: 2^16 entries, fresh for each root move. */
const REFERENCE_TT_LOG2 = 16;

/** This thread's time manager (what it learns carries over from search to search). */
let timeManager = new TimeManager();

/**
 * Start this thread's searches afresh, as a new thread would: the installed WebAssembly core's play table
 * forgets its entries (a new generation) and the time manager what it learnt (growth, lateness, recent
 * depth). For benchmarks that compare configurations one after another in one thread: without it a later
 * one reads the earlier ones' entries of the same boards back and comes out deeper than it is. The
 * TypeScript search keeps nothing between searches (a new generation per root move). (docs: engine.md,
 * "The transposition table in play")
 */
export function forgetSearches(): void {
  const core = wasmCore();
  if (core && core.ttSizeLog2() > 0) core.ttNewGeneration();
  timeManager = new TimeManager();
}

/** Tests: set the recent depth worthExtending compares with (the moving average starts at 8). */
export function setRecentDepth(depth: number): void {
  timeManager.recentDepth = depth;
}

function distinctRanks(ranks: Uint8Array): number {
  const seen = new Set<number>();
  for (const r of ranks) if (r !== 0) seen.add(r);
  return seen.size;
}

/** The reference depth limit: max(3, distinct non-zero ranks − 2). */
function referenceDepth(ranks: Uint8Array): number {
  return Math.max(3, distinctRanks(ranks) - 2);
}

/**
 * The reference depth, lowered on boards larger than 4x4 (whose chance nodes have many more children)
 * so that a reference search there stays within seconds: at most 4 layers from 20 cells, 3 from 25.
 */
function referenceDepthForSize(ranks: Uint8Array): number {
  const depth = referenceDepth(ranks);
  if (ranks.length >= 25) return Math.min(depth, 3);
  if (ranks.length >= 20) return Math.min(depth, 4);
  return depth;
}

interface Board extends TsBoard {
  /** The WebAssembly core searching this (4x4) board; null: the TypeScript search. */
  readonly core: WasmCore | null;
}

/** Prepare the transposition table of the core that searches `board` (see ttable.ttConfigure). */
function configureTable(board: Board, bits: number, exactMode: boolean): void {
  if (board.core) board.core.ttConfigure(bits, exactMode);
  else ttConfigure(bits, exactMode);
}

/** Search one root move at depth limit `limit` (the reference's cut-off); NaN when stopped (deadline or abort). */
function searchRoot(board: Board, dir: number, limit: number, context: SearchContext): number {
  if (!board.core) return searchRootTs(board, dir, limit, context);
  const core = board.core;
  core.setExecutionLimit(Math.max(0, context.maxExecutions - context.executions));
  const value = core.searchRoot(board.lo >>> 0, board.hi >>> 0, dir, limit, context.deadline, true, 0);
  core.setExecutionLimit(Infinity);
  context.executions += core.lastExecutions();
  return value;
}

/** 'fast': the WebAssembly core when one is installed, else the TypeScript bitboard (4x4 boards);
 *  'bitboard': the TypeScript bitboard; 'general': the rank-array search (any size). */
export type SearchPath = 'fast' | 'bitboard' | 'general';

function boardOf(grid: Grid, ranks: Uint8Array, path: SearchPath = 'fast'): Board {
  if (path !== 'general' && fitsBitboard(grid)) {
    fromGrid(grid);
    const core = path === 'fast' ? wasmCore() : null;
    return { rows: 4, cols: 4, bitboard: true, lo: OUT[0], hi: OUT[1], ranks, core };
  }
  return { rows: grid.rows, cols: grid.cols, bitboard: false, lo: 0, hi: 0, ranks, core: null };
}

/**
 * Set the board's core to evaluate as `options` ask (the network by default, where one is loaded) and say
 * what evaluates: the network only on the WebAssembly core with a network loaded, never in the reference
 * configuration; the heuristic otherwise.
 */
function prepareEvaluation(board: Board, options: SearchOptions | undefined): Evaluation {
  const wanted = !options?.reference && (options?.evaluation ?? 'network') === 'network';
  if (!board.core) return 'heuristic';
  const core = wanted ? networkCore() : null;
  if (core === board.core) return useCoreNetwork(core, true) ? 'network' : 'heuristic';
  useCoreNetwork(board.core, false);
  return 'heuristic';
}

function engineOf(board: Board): SearchEngine {
  return board.core ? 'wasm' : 'ts';
}

/**
 * The reference search (synchronous; for tests and benchmarks): each move's value (0 = illegal) and
 * move executions, in the order up, down, left, right. `path: 'general'` runs a 4x4 board through the
 * general (rank array) search, which must give the same answers as the bitboard.
 */
export function referenceSearch(
  grid: Grid,
  path: SearchPath = 'fast',
): { values: number[]; executions: number[]; depthLimit: number; engine: SearchEngine } {
  const { ranks } = prepare(grid, undefined, undefined);
  const board = boardOf(grid, ranks, path);
  const limit = referenceDepth(ranks);
  prepareEvaluation(board, { reference: true });
  configureTable(board, REFERENCE_TT_LOG2, true);
  const values: number[] = [];
  const counts: number[] = [];
  for (let dir = 0; dir < 4; dir++) {
    const context: SearchContext = { deadline: Infinity, signal: undefined, executions: 0, maxExecutions: Infinity };
    values.push(searchRoot(board, dir, limit, context));
    counts.push(context.executions);
  }
  return { values, executions: counts, depthLimit: limit, engine: engineOf(board) };
}

async function chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
  const started = now();
  const { ranks, roots } = prepare(grid, options, signal);
  const board = boardOf(grid, ranks);
  const engine = engineOf(board);
  const evaluation = prepareEvaluation(board, options);
  if (roots.length === 0) return { ...choice('expectimax', {}, { depth: 0, nodes: 0, started, engine }), evaluation };
  const context: SearchContext = { deadline: Infinity, signal, executions: 0, maxExecutions: Infinity };

  // Reference or fixed depth: one search, no deadline. Kept apart from deepen() on purpose: the reference
  // configuration reconfigures the table per root and searches the first root before any yield.
  if (options?.reference || options?.depth !== undefined) {
    const scores = [0, 0, 0, 0];
    const limit = options.reference ? referenceDepthForSize(ranks) : intOption(options.depth, 3, 1, MAX_DEPTH);
    for (let i = 0; i < roots.length; i++) {
      if (i > 0) await yieldToEventLoop(signal);
      if (options.reference) configureTable(board, Math.max(REFERENCE_TT_LOG2, options.ttSizeLog2 ?? 0), true);
      else configureTable(board, options.ttSizeLog2 ?? DEFAULT_TT_LOG2, false);
      const v = searchRoot(board, roots[i], limit, context);
      if (Number.isNaN(v)) checkAbort(signal);
      scores[roots[i]] = v;
    }
    return { ...choice('expectimax', valuesOf(roots, scores), { depth: limit, nodes: context.executions, started, engine }), evaluation };
  }

  const timeMs = timeBudget(options, DEFAULT_TIME_MS);
  if (board.core) {
    const [lo, hi] = [board.lo >>> 0, board.hi >>> 0];
    const iterations = coreIterations(board.core, lo, hi, options, signal);
    return { ...(await timeManager.spendBudget(iterations, lo, hi, roots, timeMs, options, signal, started, evaluation === 'network')), evaluation };
  }

  // The TypeScript engine with a time budget: iterative deepening, keeping the last completed depth.
  const valuesByDepth: MoveValues[] = [{}];
  let executionsBefore = 0;
  let previousExecutions = -1;
  let previousMs = 0;
  const { values, depth } = await deepen({
    roots,
    signal,
    started,
    timeMs,
    fixed: false,
    maxDepth: MAX_DEPTH,
    searchRoot(dir, depth, rootDeadline) {
      context.deadline = rootDeadline;
      // Depth 1 always completes (there is always a move); deeper iterations stay within options.maxNodes.
      context.maxExecutions = depth === 1 ? Infinity : nodeBudget(options);
      configureTable(board, options?.ttSizeLog2 ?? DEFAULT_TT_LOG2, false);
      const v = searchRoot(board, dir, depth, context);
      return Number.isNaN(v) ? undefined : v;
    },
    deeper(_depth, completed, iterationMs, elapsed) {
      valuesByDepth.push(completed);
      const iterationExecutions = context.executions - executionsBefore;
      executionsBefore = context.executions;
      // Deeper adds nothing once the probability cut-off bounds the search.
      if (iterationExecutions === previousExecutions) return false;
      const growth = previousMs > 0.5 ? Math.min(8, Math.max(2, iterationMs / previousMs)) : 4;
      if (elapsed + iterationMs * growth > timeMs) return false;
      previousExecutions = iterationExecutions;
      previousMs = iterationMs;
      return true;
    },
  });
  return { ...choice('expectimax', values, { depth, nodes: context.executions, started, valuesByDepth, engine }), evaluation };
}

export const expectimax: Strategy = {
  name: 'expectimax',
  label: 'Expectimax (strongest)',
  description:
    'Looks several moves ahead, averaging over where the next tile may appear; the strongest strategy (default).',
  takes: ['timeMs', 'depth', 'reference', 'evaluation', 'easyStops'],
  split: 'root-moves',
  usesNetwork: true,
  chooseMove,
};
