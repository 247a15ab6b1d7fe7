/** Boards for the engine's tests: random packed 4x4 boards (fast-check) and positions reached by random play. */
import fc from 'fast-check';
import { applyMove, createRng, legalMoves, newGame, spawnRandomTile } from '../../src/engine/index';
import type { Grid } from '../../src/engine/index';

/**
 * A random 4x4 board packed as the cores take it: two u32 halves of 4-bit ranks (cell i at bits 4i of `lo`,
 * cell 8 + i of `hi`). Each cell is empty, any rank 1..15, or one of `more` (small ranks, to make equal
 * neighbours and merges frequent).
 */
export function packedBoard(...more: fc.Arbitrary<number>[]): fc.Arbitrary<{ lo: number; hi: number }> {
  const rank = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 15 }), ...more);
  return fc.array(rank, { minLength: 16, maxLength: 16 }).map((ranks) => {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 8; i++) lo |= ranks[i] << (4 * i);
    for (let i = 0; i < 8; i++) hi |= ranks[8 + i] << (4 * i);
    return { lo: lo >>> 0, hi: hi >>> 0 };
  });
}

/** A mid-game position reached by `moves` random moves from a new game of `seed` (so a strategy has work to do). */
export function midGame(rows: number, cols: number, seed: number, moves: number): Grid {
  const rng = createRng(seed);
  let grid = newGame(rng, rows, cols);
  for (let i = 0; i < moves; i++) {
    const legal = legalMoves(grid);
    if (legal.length === 0) break;
    grid = spawnRandomTile(applyMove(grid, legal[rng.int(legal.length)]).grid, rng);
  }
  return grid;
}
