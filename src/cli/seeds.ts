/**
 * Seed derivation: game i of a bench seeded K uses deriveSeed(K, i), whatever the number of threads, so a
 * bench is reproducible and independent of --jobs. The mix is a 32-bit avalanche (murmur3's finalizer).
 */

function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A well-mixed unsigned 32-bit seed from a base seed and an index (game number, move number, ...). */
export function deriveSeed(base: number, index: number): number {
  const a = fmix32((base >>> 0) ^ 0x9e3779b9);
  return fmix32((a + Math.imul((index >>> 0) + 1, 0x7feb352d)) >>> 0);
}

/** Seeds of games first..first+count-1 of a bench (game indices from 0), as the whole bench seeds them. */
export function gameSeeds(base: number, count: number, first = 0): number[] {
  return Array.from({ length: count }, (_, index) => deriveSeed(base, first + index));
}
