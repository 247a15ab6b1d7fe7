/**
 * Expectimax: max over moves, expectation over spawns (every empty cell × {2: 0.9, 4: 0.1}), cut off
 * when the cumulative probability of a branch falls below 0.0001, transposition table per root move.
 *
 * The 4x4 search follows SOLVER.md "The strong expectimax in detail" exactly (float32 arithmetic,
 * counting 4 move executions per max node), so that with options.reference it reproduces the values and
 * execution counts of tests/fixtures/reference/expectimax-positions.tsv. Without `reference` it runs by
 * iterative deepening under options.timeMs (default 100 ms), or to a fixed options.depth.
 * Other board sizes (and 4x4 boards holding tiles above 32768) take the general path on rank arrays.
 *
 * The recursion uses module-level state and plain functions (no closures or objects per node).
 */
import type { Grid, HeuristicWeights, MoveChoice, MoveValues, SearchEngine, SearchOptions, Strategy } from '../types';
import { DIRECTIONS } from '../types';
import * as bitboard from '../board';
import * as rules from '../rules';
import * as ttable from '../ttable';
import { bestOf, checkAbort, choice, deepen, intOption, now, prepare, timeBudget, valuesOf, yieldToEventLoop } from './common';
import { useCoreFourCut, useCoreWeights, wasmCore } from '../wasm/core';
import type { WasmCore } from '../wasm/core';
import { DEFAULT_TIME_MS } from '../limits';

// Local bindings of the hot imports: some module loaders (tsx, vitest) turn every access to an imported
// binding into a getter call, which costs more than the work in the inner loop.
const { EMPTY, HEUR, OUT, REFERENCE_WEIGHTS, ROW_LEFT, ROW_RIGHT, SPREAD, executeMove, fitsBitboard, fromGrid, lineHeuristicAt } = bitboard;
const { countEmptyRanks, moveRanks } = rules;
const { DEFAULT_TT_LOG2, ttConfigure, ttGet, ttNewGeneration, ttPut } = ttable;
const F = Math.fround;
const F09 = Math.fround(0.9);
const F01 = Math.fround(0.1);
/** The float32 nearest 0.0001, as the reference compares its float cumulative probability with it. */
const PROB_THRESHOLD = Math.fround(0.0001);
const CACHE_DEPTH_LIMIT = 15;
/** The 4x4 search reads the clock every this many move executions (~1 ms of work in TypeScript), so the
 *  time between two checks does not depend on the shape of the tree. */
const CHECK_EXECUTIONS = 32_768;
const CHECK_EVERY_GENERAL = 128;

/** options.maxNodes: the move executions a timed search may do in all (Infinity when not given). */
function nodeBudget(options: SearchOptions | undefined): number {
  const n = options?.maxNodes;
  return n !== undefined && Number.isFinite(n) && n >= 0 ? Math.floor(n) : Infinity;
}
const MAX_DEPTH = 12;
const REFERENCE_TT_LOG2 = 16;

// ---- search state (module level, reset by each search) ----
let depthLimit = 0;
let curDepth = 0;
let executions = 0;
let deadline = Infinity;
let stopped = false;
let countdown = CHECK_EVERY_GENERAL;
/** 4x4: the executions at which the next check comes. */
let nextCheck = CHECK_EXECUTIONS;
/** Move executions this root search may do before it is abandoned (options.maxNodes). */
let executionLimit = Infinity;
let searchSignal: AbortSignal | undefined;
/** Below this cumulative probability a 4's spawn is valued as the 2's in its cell (useFourCut sets it). */
let fourCut = 0;

function poll(): void {
  countdown = CHECK_EVERY_GENERAL;
  nextCheck = Math.min(executions + CHECK_EXECUTIONS, executionLimit + 1);
  if (executions > executionLimit || searchSignal?.aborted || now() > deadline) stopped = true;
}

// ---- 4x4 bitboard search ----
// The hot path. The column packing (c0..c3), the SPREAD unpacking and the four unrolled directions repeat
// in heuristic4, leafMax4, rowsAndColumns and max4 on purpose: factored into helpers (column4(lo, hi, shift),
// rowsAndColumns → heuristic4) the same reference search measured 5–13 % slower under tsx, as V8 stops
// inlining at this depth. Keep them monomorphic, inline and allocation-free.

function heuristic4(lo: number, hi: number): number {
  const rows = F(F(F(HEUR[lo & 0xffff] + HEUR[lo >>> 16]) + HEUR[hi & 0xffff]) + HEUR[hi >>> 16]);
  let x = lo & 0x000f000f;
  let y = hi & 0x000f000f;
  const c0 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 4) & 0x000f000f;
  y = (hi >>> 4) & 0x000f000f;
  const c1 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 8) & 0x000f000f;
  y = (hi >>> 8) & 0x000f000f;
  const c2 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 12) & 0x000f000f;
  y = (hi >>> 12) & 0x000f000f;
  const c3 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  const cols = F(F(F(HEUR[c0] + HEUR[c1]) + HEUR[c2]) + HEUR[c3]);
  return F(rows + cols);
}

function chance4(lo: number, hi: number, cprob: number): number {
  if (cprob < PROB_THRESHOLD || curDepth >= depthLimit) return heuristic4(lo, hi);
  if (executions >= nextCheck) poll();
  if (stopped) return 0;
  if (curDepth < CACHE_DEPTH_LIMIT) {
    const cached = ttGet(lo, hi, curDepth);
    if (cached === cached) return cached; // not NaN: a hit
  }
  const open = EMPTY[lo & 0xffff] + EMPTY[lo >>> 16] + EMPTY[hi & 0xffff] + EMPTY[hi >>> 16];
  const p = F(cprob / open);
  const p9 = F(p * F09);
  const p1 = F(p * F01);
  // Below fourCut a 4's spawn is valued as the 2's in the same cell (weight 0.9 + 0.1), not searched.
  const skipFour = p1 < fourCut;
  let res = 0;
  for (let s = 0; s < 32; s += 4) {
    if (((lo >>> s) & 0xf) === 0) {
      const v2 = max4(lo | (1 << s), hi, p9);
      if (skipFour) res = F(res + v2);
      else {
        res = F(res + F(v2 * F09));
        res = F(res + F(max4(lo | (2 << s), hi, p1) * F01));
      }
    }
  }
  for (let s = 0; s < 32; s += 4) {
    if (((hi >>> s) & 0xf) === 0) {
      const v2 = max4(lo, hi | (1 << s), p9);
      if (skipFour) res = F(res + v2);
      else {
        res = F(res + F(v2 * F09));
        res = F(res + F(max4(lo, hi | (2 << s), p1) * F01));
      }
    }
  }
  res = F(res / open);
  if (curDepth < CACHE_DEPTH_LIMIT) ttPut(lo, hi, curDepth, res);
  return res;
}

/**
 * A max node whose children are all leaves (the chance nodes below it return the heuristic at once):
 * the same value as max4, computed without the calls, and reusing the moved columns (up/down) and
 * rows (left/right) as the child's lines. Float32 sums in the same order as heuristic4.
 */
function leafMax4(lo: number, hi: number): number {
  executions += 4;
  let best = 0;
  let v = 0;
  let x = lo & 0x000f000f;
  let y = hi & 0x000f000f;
  const c0 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 4) & 0x000f000f;
  y = (hi >>> 4) & 0x000f000f;
  const c1 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 8) & 0x000f000f;
  y = (hi >>> 8) & 0x000f000f;
  const c2 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 12) & 0x000f000f;
  y = (hi >>> 12) & 0x000f000f;
  const c3 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  // up: the child's columns are the moved columns.
  let m0 = ROW_LEFT[c0], m1 = ROW_LEFT[c1], m2 = ROW_LEFT[c2], m3 = ROW_LEFT[c3];
  if (m0 !== c0 || m1 !== c1 || m2 !== c2 || m3 !== c3) {
    const nlo = SPREAD[m0 & 0xff] | (SPREAD[m1 & 0xff] << 4) | (SPREAD[m2 & 0xff] << 8) | (SPREAD[m3 & 0xff] << 12);
    const nhi = SPREAD[m0 >>> 8] | (SPREAD[m1 >>> 8] << 4) | (SPREAD[m2 >>> 8] << 8) | (SPREAD[m3 >>> 8] << 12);
    const rows = F(F(F(HEUR[nlo & 0xffff] + HEUR[nlo >>> 16]) + HEUR[nhi & 0xffff]) + HEUR[nhi >>> 16]);
    const cols = F(F(F(HEUR[m0] + HEUR[m1]) + HEUR[m2]) + HEUR[m3]);
    v = F(rows + cols);
    if (v > best) best = v;
  }
  // down
  m0 = ROW_RIGHT[c0];
  m1 = ROW_RIGHT[c1];
  m2 = ROW_RIGHT[c2];
  m3 = ROW_RIGHT[c3];
  if (m0 !== c0 || m1 !== c1 || m2 !== c2 || m3 !== c3) {
    const nlo = SPREAD[m0 & 0xff] | (SPREAD[m1 & 0xff] << 4) | (SPREAD[m2 & 0xff] << 8) | (SPREAD[m3 & 0xff] << 12);
    const nhi = SPREAD[m0 >>> 8] | (SPREAD[m1 >>> 8] << 4) | (SPREAD[m2 >>> 8] << 8) | (SPREAD[m3 >>> 8] << 12);
    const rows = F(F(F(HEUR[nlo & 0xffff] + HEUR[nlo >>> 16]) + HEUR[nhi & 0xffff]) + HEUR[nhi >>> 16]);
    const cols = F(F(F(HEUR[m0] + HEUR[m1]) + HEUR[m2]) + HEUR[m3]);
    v = F(rows + cols);
    if (v > best) best = v;
  }
  // left: the child's rows are the moved rows.
  const r0 = lo & 0xffff, r1 = lo >>> 16, r2 = hi & 0xffff, r3 = hi >>> 16;
  let s0 = ROW_LEFT[r0], s1 = ROW_LEFT[r1], s2 = ROW_LEFT[r2], s3 = ROW_LEFT[r3];
  if (s0 !== r0 || s1 !== r1 || s2 !== r2 || s3 !== r3) {
    v = rowsAndColumns(s0, s1, s2, s3);
    if (v > best) best = v;
  }
  s0 = ROW_RIGHT[r0];
  s1 = ROW_RIGHT[r1];
  s2 = ROW_RIGHT[r2];
  s3 = ROW_RIGHT[r3];
  if (s0 !== r0 || s1 !== r1 || s2 !== r2 || s3 !== r3) {
    v = rowsAndColumns(s0, s1, s2, s3);
    if (v > best) best = v;
  }
  return best;
}

/** heuristic4 of the board made of rows s0..s3. */
function rowsAndColumns(s0: number, s1: number, s2: number, s3: number): number {
  const rows = F(F(F(HEUR[s0] + HEUR[s1]) + HEUR[s2]) + HEUR[s3]);
  const lo = s0 | (s1 << 16);
  const hi = s2 | (s3 << 16);
  let x = lo & 0x000f000f;
  let y = hi & 0x000f000f;
  const c0 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 4) & 0x000f000f;
  y = (hi >>> 4) & 0x000f000f;
  const c1 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 8) & 0x000f000f;
  y = (hi >>> 8) & 0x000f000f;
  const c2 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 12) & 0x000f000f;
  y = (hi >>> 12) & 0x000f000f;
  const c3 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  const cols = F(F(F(HEUR[c0] + HEUR[c1]) + HEUR[c2]) + HEUR[c3]);
  return F(rows + cols);
}

function max4(lo: number, hi: number, cprob: number): number {
  if (cprob < PROB_THRESHOLD || curDepth + 1 >= depthLimit) return leafMax4(lo, hi);
  curDepth++;
  executions += 4;
  let best = 0;
  let v = 0;
  // Columns packed as lines (nibble i = row i), for up (left on the column) and down (right).
  let x = lo & 0x000f000f;
  let y = hi & 0x000f000f;
  const c0 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 4) & 0x000f000f;
  y = (hi >>> 4) & 0x000f000f;
  const c1 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 8) & 0x000f000f;
  y = (hi >>> 8) & 0x000f000f;
  const c2 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  x = (lo >>> 12) & 0x000f000f;
  y = (hi >>> 12) & 0x000f000f;
  const c3 = ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
  // up
  let m0 = ROW_LEFT[c0], m1 = ROW_LEFT[c1], m2 = ROW_LEFT[c2], m3 = ROW_LEFT[c3];
  let nlo = SPREAD[m0 & 0xff] | (SPREAD[m1 & 0xff] << 4) | (SPREAD[m2 & 0xff] << 8) | (SPREAD[m3 & 0xff] << 12);
  let nhi = SPREAD[m0 >>> 8] | (SPREAD[m1 >>> 8] << 4) | (SPREAD[m2 >>> 8] << 8) | (SPREAD[m3 >>> 8] << 12);
  if (nlo !== lo || nhi !== hi) {
    v = chance4(nlo, nhi, cprob);
    if (v > best) best = v;
  }
  // down
  m0 = ROW_RIGHT[c0];
  m1 = ROW_RIGHT[c1];
  m2 = ROW_RIGHT[c2];
  m3 = ROW_RIGHT[c3];
  nlo = SPREAD[m0 & 0xff] | (SPREAD[m1 & 0xff] << 4) | (SPREAD[m2 & 0xff] << 8) | (SPREAD[m3 & 0xff] << 12);
  nhi = SPREAD[m0 >>> 8] | (SPREAD[m1 >>> 8] << 4) | (SPREAD[m2 >>> 8] << 8) | (SPREAD[m3 >>> 8] << 12);
  if (nlo !== lo || nhi !== hi) {
    v = chance4(nlo, nhi, cprob);
    if (v > best) best = v;
  }
  // left
  nlo = ROW_LEFT[lo & 0xffff] | (ROW_LEFT[lo >>> 16] << 16);
  nhi = ROW_LEFT[hi & 0xffff] | (ROW_LEFT[hi >>> 16] << 16);
  if (nlo !== lo || nhi !== hi) {
    v = chance4(nlo, nhi, cprob);
    if (v > best) best = v;
  }
  // right
  nlo = ROW_RIGHT[lo & 0xffff] | (ROW_RIGHT[lo >>> 16] << 16);
  nhi = ROW_RIGHT[hi & 0xffff] | (ROW_RIGHT[hi >>> 16] << 16);
  if (nlo !== lo || nhi !== hi) {
    v = chance4(nlo, nhi, cprob);
    if (v > best) best = v;
  }
  curDepth--;
  return best;
}

/** Value of one root move on the 4x4 board at the current depth limit: 0 when illegal. */
function root4(lo: number, hi: number, dir: number): number {
  executeMove(lo, hi, dir);
  const nlo = OUT[0];
  const nhi = OUT[1];
  if (nlo === lo && nhi === hi) return 0;
  ttNewGeneration();
  curDepth = 0;
  return F(chance4(nlo, nhi, 1) + 1e-6);
}

// ---- general path: any size, ranks up to 17, on rank arrays ----
// The same search as chance4/max4 on another board representation (a 4x4 board run through it gives the
// same values): kept as a separate copy so that neither path pays for the other's abstraction.

let gRows = 0;
let gCols = 0;
let scratch: Uint8Array[] = [];

function heuristicG(board: Uint8Array): number {
  let rows = 0;
  for (let r = 0; r < gRows; r++) rows = F(rows + lineHeuristicAt(board, r * gCols, 1, gCols));
  let cols = 0;
  for (let c = 0; c < gCols; c++) cols = F(cols + lineHeuristicAt(board, c, gCols, gRows));
  return F(rows + cols);
}

function hashA(board: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < board.length; i++) h = Math.imul(h ^ board[i], 0x01000193);
  return h;
}

function hashB(board: Uint8Array): number {
  let h = 0x2545f491;
  for (let i = 0; i < board.length; i++) {
    h = Math.imul(h + board[i] + i, 0x9e3779b1);
    h ^= h >>> 13;
  }
  return h;
}

function chanceG(board: Uint8Array, cprob: number): number {
  // Nodes are costly on big boards: leaves count towards the next deadline check too.
  if (--countdown <= 0 || executions > executionLimit) poll();
  if (stopped) return 0;
  if (cprob < PROB_THRESHOLD || curDepth >= depthLimit) return heuristicG(board);
  const ka = hashA(board);
  const kb = hashB(board);
  if (curDepth < CACHE_DEPTH_LIMIT) {
    const cached = ttGet(ka, kb, curDepth);
    if (cached === cached) return cached;
  }
  const open = countEmptyRanks(board);
  const p = F(cprob / open);
  const p9 = F(p * F09);
  const p1 = F(p * F01);
  const skipFour = p1 < fourCut;
  let res = 0;
  for (let i = 0; i < board.length; i++) {
    if (board[i] !== 0) continue;
    board[i] = 1;
    const v2 = maxG(board, p9);
    if (skipFour) res = F(res + v2);
    else {
      res = F(res + F(v2 * F09));
      board[i] = 2;
      res = F(res + F(maxG(board, p1) * F01));
    }
    board[i] = 0;
  }
  res = F(res / open);
  if (curDepth < CACHE_DEPTH_LIMIT) ttPut(ka, kb, curDepth, res);
  return res;
}

function maxG(board: Uint8Array, cprob: number): number {
  curDepth++;
  executions += 4;
  let best = 0;
  for (let dir = 0; dir < 4; dir++) {
    const dst = scratch[curDepth * 4 + dir];
    if (moveRanks(gRows, gCols, board, dst, dir) >= 0) {
      const v = chanceG(dst, cprob);
      if (v > best) best = v;
    }
  }
  curDepth--;
  return best;
}

function rootG(ranks: Uint8Array, dir: number): number {
  while (scratch.length < (depthLimit + 2) * 4 || (scratch.length > 0 && scratch[0].length !== ranks.length)) {
    if (scratch.length > 0 && scratch[0].length !== ranks.length) scratch = [];
    scratch.push(new Uint8Array(ranks.length));
  }
  const dst = scratch[dir];
  if (moveRanks(gRows, gCols, ranks, dst, dir) < 0) return 0;
  ttNewGeneration();
  curDepth = 0;
  return F(chanceG(dst, 1) + 1e-6);
}

function distinctRanks(ranks: Uint8Array): number {
  const seen = new Set<number>();
  for (const r of ranks) if (r !== 0) seen.add(r);
  return seen.size;
}

// ---- driver ----

/** The reference depth limit: max(3, distinct non-zero ranks − 2). */
export function referenceDepth(ranks: Uint8Array): number {
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

interface Board {
  readonly rows: number;
  readonly cols: number;
  readonly bitboard: boolean;
  readonly lo: number;
  readonly hi: number;
  readonly ranks: Uint8Array;
  /** The WebAssembly core searching this (4x4) board; null: the TypeScript search. */
  readonly core: WasmCore | null;
}

/**
 * Evaluate `board`'s searches with `weights`: the reference configuration with the reference's, play with
 * its options' weights (default the reference's too). A change forgets the transposition table (its values came from the other weights).
 */
function evaluateWith(board: Board, weights: HeuristicWeights): void {
  if (board.core) {
    useCoreWeights(board.core, weights);
  } else if (!bitboard.sameWeights(bitboard.heuristicWeights(), weights)) {
    bitboard.useHeuristicWeights(weights);
    ttNewGeneration();
  }
}

/**
 * The default four-spawn cut-off (SearchOptions.fourCut): 0, every 4 searched. A cut-off of 0.001 searches
 * about twice as fast at a fixed depth, but lost strength in timed play (README, "The four-spawn
 * cut-off"), so it stays an option to compare.
 */
export const FOUR_CUT = 0;

/** The four-spawn cut-off of a search with `options` (0 = every 4 searched). */
function fourCutOf(options: SearchOptions | undefined): number {
  if (options?.reference) return 0;
  const cut = options?.fourCut;
  return cut !== undefined && Number.isFinite(cut) && cut >= 0 ? Math.fround(cut) : Math.fround(FOUR_CUT);
}

/** Search `board` with the four-spawn cut-off `cut`; a change forgets the table (its values were other). */
function useFourCut(board: Board, cut: number): void {
  if (board.core) {
    useCoreFourCut(board.core, cut);
  } else if (fourCut !== cut) {
    fourCut = cut;
    ttNewGeneration();
  }
}

/** Prepare the transposition table of the core that searches `board` (see ttable.ttConfigure). */
function configureTable(board: Board, bits: number, exactMode: boolean): void {
  if (board.core) board.core.ttConfigure(bits, exactMode);
  else ttConfigure(bits, exactMode);
}

/** One search's own state, loaded into the module-level variables around each synchronous root search
 *  (so two searches interleaving at their yields in one thread do not disturb each other). */
interface SearchContext {
  deadline: number;
  signal: AbortSignal | undefined;
  executions: number;
  /** Move executions the whole search may do (options.maxNodes); Infinity: no budget. */
  maxExecutions: number;
}

/** Search one root move at depth limit `limit`; NaN when stopped (deadline or abort). */
function searchRoot(board: Board, dir: number, limit: number, context: SearchContext): number {
  depthLimit = limit;
  deadline = context.deadline;
  searchSignal = context.signal;
  stopped = false;
  countdown = CHECK_EVERY_GENERAL;
  executionLimit = Math.max(0, context.maxExecutions - context.executions);
  nextCheck = Math.min(CHECK_EXECUTIONS, executionLimit + 1);
  executions = 0;
  gRows = board.rows;
  gCols = board.cols;
  if (board.core) {
    board.core.setExecutionLimit(executionLimit);
    const v = board.core.searchRoot(board.lo >>> 0, board.hi >>> 0, dir, limit, context.deadline, true, 0);
    board.core.setExecutionLimit(Infinity);
    context.executions += board.core.lastExecutions();
    searchSignal = undefined;
    return v;
  }
  const value = board.bitboard ? root4(board.lo, board.hi, dir) : rootG(board.ranks, dir);
  context.executions += executions;
  searchSignal = undefined;
  return stopped ? NaN : value;
}

function boardOf(grid: Grid, ranks: Uint8Array, path: SearchPath = 'fast'): Board {
  if (path !== 'general' && fitsBitboard(grid)) {
    fromGrid(grid);
    const core = path === 'fast' ? wasmCore() : null;
    return { rows: 4, cols: 4, bitboard: true, lo: OUT[0], hi: OUT[1], ranks, core };
  }
  return { rows: grid.rows, cols: grid.cols, bitboard: false, lo: 0, hi: 0, ranks, core: null };
}

/** 'fast': the WebAssembly core when one is installed, else the TypeScript bitboard (4x4 boards);
 *  'bitboard': the TypeScript bitboard; 'general': the rank-array search (any size). */
export type SearchPath = 'fast' | 'bitboard' | 'general';

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
  evaluateWith(board, REFERENCE_WEIGHTS);
  useFourCut(board, 0);
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
  if (roots.length === 0) return choice('expectimax', {}, { depth: 0, nodes: 0, started, engine });
  evaluateWith(board, options?.reference ? REFERENCE_WEIGHTS : (options?.weights ?? REFERENCE_WEIGHTS));
  useFourCut(board, fourCutOf(options));
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
    return choice('expectimax', valuesOf(roots, scores), { depth: limit, nodes: context.executions, started, engine });
  }

  const timeMs = timeBudget(options, DEFAULT_TIME_MS);
  if (board.core) return spendBudget(board, board.core, roots, timeMs, options, signal, started);

  // Time budget: iterative deepening, keeping the last completed depth.
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
  return choice('expectimax', values, { depth, nodes: context.executions, started, valuesByDepth, engine });
}

/** Transposition table of the WebAssembly core in play: 2^21 entries of 16 bytes = 32 MiB per worker. */
const WASM_TT_LOG2 = 21;
/** The hard stop comes at this share of the budget, less DEADLINE_MARGIN_MS (the answer still has to be
 *  posted, and a busy machine may not schedule the thread exactly at the deadline). */
const DEADLINE_SHARE = 0.97;
const DEADLINE_MARGIN_MS = 1;
/** The hard stop never comes before this share of the budget, however late the thread has been. */
const MIN_DEADLINE_SHARE = 0.75;
/**
 * How late this thread has come back from a search stopped at its hard stop (ms): on a busy machine the
 * thread may be descheduled for tens of ms just when the deadline passes. A decaying maximum (up at once,
 * down by LATENESS_DECAY per stopped search); the hard stop comes that much before the budget's end.
 */
let lateness = 0;
const LATENESS_DECAY = 0.9;
/** The best move's search costs about this many times an average root move's. */
const PV_SHARE = 1.5;
/** Iterations of at least this many move executions tell how the work grows per layer. */
const GROWTH_SAMPLE_MIN = 20_000;
/** The lowest probability cut-off spendBudget goes to when the tree is bounded by it. */
const MIN_CUTOFF = 1e-9;
/** The deepest layer spendBudget goes to (the core caches chance nodes down to layer 15). */
const WASM_MAX_DEPTH = 16;
/** Work growth per added layer, learnt over the searches of this thread (move executions ratio). */
let growthEstimate = 6;
/** Work growth when the cut-off is divided by 4, learnt the same way. */
let cutoffGrowthEstimate = 2;

/** The depth this thread's searches reached within their budget lately: a moving average over the
 *  searches not extended (see worthExtending). */
let softDepth = 8;

/** Tests: set the recent depth worthExtending compares with (the moving average starts at 8). */
export function setRecentDepth(depth: number): void {
  softDepth = depth;
}

/**
 * Whether a search that has spent its budget is worth more time (options.extraMs): its best move changed
 * at its last completed depth, or it completed a layer less than this thread's searches lately (a big
 * tree, where the reference's depth rule would search longest). Below depth 3 a search has seen nothing.
 */
export function worthExtending(valuesByDepth: readonly MoveValues[], depth: number, recentDepth: number): boolean {
  if (depth < 3) return true;
  if (depth < recentDepth - 1) return true;
  return bestOf(valuesByDepth[depth] ?? {}) !== bestOf(valuesByDepth[depth - 1] ?? {});
}

/**
 * Iterative deepening on the WebAssembly core that spends the time budget:
 * - the transposition table is kept across iterations and across moves (entries hold the remaining depth
 *   they were searched to, and serve any search needing no more), bounded at 32 MiB, in buckets of 4 where
 *   a new entry replaces the one with the least remaining depth, less 4 layers per decision since it was
 *   stored (ttAgeTick: each decision is one); an entry of an earlier decision or cut-off serves only a node
 *   it pruned no more than (its cumulative probability over the cut-off, recorded in the entry): one of
 *   the decision before, one move further from its root, was pruned harder, and without that rule a lower
 *   cut-off read the higher one's values back and searched nothing;
 * - each iteration searches the root moves best first (by the previous iteration's values);
 * - the next step is one layer more, or, when a layer does not fit or adds nothing (the probability cut-off
 *   bounds the tree), the same depth with the cut-off divided by 4 (a finer step); each step's cost is
 *   predicted from the last iteration's time and the growth of move executions learnt over the searches;
 *   a step starts when the best move's share of it fits before the deadline (DEADLINE_SHARE of the budget);
 * - an iteration cut short at the deadline still counts when it completed the previous best move: a move
 *   that then scored better replaces it (the moves it completed carry the new values);
 * - with options.extraMs, a search that would stop at its hard stop goes on to a deadline that much later
 *   when worthExtending says the move is hard (once per search; the caller pays it from its bank).
 */
async function spendBudget(
  board: Board,
  core: WasmCore,
  roots: readonly number[],
  timeMs: number,
  options: SearchOptions | undefined,
  signal: AbortSignal | undefined,
  started: number,
): Promise<MoveChoice> {
  core.ttConfigure(options?.ttSizeLog2 ?? WASM_TT_LOG2, false);
  core.ttAgeTick();
  // The hard stop: DEADLINE_SHARE of the budget, or earlier by the lateness seen lately, so that the answer
  // comes within the budget even when the thread is descheduled at the deadline.
  const stopShare = Math.max(MIN_DEADLINE_SHARE * timeMs, Math.min(timeMs * DEADLINE_SHARE - DEADLINE_MARGIN_MS, timeMs - DEADLINE_MARGIN_MS - lateness));
  let deadline = started + stopShare;
  // A hard move may go on past the hard stop by options.extraMs (given from the game's bank).
  const extraMs = Number.isFinite(options?.extraMs) ? Math.max(0, options?.extraMs ?? 0) : 0;
  let extended = false;
  const maxExecutions = nodeBudget(options);
  const lo = board.lo >>> 0;
  const hi = board.hi >>> 0;
  let order = [...roots];
  const scores = [0, 0, 0, 0];
  let completed: MoveValues = {};
  let completedDepth = 0;
  let move: number | null = null;
  let executions = 0;
  const valuesByDepth: MoveValues[] = [{}];
  const iterationExecutions: number[] = [];
  const iterationMs: number[] = [];
  let depth = 1;
  let cutoff = PROB_THRESHOLD;
  let lastStep: 'layer' | 'cutoff' = 'layer';
  for (;;) {
    const iterationStart = now();
    const before = executions;
    const deeper: number[] = [];
    let interrupted = false;
    for (const dir of order) {
      await yieldToEventLoop(signal);
      // Depth 1 always completes; deeper, the search is abandoned at the hard stop or past options.maxNodes.
      const budgeted = depth > 1 && maxExecutions !== Infinity;
      if (budgeted) core.setExecutionLimit(Math.max(0, maxExecutions - executions));
      const v = core.searchRoot(lo, hi, dir, depth, depth === 1 ? Infinity : deadline, false, cutoff);
      if (budgeted) core.setExecutionLimit(Infinity);
      executions += core.lastExecutions();
      if (Number.isNaN(v)) {
        const late = now() - deadline;
        if (late >= 0) lateness = Math.max(late, lateness * LATENESS_DECAY);
        interrupted = true;
        break;
      }
      deeper.push(dir);
      scores[dir] = v;
    }
    if (interrupted) {
      checkAbort(signal);
      // Cut at the hard stop on a hard move: go on with the extra time, the same step again (what it had
      // searched is in the table).
      if (!extended && extraMs > 0 && executions < maxExecutions && worthExtending(valuesByDepth, completedDepth, softDepth)) {
        extended = true;
        deadline += extraMs;
        continue;
      }
      // The previous best was searched first: a completed move beating it at this depth replaces it.
      if (deeper.length >= 2 && move !== null) {
        let best = deeper[0];
        for (const dir of deeper) if (scores[dir] > scores[best]) best = dir;
        const partial: MoveValues = { ...completed };
        for (const dir of deeper) partial[DIRECTIONS[dir]] = scores[dir];
        // The moves not searched at this depth keep their shallower values, held below the best one's.
        for (const dir of roots) {
          const key = DIRECTIONS[dir];
          if (!deeper.includes(dir) && (partial[key] ?? 0) >= scores[best]) partial[key] = Math.fround(scores[best] * 0.999999);
        }
        completed = partial;
        move = best;
      }
      break;
    }
    completed = valuesOf(roots, scores);
    completedDepth = depth;
    valuesByDepth[depth] = completed;
    order = [...roots].sort((a, b) => scores[b] - scores[a]);
    move = order[0];
    iterationExecutions.push(executions - before);
    iterationMs.push(now() - iterationStart);
    const n = iterationExecutions.length;
    const last = iterationExecutions[n - 1];
    const previous = n >= 2 ? iterationExecutions[n - 2] : 0;
    // Learn what one more layer / a lower cut-off costs from iterations that did real work (not table hits).
    if (previous >= GROWTH_SAMPLE_MIN && last >= previous) {
      const ratio = last / previous;
      if (lastStep === 'layer') growthEstimate = Math.min(20, Math.max(1.5, 0.8 * growthEstimate + 0.2 * ratio));
      else if (lastStep === 'cutoff') cutoffGrowthEstimate = Math.min(20, Math.max(1.1, 0.8 * cutoffGrowthEstimate + 0.2 * ratio));
    }
    // Start a step when the best move's share of it fits (searched first, it counts even if the rest is cut).
    // A small iteration's time is mostly overhead (yields, a busy machine), not work: never stop on it.
    const fits = (growth: number, left: number): boolean =>
      last < GROWTH_SAMPLE_MIN || (iterationMs[n - 1] * growth * PV_SHARE) / Math.max(1, order.length) <= left;
    const layerGrowth = lastStep === 'layer' && previous >= GROWTH_SAMPLE_MIN && last > previous ? Math.max(growthEstimate, last / previous) : growthEstimate;
    // When the probability cut-off bounds the tree (the work stopped growing) a layer adds nothing.
    const saturated = depth >= 3 && last >= GROWTH_SAMPLE_MIN && last <= previous * 1.1;
    const nextStep = (): 'layer' | 'cutoff' | null => {
      const left = deadline - now();
      if (left <= 0) return null;
      if (!saturated && depth < WASM_MAX_DEPTH && fits(layerGrowth, left)) return 'layer';
      if (depth >= 3 && cutoff >= MIN_CUTOFF && fits(cutoffGrowthEstimate, left)) return 'cutoff';
      return null;
    };
    let step = nextStep();
    if (step === null && !extended && extraMs > 0 && worthExtending(valuesByDepth, completedDepth, softDepth)) {
      deadline += extraMs;
      step = nextStep();
      if (step === null) deadline -= extraMs;
      else extended = true;
    }
    if (step === 'layer') {
      depth++;
      lastStep = 'layer';
    } else if (step === 'cutoff') {
      // A finer step than a layer: the same depth with a lower cut-off.
      cutoff = Math.fround(cutoff / 4);
      lastStep = 'cutoff';
    } else {
      break;
    }
  }
  if (!extended) softDepth = 0.9 * softDepth + 0.1 * completedDepth;
  const result = choice('expectimax', completed, { depth: completedDepth, nodes: executions, started, valuesByDepth, engine: 'wasm' });
  return extended ? { ...result, extended: true } : result;
}

export const expectimax: Strategy = {
  name: 'expectimax',
  label: 'Expectimax (strongest)',
  description:
    'Looks several moves ahead, averaging over where the next tile may appear; the strongest strategy (default).',
  takes: ['timeMs', 'depth', 'reference', 'weights', 'fourCut'],
  split: 'root-moves',
  chooseMove,
};
