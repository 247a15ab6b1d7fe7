/** Random 4x4 boards for the property tests of the engine's cores and networks (fast-check). */
import fc from 'fast-check';

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
