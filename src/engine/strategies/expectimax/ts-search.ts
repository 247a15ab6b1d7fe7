/**
 * The TypeScript expectimax searches: max over moves, expectation over every spawn (each empty cell × {2: 0.9,
 * 4: 0.1}), cut off where a branch's cumulative probability falls below PROB_THRESHOLD, chance nodes kept in
 * the transposition table of ../../ttable.ts. Two copies of one search: on the 4x4 bitboard (the hot path,
 * when no WebAssembly core is installed, and the oracle the core is tested against) and on rank arrays (any
 * board size). In the reference configuration both follow the reference solver exactly (float32 arithmetic,
 * 4 move executions per max node; docs: engine.md, "The search").
 *
 * The recursion keeps its state in module variables and plain functions (no closures or objects per node);
 * `searchRootTs` loads one search's state around each synchronous root search.
 */
import * as bitboard from '../../board';
import * as rules from '../../rules';
import * as ttable from '../../ttable';
import { now } from '../common';

// Local bindings of the hot imports: some module loaders (tsx, vitest) turn every access to an imported
// binding into a getter call, which costs more than the work in the inner loop.
const { EMPTY, HEUR, OUT, ROW_LEFT, ROW_RIGHT, SPREAD, executeMove, lineHeuristicAt } = bitboard;
const { countEmptyRanks, moveRanks } = rules;
const { ttGet, ttNewGeneration, ttPut } = ttable;
const F = Math.fround;
const F09 = Math.fround(0.9);
const F01 = Math.fround(0.1);
/** The float32 nearest 0.0001, as the reference compares its float cumulative probability with it. */
export const PROB_THRESHOLD = Math.fround(0.0001);
/** Chance nodes are cached down to this layer. */
const CACHE_DEPTH_LIMIT = 15;
/** The 4x4 search reads the clock every this many move executions (~1 ms of work in TypeScript), so the
 *  time between two checks does not depend on the shape of the tree. */
const CHECK_EXECUTIONS = 32_768;
/** The general search reads the clock every this many chance nodes (its nodes are costly on big boards). */
const CHECK_EVERY_GENERAL = 128;

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
  let res = 0;
  for (let s = 0; s < 32; s += 4) {
    if (((lo >>> s) & 0xf) === 0) {
      res = F(res + F(max4(lo | (1 << s), hi, p9) * F09));
      res = F(res + F(max4(lo | (2 << s), hi, p1) * F01));
    }
  }
  for (let s = 0; s < 32; s += 4) {
    if (((hi >>> s) & 0xf) === 0) {
      res = F(res + F(max4(lo, hi | (1 << s), p9) * F09));
      res = F(res + F(max4(lo, hi | (2 << s), p1) * F01));
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
  let res = 0;
  for (let i = 0; i < board.length; i++) {
    if (board[i] !== 0) continue;
    board[i] = 1;
    res = F(res + F(maxG(board, p9) * F09));
    board[i] = 2;
    res = F(res + F(maxG(board, p1) * F01));
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

/** One search's own state, loaded into the module variables around each synchronous root search (so two
 *  searches interleaving at their yields in one thread do not disturb each other). */
export interface SearchContext {
  deadline: number;
  signal: AbortSignal | undefined;
  executions: number;
  /** Move executions the whole search may do (options.maxNodes); Infinity: no budget. */
  maxExecutions: number;
}

/** A board as the TypeScript searches take it: the 4x4 bitboard's halves, or rank arrays of any size. */
export interface TsBoard {
  readonly rows: number;
  readonly cols: number;
  readonly bitboard: boolean;
  readonly lo: number;
  readonly hi: number;
  readonly ranks: Uint8Array;
}

/** Search one root move of `board` to depth limit `limit` on the TypeScript engine; NaN when stopped
 *  (deadline, abort or the context's execution budget). */
export function searchRootTs(board: TsBoard, dir: number, limit: number, context: SearchContext): number {
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
  const value = board.bitboard ? root4(board.lo, board.hi, dir) : rootG(board.ranks, dir);
  context.executions += executions;
  searchSignal = undefined;
  return stopped ? NaN : value;
}
