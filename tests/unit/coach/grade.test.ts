import { describe, expect, it } from 'vitest';
import { getStrategy } from '../../../src/engine/index';
import type { Direction, Grid, MoveValues } from '../../../src/engine/types';
import { GRADE_SCALE, GRADE_THRESHOLDS, GradeTally, NETWORK_GRADE_SCALE, bestOf, gradeMove, gradeOfLoss, isGradable, relativeLoss } from '../../../src/coach/grade';
import { bestOf as engineBest } from '../../../src/engine/strategies/common';

function grid(cells: number[]): Grid {
  return { rows: 4, cols: 4, cells };
}

/** The values of one real expectimax search at a fixed depth (deterministic). */
async function searched(board: Grid): Promise<MoveValues> {
  const choice = await getStrategy('expectimax').chooseMove(board, { depth: 2 });
  return choice.values;
}

describe('the best move of a search', () => {
  it('breaks a tie as the engine does (first in direction order), whatever order the values were merged in', () => {
    const orders: MoveValues[] = [
      { right: 5, left: 5, down: 1, up: 2 },
      { left: 5, right: 5 },
      { down: 3, up: 3, left: 1 },
    ];
    for (const values of orders) expect(bestOf(values)?.move).toBe(engineBest(values));
    expect(bestOf({ right: 5, left: 5 })).toEqual({ move: 'left', value: 5 });
    expect(bestOf({ up: Number.NaN, down: 1 })).toEqual({ move: 'down', value: 1 });
    expect(bestOf({})).toBeNull();
  });
});

describe('grading on hand-made positions (real expectimax search, depth 2)', () => {
  // Big tiles along the bottom row, largest in the corner: pushing up breaks the chain.
  const corner = grid([0, 0, 0, 0, 0, 0, 0, 2, 2, 4, 8, 16, 1024, 512, 256, 128]);
  // The 1024 sits in the bottom-right corner with a full top: left pulls it out of the corner.
  const outOfCorner = grid([4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2, 0, 8, 16, 1024]);

  it('the best move is graded best with accuracy 100', async () => {
    const values = await searched(corner);
    const grade = gradeMove('expectimax', values, 'left');
    expect(grade).toEqual({ grade: 'best', move: 'left', best: 'left', loss: 0, accuracy: 100 });
  });

  it('breaking the corner chain is a blunder, with the better move named', async () => {
    const values = await searched(corner);
    const grade = gradeMove('expectimax', values, 'up');
    expect(grade?.grade).toBe('blunder');
    expect(grade?.best).toBe('left');
    expect(grade?.loss).toBeGreaterThan(GRADE_THRESHOLDS.mistake * (GRADE_SCALE.expectimax ?? 1));
    expect(grade?.accuracy).toBe(0);
  });

  it('pulling the 1024 out of its corner is a blunder; keeping it is best', async () => {
    const values = await searched(outOfCorner);
    expect(gradeMove('expectimax', values, 'left')).toMatchObject({ grade: 'blunder', best: 'down' });
    expect(gradeMove('expectimax', values, 'down')).toMatchObject({ grade: 'best', loss: 0 });
  });

  it('a move the search did not value (illegal there) is not graded', async () => {
    const values = await searched(corner);
    expect(values.down).toBeUndefined();
    expect(gradeMove('expectimax', values, 'down')).toBeNull();
  });
});

// Greedy and expectimax grade on the thresholds' own scale (1).
describe('thresholds', () => {
  const values = (played: number): MoveValues => ({ left: 1000, up: played });
  const cases: [number, string][] = [
    [1000, 'best'],
    [998, 'good'], // 0.2 %
    [980, 'inaccuracy'], // 2 %
    [950, 'mistake'], // 5 %
    [850, 'blunder'], // 15 %
    [0, 'blunder'], // a lost position: everything lost
  ];
  for (const [played, expected] of cases) {
    it(`loss ${((1000 - played) / 10).toFixed(1)} % is ${expected}`, () => {
      expect(gradeMove('greedy', values(played), 'up')?.grade).toBe(expected);
    });
  }

  it('a tie with the best counts as best, and names the played move', () => {
    const grade = gradeMove('expectimax', { left: 500, up: 500 }, 'up');
    expect(grade).toMatchObject({ grade: 'best', best: 'up', loss: 0 });
  });

  it('relative to the position: the same gap is small on a big value and large on a small one', () => {
    expect(gradeOfLoss(relativeLoss(1_000_000, 999_000))).toBe('good');
    expect(gradeOfLoss(relativeLoss(10_000, 9_000))).toBe('blunder');
  });

  it('a strategy with noisier values has wider bands (Monte-Carlo: 5 % loss is an inaccuracy)', () => {
    expect(gradeMove('montecarlo', { left: 1000, up: 950 }, 'up')?.grade).toBe('inaccuracy');
    expect(gradeMove('greedy', { left: 1000, up: 950 }, 'up')?.grade).toBe('mistake');
  });

  it('expectimax grades on the thresholds\' own scale (its values, with the reference\'s weights, set them)', () => {
    expect(GRADE_SCALE.expectimax).toBe(1);
    expect(gradeMove('expectimax', { left: 1000, up: 999 }, 'up')?.grade).toBe('good');
    expect(gradeMove('expectimax', { left: 1000, up: 980 }, 'up')?.grade).toBe('inaccuracy');
    expect(gradeMove('expectimax', { left: 1000, up: 950 }, 'up')?.grade).toBe('mistake');
    expect(gradeMove('expectimax', { left: 1000, up: 850 }, 'up')?.grade).toBe('blunder');
  });

  it('values the learned network gave spread wider: expectimax with it grades on scale 3, the network strategy on 8', () => {
    expect(NETWORK_GRADE_SCALE).toEqual({ expectimax: 3, network: 8 });
    // A 5 % loss: a mistake on the heuristic's values, an inaccuracy on the network's.
    expect(gradeMove('expectimax', { left: 1000, up: 950 }, 'up', 'heuristic')?.grade).toBe('mistake');
    expect(gradeMove('expectimax', { left: 1000, up: 950 }, 'up', 'network')?.grade).toBe('inaccuracy');
    expect(gradeMove('expectimax', { left: 1000, up: 650 }, 'up', 'network')?.grade).toBe('blunder');
    expect(isGradable('network')).toBe(true);
    expect(gradeMove('network', { left: 1000, up: 800 }, 'up', 'network')?.grade).toBe('inaccuracy');
    expect(gradeMove('network', { left: 1000, up: 100 }, 'up', 'network')?.grade).toBe('blunder');
    // Without a network the network strategy is greedy's one look ahead on the heuristic: greedy's scale.
    expect(gradeMove('network', { left: 1000, up: 950 }, 'up', 'heuristic')?.grade).toBe(gradeMove('greedy', { left: 1000, up: 950 }, 'up')?.grade);
  });

  it('random and priority do not evaluate positions: no grade', () => {
    expect(isGradable('random')).toBe(false);
    expect(isGradable('priority')).toBe(false);
    expect(gradeMove('random', { left: 1, up: 0 }, 'up')).toBeNull();
    expect(gradeMove('priority', { left: 4, up: 3 }, 'up')).toBeNull();
  });

  it('a negative best value: the loss is relative to its size', () => {
    expect(relativeLoss(-100, -150)).toBeCloseTo(0.5);
    expect(relativeLoss(0, -1)).toBe(1);
    expect(relativeLoss(0, 0)).toBe(0);
  });
});

describe('running accuracy of a game', () => {
  it('is the mean of the graded moves; ungraded moves only leave a mark', () => {
    const tally = new GradeTally();
    expect(tally.accuracy).toBeNull();
    const moves: [Direction, number][] = [
      ['left', 1000], // best: 100
      ['up', 950], // 5 %: accuracy 50
    ];
    for (const [move, value] of moves) {
      const grade = gradeMove('greedy', { left: 1000, up: value }, move);
      if (!grade) throw new Error('not graded');
      tally.add(grade);
    }
    tally.skip();
    expect(tally.accuracy).toBeCloseTo(75);
    expect(tally.summary()).toEqual({
      graded: 2,
      accuracy: tally.accuracy,
      counts: { best: 1, good: 0, inaccuracy: 0, mistake: 1, blunder: 0 },
      marks: '!m-',
      better: '-l-',
    });
    expect(tally.movesSeen).toBe(3);
  });

  it('a move graded late goes into its own slot: the i-th move seen keeps the i-th mark', () => {
    const tally = new GradeTally();
    const slot = tally.reserve(); // played before its search ended
    tally.skip(); // the next move: no search of its board
    const late = gradeMove('expectimax', { left: 1000, up: 500 }, 'up');
    tally.settle(slot, late);
    tally.settle(slot, late); // once only
    tally.settle(1, null);
    expect(tally.summary()).toMatchObject({ graded: 1, marks: 'X-', better: 'l-' });
    expect(tally.accuracy).toBe(0);
  });
});
