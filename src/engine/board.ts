/**
 * The 4x4 bitboard: 16 cells of 4 bits holding the rank (log2 of the tile, 0 = empty); cell (r, c) at
 * bit 4·(4r + c) of a 64-bit board kept as two int32 halves: `lo` = rows 0 and 1, `hi` = rows 2 and 3.
 * A 16-bit row (nibble i = column i) indexes 65 536-entry tables; columns are packed the same way
 * (nibble i = row i) so up/down reuse the left/right tables.
 *
 * Moves write their result into OUT (no allocation): OUT[0] = lo, OUT[1] = hi.
 */
import type { Grid, HeuristicWeights } from './types';
import { validateGrid } from './grid';

const BITBOARD_MAX_RANK = 15;

/** Row after a left move (towards nibble 0) / a right move. A 15+15 merge stays 15 (2^16 does not fit). */
export const ROW_LEFT = new Uint16Array(65536);
export const ROW_RIGHT = new Uint16Array(65536);
/** Score gained by the left / right move of a row. */
export const SCORE_LEFT = new Uint32Array(65536);
export const SCORE_RIGHT = new Uint32Array(65536);
/** The line evaluation (docs: engine.md, "The heuristic evaluation"), computed in 32-bit float arithmetic step by step. */
export const HEUR = new Float32Array(65536);
/** Empty cells in a row. */
export const EMPTY = new Uint8Array(65536);
/** A byte holding two nibbles (rows i, i+1 of a column) spread to bits 0 and 16 of a half. */
export const SPREAD = new Int32Array(256);

export const OUT = new Int32Array(2);

function slideLeft(line: number[]): { line: number[]; score: number } {
  const out: number[] = [];
  let score = 0;
  let pending = 0;
  for (const r of line) {
    if (r === 0) continue;
    if (pending === 0) pending = r;
    else if (pending === r) {
      const merged = r === 15 ? 15 : r + 1;
      out.push(merged);
      score += 2 ** (r + 1);
      pending = 0;
    } else {
      out.push(pending);
      pending = r;
    }
  }
  if (pending !== 0) out.push(pending);
  while (out.length < 4) out.push(0);
  return { line: out, score };
}

const F = Math.fround;

/**
 * The weights of the line heuristic: the reference solver's (docs: engine.md, "The heuristic evaluation").
 * The reference configuration reproduces its values with them, and play evaluates with them too: weights
 * tuned at fixed depths did worse in timed play (docs/research/2026-11-25-shallow-weights.md).
 */
const REFERENCE_WEIGHTS: HeuristicWeights = Object.freeze({
  lost: 200000,
  empty: 270,
  merges: 700,
  monotonicity: 47,
  monotonicityPower: 4,
  sum: 11,
  sumPower: 3.5,
});

/** rank^sumPower and rank^monotonicityPower for ranks 0..31 (the doubles Math.pow gives, looked up). */
const POW_SUM = new Float64Array(32);
const POW_MONO = new Float64Array(32);
const weights: HeuristicWeights = REFERENCE_WEIGHTS;

function setPowers(w: HeuristicWeights): void {
  for (let r = 0; r < 32; r++) {
    POW_SUM[r] = Math.pow(r, w.sumPower);
    POW_MONO[r] = Math.pow(r, w.monotonicityPower);
  }
}
setPowers(weights);

/** The line evaluation in float32 steps, for a line of ranks (any length). */
export function lineHeuristic(line: ArrayLike<number>): number {
  return lineHeuristicAt(line, 0, 1, line.length);
}

/** The same for the line ranks[start + k·step], k = 0..len-1 (no allocation). */
export function lineHeuristicAt(ranks: ArrayLike<number>, start: number, step: number, len: number): number {
  let sum = 0;
  let empty = 0;
  let merges = 0;
  let prev = 0;
  let counter = 0;
  for (let i = 0; i < len; i++) {
    const rank = ranks[start + i * step];
    sum = F(sum + POW_SUM[rank]);
    if (rank === 0) {
      empty++;
    } else {
      if (prev === rank) counter++;
      else if (counter > 0) {
        merges += 1 + counter;
        counter = 0;
      }
      prev = rank;
    }
  }
  if (counter > 0) merges += 1 + counter;
  let monoL = 0;
  let monoR = 0;
  for (let i = 1; i < len; i++) {
    const a = ranks[start + (i - 1) * step];
    const b = ranks[start + i * step];
    if (a > b) monoL = F(monoL + (POW_MONO[a] - POW_MONO[b]));
    else monoR = F(monoR + (POW_MONO[b] - POW_MONO[a]));
  }
  const w = weights;
  let v = F(F(w.lost) + F(F(w.empty) * empty));
  v = F(v + F(F(w.merges) * merges));
  v = F(v - F(F(w.monotonicity) * Math.min(monoL, monoR)));
  v = F(v - F(F(w.sum) * sum));
  return v;
}

function fillHeuristic(): void {
  const line = [0, 0, 0, 0];
  for (let row = 0; row < 65536; row++) {
    for (let i = 0; i < 4; i++) line[i] = (row >>> (4 * i)) & 0xf;
    HEUR[row] = lineHeuristic(line);
  }
}

function buildTables(): void {
  const line = [0, 0, 0, 0];
  for (let row = 0; row < 65536; row++) {
    for (let i = 0; i < 4; i++) line[i] = (row >>> (4 * i)) & 0xf;
    const left = slideLeft(line);
    const right = slideLeft([line[3], line[2], line[1], line[0]]);
    let l = 0;
    let r = 0;
    for (let i = 0; i < 4; i++) {
      l |= left.line[i] << (4 * i);
      r |= right.line[3 - i] << (4 * i);
    }
    ROW_LEFT[row] = l;
    ROW_RIGHT[row] = r;
    SCORE_LEFT[row] = left.score;
    SCORE_RIGHT[row] = right.score;
    EMPTY[row] = (line[0] === 0 ? 1 : 0) + (line[1] === 0 ? 1 : 0) + (line[2] === 0 ? 1 : 0) + (line[3] === 0 ? 1 : 0);
  }
  for (let b = 0; b < 256; b++) SPREAD[b] = (b & 0xf) | ((b >>> 4) << 16);
  fillHeuristic();
}
buildTables();

/** Column c packed as a 16-bit line (nibble i = row i). */
function columnOf(lo: number, hi: number, c: number): number {
  const s = 4 * c;
  const x = (lo >>> s) & 0x000f000f;
  const y = (hi >>> s) & 0x000f000f;
  return ((x | (x >>> 12)) & 0xff) | (((y | (y >>> 12)) & 0xff) << 8);
}

/** Direction 0 up, 1 down, 2 left, 3 right; result in OUT. Returns the score gained. */
export function executeMove(lo: number, hi: number, dir: number): number {
  if (dir === 2) {
    const a = lo & 0xffff, b = lo >>> 16, c = hi & 0xffff, d = hi >>> 16;
    OUT[0] = ROW_LEFT[a] | (ROW_LEFT[b] << 16);
    OUT[1] = ROW_LEFT[c] | (ROW_LEFT[d] << 16);
    return SCORE_LEFT[a] + SCORE_LEFT[b] + SCORE_LEFT[c] + SCORE_LEFT[d];
  }
  if (dir === 3) {
    const a = lo & 0xffff, b = lo >>> 16, c = hi & 0xffff, d = hi >>> 16;
    OUT[0] = ROW_RIGHT[a] | (ROW_RIGHT[b] << 16);
    OUT[1] = ROW_RIGHT[c] | (ROW_RIGHT[d] << 16);
    return SCORE_RIGHT[a] + SCORE_RIGHT[b] + SCORE_RIGHT[c] + SCORE_RIGHT[d];
  }
  const table = dir === 0 ? ROW_LEFT : ROW_RIGHT;
  const scores = dir === 0 ? SCORE_LEFT : SCORE_RIGHT;
  let nlo = 0;
  let nhi = 0;
  let score = 0;
  for (let c = 0; c < 4; c++) {
    const col = columnOf(lo, hi, c);
    const moved = table[col];
    score += scores[col];
    nlo |= SPREAD[moved & 0xff] << (4 * c);
    nhi |= SPREAD[moved >>> 8] << (4 * c);
  }
  OUT[0] = nlo;
  OUT[1] = nhi;
  return score;
}

/** The board's evaluation (the reference solver's): float32 sum of the 4 row values, of the 4 column values, then of both. */
export function heuristic(lo: number, hi: number): number {
  const rows = F(F(F(HEUR[lo & 0xffff] + HEUR[lo >>> 16]) + HEUR[hi & 0xffff]) + HEUR[hi >>> 16]);
  const cols = F(
    F(F(HEUR[columnOf(lo, hi, 0)] + HEUR[columnOf(lo, hi, 1)]) + HEUR[columnOf(lo, hi, 2)]) + HEUR[columnOf(lo, hi, 3)],
  );
  return F(rows + cols);
}

/** Number of distinct non-zero ranks on the board. */
export function countDistinctRanks(lo: number, hi: number): number {
  let seen = 0;
  for (let i = 0; i < 8; i++) {
    seen |= 1 << ((lo >>> (4 * i)) & 0xf);
    seen |= 1 << ((hi >>> (4 * i)) & 0xf);
  }
  seen >>>= 1;
  let n = 0;
  while (seen !== 0) {
    seen &= seen - 1;
    n++;
  }
  return n;
}

/** True when the grid fits the bitboard: 4x4 with tiles up to 32768. */
export function fitsBitboard(grid: Grid): boolean {
  if (grid.rows !== 4 || grid.cols !== 4) return false;
  for (const v of grid.cells) if (v > 32768) return false;
  return true;
}

/** Grid → bitboard in OUT; RangeError naming the cell for a value the bitboard cannot hold. */
export function fromGrid(grid: Grid): void {
  validateGrid(grid, BITBOARD_MAX_RANK);
  if (grid.rows !== 4 || grid.cols !== 4) throw new RangeError(`bitboard: needs a 4x4 grid, got ${grid.rows}x${grid.cols}`);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 16; i++) {
    const v = grid.cells[i];
    const r = v === 0 ? 0 : Math.round(Math.log2(v));
    if (i < 8) lo |= r << (4 * i);
    else hi |= r << (4 * (i - 8));
  }
  OUT[0] = lo;
  OUT[1] = hi;
}

export function toGrid(lo: number, hi: number): Grid {
  const cells: number[] = [];
  for (let i = 0; i < 16; i++) {
    const r = i < 8 ? (lo >>> (4 * i)) & 0xf : (hi >>> (4 * (i - 8))) & 0xf;
    cells.push(r === 0 ? 0 : 2 ** r);
  }
  return { rows: 4, cols: 4, cells };
}
