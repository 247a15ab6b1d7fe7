import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHANCE_CURVES } from '../../../src/engine/chance-curve';
import { MILESTONES, chanceFeature, chanceFromValues, curveKey, nextMilestone, progressOf, readCurve, scoreOfTile } from '../../../src/engine/chance';
import type { ChanceCurves } from '../../../src/engine/chance';
import { mergeChoices } from '../../../src/engine/index';
import type { Grid, MoveChoice } from '../../../src/engine/types';
import { ChanceEstimateSchema, MoveChoiceSchema } from '../../../src/shared/messages';
import { CURVE_FILE, NETWORK, networkIdentity } from '../../../bench/chance';

function grid(cells: number[]): Grid {
  return { rows: 4, cols: 4, cells };
}

/** A curve rising from 10 % at x = −1 to 90 % at x = 1, with a wide interval at the low end. */
const CURVES: ChanceCurves = {
  network: 'test',
  fittedOn: 'a test',
  curves: {
    '4096/1': { x: [-1, 0, 1], p: [0.1, 0.5, 0.9], lo: [0, 0.45, 0.88], hi: [0.3, 0.55, 0.92], games: [10, 200, 300] },
    '8192/2': { x: [-1, 1], p: [0.05, 0.6], lo: [0.02, 0.55], hi: [0.1, 0.65], games: [50, 50] },
  },
};

/** Largest tile 2048: the next milestone is 4096, the one after 8192. */
const LATE = grid([2, 4, 8, 16, 0, 0, 0, 32, 0, 0, 0, 64, 2048, 1024, 512, 256]);

/** The value that puts a board's feature at x for `target`. */
function valueAt(board: Grid, x: number, target: number): number {
  return 2 ** x * scoreOfTile(target) - progressOf(board);
}

describe('the chance curves belong to the network that ships', () => {
  it('were fitted with models/4x6.ntn (its SHA-256): refit them when the network changes', () => {
    expect(existsSync(NETWORK)).toBe(true);
    const identity = networkIdentity(NETWORK);
    expect(
      CHANCE_CURVES.network,
      `models/4x6.ntn changed since the chance curves were fitted: run \`npx tsx bench/chance.ts fit\` (it rewrites ${CURVE_FILE}) and measure again (\`npx tsx bench/chance.ts measure\`)`,
    ).toBe(identity);
  });

  it('have a curve for the next milestone from 2048 up to 16384, each point backed by games and its interval around it', () => {
    for (const target of [2048, 4096, 8192, 16384]) {
      const curve = CHANCE_CURVES.curves[curveKey(target, target / 2)];
      expect(curve, `no curve for ${target}`).toBeDefined();
      for (let i = 0; i < curve.x.length; i++) {
        expect(curve.lo[i]).toBeLessThanOrEqual(curve.p[i]);
        expect(curve.hi[i]).toBeGreaterThanOrEqual(curve.p[i]);
        expect(curve.games[i]).toBeGreaterThanOrEqual(30);
        if (i > 0) {
          expect(curve.x[i]).toBeGreaterThan(curve.x[i - 1]);
          expect(curve.p[i]).toBeGreaterThanOrEqual(curve.p[i - 1]);
        }
      }
    }
  });
});

describe('the milestones', () => {
  it('are the first milestone above the largest tile, none above the last', () => {
    expect(nextMilestone(2)).toBe(2048);
    expect(nextMilestone(1024)).toBe(2048);
    expect(nextMilestone(2048)).toBe(4096);
    expect(nextMilestone(16384)).toBe(32768);
    expect(nextMilestone(MILESTONES[MILESTONES.length - 1])).toBeNull();
  });

  it('key the curves by the milestone and its distance from the largest tile (capped)', () => {
    expect(curveKey(4096, 2048)).toBe('4096/1');
    expect(curveKey(8192, 2048)).toBe('8192/2');
    expect(curveKey(2048, 8)).toBe('2048/4');
  });

  it('count the score the board stands for: a 2048 is 10 × 2048 of merges, a 2 none', () => {
    expect(scoreOfTile(2048)).toBe(20480);
    expect(progressOf(grid([2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2048]))).toBe(4 + 20480);
    expect(chanceFeature(0, scoreOfTile(4096), 4096)).toBeCloseTo(0);
  });
});

describe('reading a curve', () => {
  const curve = CURVES.curves['4096/1'];
  it('interpolates between points and stays flat beyond the ends', () => {
    expect(readCurve(curve, 0.5)).toEqual({ p: 0.7, lo: expect.closeTo(0.665) as number, hi: expect.closeTo(0.735) as number });
    expect(readCurve(curve, -5).p).toBe(0.1);
    expect(readCurve(curve, 9).p).toBe(0.9);
  });

  it('joins the points in logit when the curve says so: low between a low and a high point, exact at the points, flat beyond', () => {
    const steep = { x: [0, 1], p: [0.02, 0.5], lo: [0.01, 0.45], hi: [0.04, 0.55], games: [40, 40], scale: 'logit' as const };
    const logit = (p: number): number => Math.log(p / (1 - p));
    const mid = readCurve(steep, 0.5);
    expect(mid.p).toBeCloseTo(1 / (1 + Math.exp(-(logit(0.02) + logit(0.5)) / 2)), 6);
    expect(mid.p).toBeLessThan(readCurve({ ...steep, scale: undefined }, 0.5).p);
    expect(readCurve(steep, 0).p).toBeCloseTo(0.02, 9);
    expect(readCurve(steep, 1).p).toBeCloseTo(0.5, 9);
    expect(readCurve(steep, -3)).toEqual({ p: 0.02, lo: 0.01, hi: 0.04 });
    for (let x = 0; x <= 1; x += 0.05) {
      const r = readCurve(steep, x);
      expect(r.lo).toBeLessThanOrEqual(r.p);
      expect(r.hi).toBeGreaterThanOrEqual(r.p);
      expect(r.p).toBeGreaterThanOrEqual(readCurve(steep, x - 0.05).p);
    }
  });

  it('holds each point\u2019s chance up to halfway to the next when the curve is in steps', () => {
    const steps = { x: [0, 1], p: [0.1, 0.3], lo: [0.05, 0.2], hi: [0.2, 0.4], games: [40, 40], scale: 'step' as const };
    expect(readCurve(steps, 0.4).p).toBe(0.1);
    expect(readCurve(steps, 0.6).p).toBe(0.3);
  });

  it('keeps a chance of 0 or 1 at a point inside [0, 1] in logit', () => {
    const edge = { x: [0, 1, 2], p: [0, 0.4, 1], lo: [0, 0.3, 0.9], hi: [0.1, 0.5, 1], games: [40, 40, 40], scale: 'logit' as const };
    for (let x = 0; x <= 2; x += 0.1) {
      const r = readCurve(edge, x);
      expect(r.p).toBeGreaterThanOrEqual(0);
      expect(r.p).toBeLessThanOrEqual(1);
    }
    expect(readCurve(edge, 0.5).p).toBeGreaterThan(0);
    expect(readCurve(edge, 1.5).p).toBeLessThan(1);
  });
});

describe('the estimate from the moves\u2019 values', () => {
  it('gives the position the best move\u2019s chance, each move its own, and the milestone after', () => {
    const values = { up: valueAt(LATE, -1, 4096), down: valueAt(LATE, 1, 4096), left: valueAt(LATE, 0, 4096) };
    const estimate = chanceFromValues(LATE, values, CURVES);
    expect(estimate?.next).toEqual({ target: 4096, p: expect.closeTo(0.9) as number, lo: expect.closeTo(0.88) as number, hi: expect.closeTo(0.92) as number });
    expect(estimate?.moves.up).toBeCloseTo(0.1);
    expect(estimate?.moves.left).toBeCloseTo(0.5);
    expect(estimate?.moves.right).toBeUndefined();
    expect(estimate?.after?.target).toBe(8192);
    expect(ChanceEstimateSchema.safeParse(estimate).success).toBe(true);
  });

  it('gives none without a curve, without a legal move or above the last milestone', () => {
    expect(chanceFromValues(grid([2, ...Array<number>(15).fill(0)]), { up: 10 }, CURVES)).toBeNull();
    expect(chanceFromValues(LATE, {}, CURVES)).toBeNull();
    expect(chanceFromValues(grid([65536, ...Array<number>(15).fill(0)]), { up: 10 }, CURVES)).toBeNull();
  });

  it('travels with a move choice through the protocol and a merge of parts', () => {
    const chance = chanceFromValues(LATE, { down: valueAt(LATE, 1, 4096) }, CURVES);
    const part: MoveChoice = { strategy: 'expectimax', move: 'down', values: { down: 5 }, depth: 3, nodes: 10, ms: 1, ...(chance ? { chance } : {}) };
    const other: MoveChoice = { strategy: 'expectimax', move: 'left', values: { left: 4 }, depth: 3, nodes: 10, ms: 1 };
    expect(mergeChoices([other, part]).chance).toEqual(chance);
    expect(MoveChoiceSchema.safeParse(part).success).toBe(true);
    expect(MoveChoiceSchema.safeParse({ ...part, chance: { ...chance, next: { target: 4096, p: 1.5, lo: 0, hi: 1 } } }).success).toBe(false);
  });
});
