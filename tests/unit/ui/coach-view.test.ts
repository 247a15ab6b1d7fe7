import { describe, expect, it } from 'vitest';
import {
  accuracyText,
  coachStateLabel,
  countsText,
  historyStrategyText,
  isCoaching,
  lastGradeText,
  moveMarks,
  noteText,
  replayMarkText,
  suggestionText,
  summaryText,
} from '../../../src/ui/coach-view';
import { NO_GRADES_NOTE } from '../../../src/shared/coach';
import type { CoachSummary } from '../../../src/shared/coach';
import type { GameRecord } from '../../../src/shared/messages';
import { ReplayRecorder } from '../../../src/shared/history';
import { applyMove } from '../../../src/engine/index';
import type { Direction, Grid } from '../../../src/engine/types';
import { statusAfterPageEnd } from '../../../src/background/run-status';
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

/** A coached game's record: `moves` played from a start board (a 2 in the first empty cell after each). */
function coachedGame(moves: Direction[], summary: CoachSummary): GameRecord {
  const recorder = new ReplayRecorder();
  let board: Grid = { rows: 4, cols: 4, cells: [0, 0, 0, 0, 0, 0, 0, 2, 2, 4, 8, 16, 1024, 512, 256, 128] };
  for (const move of moves) {
    const cells = [...applyMove(board, move).grid.cells];
    cells[cells.indexOf(0)] = 2;
    const after = { rows: 4, cols: 4, cells };
    recorder.add({ before: board, move, after });
    board = after;
  }
  return {
    site: 'game.test',
    adapter: 'classic',
    strategy: 'expectimax',
    score: 100,
    bestTile: 1024,
    moves: moves.length,
    ms: 1000,
    desyncs: 0,
    endedAt: 5,
    outcome: 'stopped',
    replay: recorder.snapshot() ?? undefined,
    coach: summary,
  };
}

describe('a coached game in the history and its replay', () => {
  const summary: CoachSummary = {
    graded: 3,
    accuracy: 50,
    counts: { best: 1, good: 0, inaccuracy: 0, mistake: 1, blunder: 1 },
    marks: '!X-m',
    better: '-l-d',
    resyncs: 0,
  };
  const game = coachedGame(['left', 'up', 'right', 'left'], summary);

  it('the history says it was coached, with its accuracy', () => {
    expect(historyStrategyText(game)).toBe('Expectimax (strongest) · coached, 50.0 %');
    expect(historyStrategyText({ ...game, coach: undefined })).toBe('Expectimax (strongest)');
  });

  it('one mark per replay move, the better move with each graded move that was not the best', () => {
    const marks = moveMarks(game);
    expect(marks).toEqual([
      { grade: 'best', better: null },
      { grade: 'blunder', better: 'left' },
      { grade: null, better: null },
      { grade: 'mistake', better: 'down' },
    ]);
    expect(marks).toHaveLength(game.replay?.n ?? -1);
    // An autopilot game has none; marks that do not match the replay are not shown on the wrong moves.
    expect(moveMarks({ ...game, coach: undefined })).toBeNull();
    expect(moveMarks({ ...game, coach: { ...summary, marks: '!X-' } })).toBeNull();
    // A record from before the better moves were kept: grades without a better move.
    expect(moveMarks({ ...game, coach: { ...summary, better: undefined } })?.[1]).toEqual({ grade: 'blunder', better: null });
  });

  it('the replay line says the grade of the move just played', () => {
    const marks = moveMarks(game) ?? [];
    expect(replayMarkText(summary, marks, 0, null)).toBe('Accuracy 50.0 % over 3 graded moves: 1 best · 1 mistake · 1 blunder');
    expect(replayMarkText(summary, marks, 1, 'left')).toBe('Move 1, left ←: Best');
    expect(replayMarkText(summary, marks, 2, 'up')).toBe('Move 2, up ↑: Blunder (better: left ←)');
    expect(replayMarkText(summary, marks, 3, 'right')).toBe('Move 3, right →: not graded');
    expect(replayMarkText(summary, marks, 4, 'left')).toBe('Move 4, left ←: Mistake (better: down ↓)');
  });

  it('the no-grades note in words', () => {
    expect(noteText(NO_GRADES_NOTE)).toMatch(/does not evaluate positions/);
    expect(noteText(undefined)).toBe('');
  });
});
