import { describe, expect, it } from 'vitest';
import { CHANCE_THRESHOLDS, GradeTally, gradeChoice } from '../../../src/coach/grade';
import type { ChanceEstimate, MoveChoice } from '../../../src/engine/index';

const NEXT = { target: 4096, p: 0.8, lo: 0.75, hi: 0.85 };

function choice(move: MoveChoice['move'], moves: ChanceEstimate['moves'], values: MoveChoice['values'] = { up: 1, down: 3, left: 2, right: 2.5 }): MoveChoice {
  return { strategy: 'expectimax', move, values, depth: 3, nodes: 100, ms: 10, evaluation: 'network', chance: { next: NEXT, moves } };
}

describe('grading by the chance of the next milestone', () => {
  it('grades the suggested move best, even where the one look of the meter prefers another', () => {
    const grade = gradeChoice(choice('down', { up: 0.9, down: 0.7, left: 0.6 }), 'down');
    expect(grade).toMatchObject({ grade: 'best', best: 'down', accuracy: 100, chance: { target: 4096, lost: 0 } });
  });

  it('grades another move by the chance it loses against the best chance, with the search\u2019s move as the better one', () => {
    const moves = { up: 0.3, down: 0.8, left: 0.795, right: 0.77 };
    expect(gradeChoice(choice('down', moves), 'left')).toMatchObject({ grade: 'good', best: 'down', chance: { lost: expect.closeTo(0.005) as number } });
    expect(gradeChoice(choice('down', moves), 'right')?.grade).toBe('inaccuracy');
    expect(gradeChoice(choice('down', { ...moves, right: 0.75 }), 'right')?.grade).toBe('mistake');
    const blunder = gradeChoice(choice('down', moves), 'up');
    expect(blunder).toMatchObject({ grade: 'blunder', move: 'up', best: 'down', accuracy: 0 });
    expect(blunder?.chance?.lost).toBeCloseTo(0.5);
  });

  it('keeps the thresholds in order and the accuracy between 0 and 100', () => {
    expect(CHANCE_THRESHOLDS.good).toBeLessThan(CHANCE_THRESHOLDS.inaccuracy);
    expect(CHANCE_THRESHOLDS.inaccuracy).toBeLessThan(CHANCE_THRESHOLDS.mistake);
    const half = gradeChoice(choice('down', { up: 0.8 - CHANCE_THRESHOLDS.mistake / 2, down: 0.8 }), 'up');
    expect(half?.accuracy).toBeCloseTo(50);
    const tally = new GradeTally();
    if (half) tally.add(half);
    expect(half?.grade).toBe('mistake');
    expect(tally.summary().marks).toBe('m');
  });

  it('falls back to the values where the answer has no chance, and grades nothing where the strategy does not evaluate', () => {
    const plain: MoveChoice = { strategy: 'expectimax', move: 'down', values: { up: 1, down: 100 }, depth: 3, nodes: 1, ms: 1 };
    const byValue = gradeChoice(plain, 'up');
    expect(byValue?.grade).toBe('blunder');
    expect(byValue?.chance).toBeUndefined();
    expect(gradeChoice({ ...choice('down', { up: 0.1, down: 0.8 }), strategy: 'random' }, 'up')).toBeNull();
    expect(gradeChoice(choice('down', { down: 0.8 }, { down: 1 }), 'up')).toBeNull();
  });
});
