import { describe, expect, it } from 'vitest';
import { SERIES_CAP, addStatus, emptySeries, milestones } from '../../../../src/ui/panel/live-series';
import { liveChartTexts } from '../../../../src/ui/panel/texts';
import { initialStatus } from '../../../../src/shared/messages';
import type { RunStatus } from '../../../../src/shared/messages';

function at(moves: number, patch: Partial<RunStatus> = {}): RunStatus {
  return { ...initialStatus('expectimax', moves), moves, lastMove: moves > 0 ? 'left' : null, score: moves * 10, bestTile: 2 ** Math.min(16, 2 + (moves >> 2)), depth: 3, thinkMs: 5, ...patch };
}

describe('live series (the panel charts)', () => {
  it('adds one point per move; the "thinking" report of the same move adds none', () => {
    const series = emptySeries();
    expect(addStatus(series, at(0))).toBe(false);
    expect(addStatus(series, at(1))).toBe(true);
    expect(addStatus(series, at(1, { state: 'thinking' }))).toBe(false);
    expect(addStatus(series, at(2, { thinkMs: undefined, depth: 0 }))).toBe(true);
    expect(series.moves).toEqual([1, 2]);
    expect(series.score).toEqual([10, 20]);
    expect(series.thinkMs).toEqual([5, null]);
    expect(series.depth).toEqual([3, null]);
  });

  it('starts over when the move count goes back (a new game)', () => {
    const series = emptySeries();
    for (let m = 1; m <= 5; m++) addStatus(series, at(m));
    expect(addStatus(series, at(1))).toBe(true);
    expect(series.moves).toEqual([1]);
  });

  it('keeps at most SERIES_CAP points', () => {
    const series = emptySeries();
    for (let m = 1; m <= SERIES_CAP + 10; m++) addStatus(series, at(m, { bestTile: 4 }));
    expect(series.moves).toHaveLength(SERIES_CAP);
    expect(series.moves[0]).toBe(11);
  });

  it('marks where 512, 1024, … first appeared, and says it in words', () => {
    const series = emptySeries();
    for (let m = 1; m <= 40; m++) addStatus(series, at(m));
    // bestTile = 2^(2 + m/4): 512 = 2^9 from move 28, 1024 from move 32, …
    expect(milestones(series).map((x) => [x.tile, x.move])).toEqual([
      [512, 28],
      [1024, 32],
      [2048, 36],
      [4096, 40],
    ]);
    const texts = liveChartTexts(series);
    expect(texts.score).toBe('Score 400 after 40 moves · 512 at move 28, 1024 at move 32, 2048 at move 36, 4096 at move 40');
    expect(texts.think).toBe('Think time 5.0 ms on average, depth up to 3');
    expect(liveChartTexts(emptySeries()).score).toMatch(/No move yet/);
  });
});
