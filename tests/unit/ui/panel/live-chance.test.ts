import { describe, expect, it } from 'vitest';
import { addStatus, emptySeries } from '../../../../src/ui/panel/live-series';
import { chanceChartText } from '../../../../src/ui/panel/texts';
import { initialStatus } from '../../../../src/shared/messages';
import type { RunStatus } from '../../../../src/shared/messages';

function at(moves: number, p?: number): RunStatus {
  return {
    ...initialStatus('expectimax', moves),
    moves,
    lastMove: 'left',
    score: moves * 10,
    bestTile: 2048,
    depth: 3,
    ...(p !== undefined ? { chance: { next: { target: 4096, p, lo: p - 0.02, hi: p + 0.02 }, moves: { left: p } } } : {}),
  };
}

describe('the panel\u2019s chance chart', () => {
  it('keeps the chance of the next milestone per move (none where the status had none) and says the last one', () => {
    const series = emptySeries();
    expect(chanceChartText(series)).toBe('');
    addStatus(series, at(1, 0.8));
    addStatus(series, at(2));
    addStatus(series, { ...at(4, 0.61), recent: [{ moves: 3, score: 30, depth: 3, bestTile: 2048, chance: 0.7, target: 4096 }] });
    expect(series.moves).toEqual([1, 2, 3, 4]);
    expect(series.chance).toEqual([0.8, null, 0.7, 0.61]);
    expect(series.target).toEqual([4096, null, 4096, 4096]);
    expect(chanceChartText(series)).toBe('Chance of 4096: 61 %');
  });
});
