import { describe, expect, it } from 'vitest';
import { accuracyText, coachStateLabel, countsText, isCoaching, lastGradeText, suggestionText, summaryText } from '../../../src/popup/coach-view';
import { statusAfterPageEnd } from '../../../src/background/logic';
import { initialStatus } from '../../../src/shared/messages';
import type { CoachStatus } from '../../../src/shared/coach';

const counts = { best: 3, good: 1, inaccuracy: 2, mistake: 1, blunder: 0 };
const coach: CoachStatus = {
  active: true,
  suggestion: 'down',
  graded: 7,
  accuracy: 81.25,
  counts,
  last: { grade: 'mistake', move: 'left', best: 'down', loss: 0.042, accuracy: 58 },
  resyncs: 0,
};

describe('coach view', () => {
  it('says the last grade with the better move and what it cost', () => {
    expect(lastGradeText(coach)).toBe("Mistake: left ← (better: down ↓, −4.2 % of the position's value)");
    expect(lastGradeText({ ...coach, last: { grade: 'best', move: 'up', best: 'up', loss: 0, accuracy: 100 } })).toBe('Best: up ↑');
    expect(lastGradeText({ ...coach, last: { ...coach.last!, grade: 'blunder', loss: 1 } })).toContain('everything');
    expect(lastGradeText({ ...coach, graded: 0, last: undefined })).toBe('Play a move: it will be graded here.');
  });

  it('accuracy, suggestion and counts', () => {
    expect(accuracyText(81.25)).toBe('81.3 %');
    expect(accuracyText(null)).toBe('—');
    expect(suggestionText(coach)).toBe('Suggested: down ↓');
    expect(suggestionText({ ...coach, suggestion: null })).toBe('Thinking…');
    expect(countsText(counts)).toBe('3 best · 1 good · 2 inaccuracies · 1 mistake');
    expect(summaryText({ graded: 7, accuracy: 81.25, counts, marks: '!!!g??m', resyncs: 0 })).toBe(
      'Accuracy 81.3 % over 7 graded moves: 3 best · 1 good · 2 inaccuracies · 1 mistake',
    );
    expect(summaryText({ graded: 0, accuracy: null, counts: { ...counts, best: 0, good: 0, inaccuracy: 0, mistake: 0 }, marks: '--', resyncs: 1 })).toBe('No graded move');
  });

  it('coach mode ends with its page (the stored status no longer says it is on)', () => {
    const status = { ...initialStatus('expectimax', 0), coach };
    expect(isCoaching(status)).toBe(true);
    expect(coachStateLabel(status)).toBe('Coaching');
    expect(coachStateLabel(initialStatus('expectimax', 0))).toBeNull();
    const after = statusAfterPageEnd(status, 'reloaded', 5);
    expect(after?.coach).toMatchObject({ active: false, suggestion: null, graded: 7 });
    expect(isCoaching(after)).toBe(false);
    // A status without coach mode and not live is left as it is.
    expect(statusAfterPageEnd(initialStatus('expectimax', 0), 'reloaded', 5)).toBeNull();
  });
});
