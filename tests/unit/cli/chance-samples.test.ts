import { describe, expect, it } from 'vitest';
import { fitCurves, formatReliability, monotoneBlocks, reliability, wilson } from '../../../src/cli/chance-samples';
import type { ChanceGame } from '../../../src/cli/chance-samples';
import { curveSource } from '../../../src/cli/chance-samples';
import { readCurve } from '../../../src/engine/chance';

describe('fitting the chance curves', () => {
  it('pools bins until each has enough games, then makes the chance non-decreasing', () => {
    const blocks = [
      { x: 0, n: 10, hits: 5, games: 10 },
      { x: 10, n: 10, hits: 2, games: 10 },
      { x: 40, n: 20, hits: 18, games: 5 },
      { x: 60, n: 20, hits: 19, games: 20 },
    ];
    const out = monotoneBlocks(blocks, 10);
    for (let i = 1; i < out.length; i++) expect(out[i].hits / out[i].n).toBeGreaterThanOrEqual(out[i - 1].hits / out[i - 1].n);
    expect(out.every((b) => b.games >= 10)).toBe(true);
    expect(out.reduce((s, b) => s + b.n, 0)).toBe(60);
    expect(out[0].hits / out[0].n).toBeCloseTo(7 / 20);
  });

  it('fits a curve from games whose chance rises with x, and leaves out a key with too few games', () => {
    const games: ChanceGame[] = [];
    for (let g = 0; g < 400; g++) {
      const eighth = (g % 8) - 4; // x from −0.5 to 0.375
      const reached = ((g >> 3) % 8) < eighth + 4; // in (eighth + 4) / 8 of the games at that x
      games.push({ maxTile: reached ? 4096 : 2048, chance: { fit: [['4096/1', eighth * 8, 5, 4096], ...(g < 3 ? [['8192/2', 0, 1, 8192] as const] : [])] } });
    }
    const curves = fitCurves(games, 30);
    expect(Object.keys(curves)).toEqual(['4096/1']);
    const curve = curves['4096/1'];
    expect(curve.x.length).toBeGreaterThan(2);
    for (let i = 1; i < curve.p.length; i++) expect(curve.p[i]).toBeGreaterThanOrEqual(curve.p[i - 1]);
    expect(curve.p[0]).toBeLessThan(0.2);
    expect(curve.p[curve.p.length - 1]).toBeGreaterThan(0.7);
    expect(curveSource({ network: 'abc', fittedOn: 'test', curves })).toContain('export const CHANCE_CURVES: ChanceCurves = {"network":"abc"');
  });

  it('reads raw records (fine bins of x) and rebins them as the method says', () => {
    const games: ChanceGame[] = [];
    for (let g = 0; g < 200; g++) {
      const bin = (g % 16) * 4 - 32; // x from −0.5 to 0.4375 in 1/64 units
      const reached = ((g >> 4) % 16) < (g % 16);
      games.push({ maxTile: reached ? 4096 : 2048, chance: { raw: [[0, '4096/1', bin, 3, 4096]] } });
    }
    const coarse = fitCurves(games, 10, { binsPerUnit: 8, scale: 'linear' })['4096/1'];
    const fine = fitCurves(games, 10, { binsPerUnit: 16, scale: 'logit' })['4096/1'];
    expect(coarse.scale).toBeUndefined();
    expect(fine.scale).toBe('logit');
    expect(fine.x.length).toBeGreaterThan(coarse.x.length);
    expect(fine.x[0]).toBeCloseTo(-0.5, 3);
    expect(fine.games.reduce((a, b) => a + b, 0)).toBe(200);
    // Counted by weight, a point resting on one game's many positions counts as one game, not as many bins.
    const lone: ChanceGame[] = [{ maxTile: 4096, chance: { raw: [0, 1, 2, 3].map((b) => [0, '4096/1', b, 10, 4096] as const) } }];
    expect(fitCurves(lone, 1, { binsPerUnit: 64, scale: 'linear' })['4096/1'].games.reduce((a, b) => a + b, 0)).toBe(4);
    expect(fitCurves(lone, 1, { binsPerUnit: 64, scale: 'linear', effective: true })['4096/1'].games).toEqual([1]);
  });

  it('reproduces a steep curve within a few points, monotone, from many games', () => {
    // The true chance rises from 1 % to 99 % within one unit of x around x = 0.25 (a logistic of slope 9).
    const truth = (x: number): number => 1 / (1 + Math.exp(-9 * (x - 0.25)));
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const games: ChanceGame[] = [];
    for (let g = 0; g < 6000; g++) {
      const x = -1 + 2 * random();
      const bin = Math.round(x * 64);
      games.push({ maxTile: random() < truth(bin / 64) ? 8192 : 4096, chance: { raw: [[1, '8192/2', bin, 1 + (g % 5), 8192]] } });
    }
    for (const method of [{ binsPerUnit: 16, scale: 'logit' as const }, { binsPerUnit: 32, scale: 'linear' as const, effective: true }]) {
      const curve = fitCurves(games, 30, method)['8192/2'];
      for (let i = 1; i < curve.p.length; i++) {
        expect(curve.p[i]).toBeGreaterThanOrEqual(curve.p[i - 1]);
        expect(curve.x[i]).toBeGreaterThan(curve.x[i - 1]);
      }
      for (let x = -0.6; x <= 0.9; x += 0.05) expect(Math.abs(readCurve(curve, x).p - truth(x)), `at x = ${x.toFixed(2)}`).toBeLessThan(0.08);
    }
  });

  it('gives a 90 % interval that holds the share and narrows with more games', () => {
    const few = wilson(0.5, 10);
    const many = wilson(0.5, 1000);
    expect(few.lo).toBeLessThan(0.5);
    expect(few.hi).toBeGreaterThan(0.5);
    expect(many.hi - many.lo).toBeLessThan(few.hi - few.lo);
    expect(wilson(0, 0)).toEqual({ lo: 0, hi: 1 });
  });
});

describe('the reliability table', () => {
  it('sets the mean estimate of each tenth against the share of its positions whose game reached the milestone', () => {
    const games: ChanceGame[] = [
      { maxTile: 4096, chance: { measure: [[0, 7, 4096, 10, 7.5], [1, 2, 8192, 4, 1]] } },
      { maxTile: 2048, chance: { measure: [[0, 7, 4096, 10, 7.3]] } },
    ];
    const table = reliability(games);
    expect(table.next).toEqual([{ tenth: 7, positions: 20, games: 2, predicted: expect.closeTo(0.74) as number, observed: 0.5 }]);
    expect(table.after).toEqual([{ tenth: 2, positions: 4, games: 1, predicted: 0.25, observed: 0 }]);
    const text = formatReliability(table).join('\n');
    expect(text).toContain('70-80 %');
    expect(text).toContain('24.0 pts');
  });
});
