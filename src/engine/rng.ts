/** Seeded pseudo-random numbers (mulberry32): deterministic for a given seed, fast, no allocation per draw. */

export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in 0..n-1. */
  int(n: number): number;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number): number => Math.floor(next() * n) };
}
