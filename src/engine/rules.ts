/**
 * The rules on any board size, on a flat array of tile ranks (log2 of the value, 0 = empty), row-major.
 * This is the general path (3x3..8x8, non-square, ranks up to 17); 4x4 boards in the search use the
 * bitboard in board.ts instead.
 */
import type { Direction } from './types';

export const MAX_RANK = 17;

const DIR_INDEX: Record<Direction, number> = { up: 0, down: 1, left: 2, right: 3 };
export function directionIndex(dir: Direction): number {
  return DIR_INDEX[dir];
}

/**
 * The lines of a move in direction `dir` (0 up, 1 down, 2 left, 3 right), each walked from the side the
 * tiles move towards: cell `lineStart(…, line) + k * lineStep(…)` for k = 0..len-1.
 */
function lineStart(rows: number, cols: number, dir: number, line: number): number {
  if (dir === 0) return line;
  if (dir === 1) return (rows - 1) * cols + line;
  if (dir === 2) return line * cols;
  return line * cols + cols - 1;
}

function lineStep(cols: number, dir: number): number {
  return dir === 0 ? cols : dir === 1 ? -cols : dir === 2 ? 1 : -1;
}

/**
 * Move `src` in direction `dir` (0 up, 1 down, 2 left, 3 right) into `dst` (may not alias src).
 * Returns the score gained, or -1 when the move changes nothing.
 */
export function moveRanks(rows: number, cols: number, src: Uint8Array, dst: Uint8Array, dir: number): number {
  const vertical = dir < 2;
  const lines = vertical ? cols : rows;
  const len = vertical ? rows : cols;
  const step = lineStep(cols, dir);
  let score = 0;
  let moved = false;
  for (let line = 0; line < lines; line++) {
    const start = lineStart(rows, cols, dir, line);
    let out = 0; // next write position along the line
    let pending = 0; // rank waiting for a possible merge
    for (let k = 0; k < len; k++) {
      const r = src[start + k * step];
      if (r === 0) continue;
      if (pending === 0) {
        pending = r;
      } else if (pending === r) {
        const merged = r + 1;
        dst[start + out * step] = merged;
        score += 2 ** merged;
        out++;
        pending = 0;
      } else {
        dst[start + out * step] = pending;
        out++;
        pending = r;
      }
    }
    if (pending !== 0) {
      dst[start + out * step] = pending;
      out++;
    }
    for (let k = out; k < len; k++) dst[start + k * step] = 0;
    if (!moved) {
      for (let k = 0; k < len; k++) {
        if (dst[start + k * step] !== src[start + k * step]) { moved = true; break; }
      }
    }
  }
  return moved ? score : -1;
}

export function countEmptyRanks(ranks: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < ranks.length; i++) if (ranks[i] === 0) n++;
  return n;
}

/** True when a move in direction dir would change the board (no allocation). */
export function canMoveRanks(rows: number, cols: number, ranks: Uint8Array, dir: number): boolean {
  const vertical = dir < 2;
  const lines = vertical ? cols : rows;
  const len = vertical ? rows : cols;
  const step = lineStep(cols, dir);
  for (let line = 0; line < lines; line++) {
    const start = lineStart(rows, cols, dir, line);
    // Legal when a tile has an empty cell before it (towards the wall) or an equal neighbour.
    let seenEmpty = false;
    let prev = -1;
    for (let k = 0; k < len; k++) {
      const r = ranks[start + k * step];
      if (r === 0) { seenEmpty = true; prev = -1; continue; }
      if (seenEmpty || r === prev) return true;
      prev = r;
    }
  }
  return false;
}

export function hasLegalMove(rows: number, cols: number, ranks: Uint8Array): boolean {
  for (let i = 0; i < ranks.length; i++) if (ranks[i] === 0) return true;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = ranks[r * cols + c];
      if (c + 1 < cols && ranks[r * cols + c + 1] === v) return true;
      if (r + 1 < rows && ranks[(r + 1) * cols + c] === v) return true;
    }
  }
  return false;
}
