/** The rules on the public Grid type (tile values), for any board size. Not a hot path: clarity first. */
import type { Direction, Grid } from './types';
import { DIRECTIONS } from './types';
import type { Rng } from './rng';
import { BOARD_LIMITS } from './limits';
import { MAX_RANK, canMoveRanks, directionIndex, hasLegalMove, moveRanks } from './rules';

const MIN_SIZE = BOARD_LIMITS.minSize;
const MAX_SIZE = BOARD_LIMITS.maxSize;

function rankOfValue(value: number): number {
  // Exact powers of two 2..2^17 only; anything else is -1.
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 2) return -1;
  const r = Math.round(Math.log2(value));
  return r >= 1 && r <= MAX_RANK && 2 ** r === value ? r : -1;
}

function describeCell(grid: Grid, index: number, maxRank: number): string {
  const row = Math.floor(index / grid.cols);
  const col = index % grid.cols;
  return `cell (row ${row}, col ${col}) holds ${String(grid.cells[index])}: not 0 or a power of two from 2 to ${2 ** maxRank}`;
}

/**
 * Check a grid's shape and cells; throws a RangeError naming what is wrong (rows and columns count
 * from 0). `maxRank` narrows the accepted tiles (the 4x4 bitboard holds up to 2^15).
 */
export function validateGrid(grid: Grid, maxRank: number = MAX_RANK): void {
  if (grid === null || typeof grid !== 'object') throw new RangeError('grid: not an object');
  const { rows, cols, cells } = grid;
  if (!Number.isInteger(rows) || rows < MIN_SIZE || rows > MAX_SIZE) {
    throw new RangeError(`grid: rows must be an integer from ${MIN_SIZE} to ${MAX_SIZE}, got ${String(rows)}`);
  }
  if (!Number.isInteger(cols) || cols < MIN_SIZE || cols > MAX_SIZE) {
    throw new RangeError(`grid: cols must be an integer from ${MIN_SIZE} to ${MAX_SIZE}, got ${String(cols)}`);
  }
  if (!Array.isArray(cells)) throw new RangeError('grid: cells must be an array');
  if (cells.length !== rows * cols) {
    throw new RangeError(`grid: ${rows}x${cols} needs ${rows * cols} cells, got ${cells.length}`);
  }
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (v === 0) continue;
    const r = rankOfValue(v);
    if (r < 0 || r > maxRank) throw new RangeError(describeCell(grid, i, maxRank));
  }
}

/** Ranks (log2, 0 = empty) of a grid, after validating it. */
export function gridToRanks(grid: Grid): Uint8Array {
  validateGrid(grid);
  const ranks = new Uint8Array(grid.cells.length);
  for (let i = 0; i < ranks.length; i++) ranks[i] = grid.cells[i] === 0 ? 0 : rankOfValue(grid.cells[i]);
  return ranks;
}

function ranksToGrid(rows: number, cols: number, ranks: Uint8Array): Grid {
  const cells: number[] = new Array<number>(ranks.length);
  for (let i = 0; i < ranks.length; i++) cells[i] = ranks[i] === 0 ? 0 : 2 ** ranks[i];
  return { rows, cols, cells };
}

function emptyGrid(rows = 4, cols = 4): Grid {
  return { rows, cols, cells: new Array<number>(rows * cols).fill(0) };
}

/** Apply a move: the new grid, the score it gained and whether anything changed. */
export function applyMove(grid: Grid, dir: Direction): { grid: Grid; score: number; moved: boolean } {
  const src = gridToRanks(grid);
  const dst = new Uint8Array(src.length);
  const score = moveRanks(grid.rows, grid.cols, src, dst, directionIndex(dir));
  if (score < 0) return { grid: { rows: grid.rows, cols: grid.cols, cells: [...grid.cells] }, score: 0, moved: false };
  return { grid: ranksToGrid(grid.rows, grid.cols, dst), score, moved: true };
}

/** The moves that change the board, in the order up, down, left, right. */
export function legalMoves(grid: Grid): Direction[] {
  const ranks = gridToRanks(grid);
  return DIRECTIONS.filter((d) => canMoveRanks(grid.rows, grid.cols, ranks, directionIndex(d)));
}

/** True when no move changes the board (an empty board included). */
export function isGameOver(grid: Grid): boolean {
  const ranks = gridToRanks(grid);
  if (!ranks.some((r) => r !== 0)) return true;
  return !hasLegalMove(grid.rows, grid.cols, ranks);
}

/** A 2 (p 0.9) or 4 (p 0.1) in a uniformly random empty cell; the grid unchanged when it is full. */
export function spawnRandomTile(grid: Grid, rng: Rng): Grid {
  validateGrid(grid);
  const empty: number[] = [];
  for (let i = 0; i < grid.cells.length; i++) if (grid.cells[i] === 0) empty.push(i);
  if (empty.length === 0) return { rows: grid.rows, cols: grid.cols, cells: [...grid.cells] };
  const at = empty[rng.int(empty.length)];
  const value = rng.next() < 0.9 ? 2 : 4;
  const cells = [...grid.cells];
  cells[at] = value;
  return { rows: grid.rows, cols: grid.cols, cells };
}

/** A new game: an empty board with two spawned tiles. */
export function newGame(rng: Rng, rows = 4, cols = 4): Grid {
  return spawnRandomTile(spawnRandomTile(emptyGrid(rows, cols), rng), rng);
}

/** The sum of the tiles: it grows by the spawned tile every move, so it orders a game's boards. */
export function tileSum(grid: Grid): number {
  let sum = 0;
  for (const v of grid.cells) sum += v;
  return sum;
}

/** The same board: size and every cell. */
export function sameGrid(a: Grid, b: Grid): boolean {
  if (a.rows !== b.rows || a.cols !== b.cols || a.cells.length !== b.cells.length) return false;
  for (let i = 0; i < a.cells.length; i++) if (a.cells[i] !== b.cells[i]) return false;
  return true;
}

/** The largest tile on the board (0 on an empty one). */
export function maxTile(grid: Grid): number {
  let best = 0;
  for (const v of grid.cells) if (v > best) best = v;
  return best;
}

/** True when `after` is `before` moved in `dir` plus exactly one new 2 or 4 in an empty cell. */
export function isSuccessor(before: Grid, after: Grid, dir: Direction): boolean {
  validateGrid(after);
  if (before.rows !== after.rows || before.cols !== after.cols) return false;
  const moved = applyMove(before, dir);
  if (!moved.moved) return false;
  let added = 0;
  for (let i = 0; i < after.cells.length; i++) {
    const was = moved.grid.cells[i];
    const now = after.cells[i];
    if (was === now) continue;
    if (was !== 0 || (now !== 2 && now !== 4)) return false;
    added++;
  }
  return added === 1;
}
