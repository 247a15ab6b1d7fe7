import { describe, expect, it } from 'vitest';
import { deriveSeed, gameSeeds } from '../../../src/cli/seeds';

describe('seed derivation', () => {
  it('is a pure function of the base seed and the index', () => {
    expect(deriveSeed(1, 5)).toBe(deriveSeed(1, 5));
    expect(gameSeeds(42, 10)).toEqual(gameSeeds(42, 10));
    expect(gameSeeds(42, 10).slice(0, 4)).toEqual(gameSeeds(42, 4));
  });

  it('seeds a part of a bench (from game index `first`) as the whole bench seeds those games', () => {
    const whole = gameSeeds(42, 10);
    expect([...gameSeeds(42, 4), ...gameSeeds(42, 3, 4), ...gameSeeds(42, 3, 7)]).toEqual(whole);
    expect(gameSeeds(42, 1, 9)).toEqual([deriveSeed(42, 9)]);
  });

  it('gives unsigned 32-bit seeds, distinct across games and across base seeds', () => {
    const seeds = [...gameSeeds(1, 1000), ...gameSeeds(2, 1000)];
    for (const seed of seeds) {
      expect(Number.isInteger(seed)).toBe(true);
      expect(seed).toBeGreaterThanOrEqual(0);
      expect(seed).toBeLessThan(2 ** 32);
    }
    expect(new Set(seeds).size).toBe(seeds.length);
  });

  it('does not simply offset the base seed (neighbouring bases give unrelated sequences)', () => {
    const a = gameSeeds(1, 50);
    const b = gameSeeds(2, 50);
    expect(a.filter((seed) => b.includes(seed))).toEqual([]);
  });
});
