import { describe, expect, it } from 'vitest';
import { CHANCES_PATTERN, biggestFall, decodeChances, encodeChance } from '../../../src/coach/chances';
import { GradeTally } from '../../../src/coach/grade';
import { CoachSummarySchema } from '../../../src/shared/coach';

describe('a coached game\u2019s chances', () => {
  it('keep each chance within a step of 1/63, and none where the coach had none', () => {
    for (const p of [0, 0.013, 0.5, 0.72, 1]) expect(decodeChances(encodeChance(p))[0]).toBeCloseTo(p, 1);
    expect(Math.abs((decodeChances(encodeChance(0.72))[0] ?? 0) - 0.72)).toBeLessThanOrEqual(1 / 126);
    expect(decodeChances('.A_')).toEqual([null, 0, 1]);
  });

  it('are kept by the tally move by move, aligned with the marks, and fit the record\u2019s schema', () => {
    const tally = new GradeTally();
    const first = tally.reserve();
    tally.skip();
    const third = tally.reserve();
    tally.chance(first, 0.9);
    tally.chance(third, 0.4);
    const summary = tally.summary();
    expect(summary.chances).toHaveLength(summary.marks.length);
    expect(summary.chances?.[1]).toBe('.');
    expect(CHANCES_PATTERN.test(summary.chances ?? '')).toBe(true);
    expect(CoachSummarySchema.safeParse({ ...summary, resyncs: 0 }).success).toBe(true);
    expect(new GradeTally().summary().chances).toBeUndefined();
  });

  it('name the move where the chance fell most, not counting a new milestone as a fall', () => {
    const chances = [0.9, 0.85, 0.4, 0.95, 0.3, null, 0.2];
    const targets = [4096, 4096, 4096, 8192, 8192, 8192, 8192];
    // 0.85 → 0.4 (move 3) for 4096; 0.4 → 0.95 is the next milestone; 0.95 → 0.3 (move 4) is the largest fall.
    expect(biggestFall(chances, targets)).toEqual({ move: 4, from: 0.95, to: 0.3, target: 8192 });
    expect(biggestFall([0.9, 0.1], [4096, 8192])).toBeNull();
    expect(biggestFall([0.1, 0.2], [4096, 4096])).toBeNull();
  });
});
