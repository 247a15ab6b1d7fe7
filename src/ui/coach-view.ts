/**
 * What the popup, the side panel and the replay show of coach mode, as pure functions of the run status and
 * a game record (no DOM, no chrome.*). Every text comes from `_locales` through `t()`.
 */
import { GRADES, GRADE_MARK, MOVE_LETTER } from '../coach/grade';
import type { Grade } from '../coach/grade';
import { DIRECTIONS } from '../engine/types';
import type { Direction } from '../engine/types';
import { NO_GRADES_NOTE } from '../shared/coach';
import type { CoachStatus, CoachSummary } from '../shared/coach';
import type { GameRecord, RunStatus } from '../shared/messages';
import { t } from './i18n';
import { moveText, strategyLabel } from './status-view';

/** "Best", "Mistake", … in the UI language. */
export function gradeLabel(grade: Grade): string {
  return t(`grade_${grade}`);
}

export function isCoaching(status: RunStatus | null): boolean {
  return status?.coach?.active === true;
}

/** The state line while coaching ("Coaching": the person plays), else null (the run's own state). */
export function coachStateLabel(status: RunStatus | null): string | null {
  return isCoaching(status) && !status?.running ? t('coachStateCoaching') : null;
}

/** "87.5 %", or "—" before the first graded move. */
export function accuracyText(accuracy: number | null): string {
  return accuracy === null ? '—' : t('coachPercent', accuracy.toFixed(1));
}

/** "(12 graded)", "" before the first. */
export function gradedText(graded: number): string {
  return graded > 0 ? t('coachGradedCount', graded) : '';
}

/**
 * "Mistake: left ← (better: down ↓, −9 % chance of 4096)" when the chance meter graded it, else "… −4.2 % of
 * the position's value"; or "Best: left ←".
 */
export function lastGradeText(coach: CoachStatus): string {
  const last = coach.last;
  if (!last) return coach.graded === 0 ? t('coachPlayFirst') : '';
  if (last.grade === 'best') return t('coachLastBest', gradeLabel('best'), moveText(last.move));
  if (last.chance) {
    const points = last.chance.lost * 100;
    return t('coachLastWorseChance', gradeLabel(last.grade), moveText(last.move), moveText(last.best), points < 1 ? points.toFixed(1) : Math.round(points), last.chance.target);
  }
  const loss = last.loss >= 0.995 ? t('coachLossAll') : t('coachLossPercent', (last.loss * 100).toFixed(1));
  return t('coachLastWorse', gradeLabel(last.grade), moveText(last.move), moveText(last.best), loss);
}

/** "Suggested: down ↓", "Thinking…" while the board shown is evaluated. */
export function suggestionText(coach: CoachStatus): string {
  return coach.suggestion ? t('coachSuggested', moveText(coach.suggestion)) : coach.active ? t('coachThinking') : '';
}

/** Why moves are not graded, in the UI language. */
export function noteText(note: string | undefined): string {
  if (!note) return '';
  return note === NO_GRADES_NOTE ? t('coachNoGrades') : note;
}

/** "5 best · 3 good · 2 inaccuracies · 1 mistake · 1 blunder" (zeros left out); "" when nothing graded. */
export function countsText(counts: CoachSummary['counts']): string {
  const parts: string[] = [];
  for (const grade of GRADES) {
    const n = counts[grade];
    if (n > 0) parts.push(n === 1 ? t(`coachCountOne_${grade}`, n) : t(`coachCountMany_${grade}`, n));
  }
  return parts.join(' · ');
}

/** One line for a game record's coach summary: "Accuracy 87.5 % over 40 graded moves: 30 best · …". */
export function summaryText(summary: CoachSummary): string {
  if (summary.graded === 0) return t('coachNoGradedMove');
  const counts = countsText(summary.counts);
  const head = t(summary.graded === 1 ? 'coachSummaryOne' : 'coachSummaryMany', accuracyText(summary.accuracy), summary.graded);
  return counts ? `${head}: ${counts}` : head;
}

// ------------------------------------------------------------------------------------- the game log

/** The history table's strategy cell of a game: "Expectimax (strongest) · coached, 87.5 %" for a coached game. */
export function historyStrategyText(game: GameRecord): string {
  if (!game.coach) return strategyLabel(game.strategy);
  return t('historyCoached', strategyLabel(game.strategy), accuracyText(game.coach.accuracy));
}

/** The grade of one move of a coached game, as its record keeps it. */
export interface MoveMark {
  /** Null: the move was seen but not graded. */
  readonly grade: Grade | null;
  /** The move the search preferred, when the move played was not the best (and the record says which). */
  readonly better: Direction | null;
}

const GRADE_OF_MARK = new Map<string, Grade>(GRADES.map((grade) => [GRADE_MARK[grade], grade]));
const DIRECTION_OF_LETTER = new Map<string, Direction>(DIRECTIONS.map((d) => [MOVE_LETTER[d], d]));

/**
 * One mark per move of a coached game (the i-th for the replay's i-th move), or null for a game the
 * autopilot played. A record whose marks do not match its replay's length gets none (never a mark on
 * the wrong move).
 */
export function moveMarks(game: GameRecord): MoveMark[] | null {
  const summary = game.coach;
  if (!summary) return null;
  if (game.replay && game.replay.n !== summary.marks.length) return null;
  return [...summary.marks].map((mark, i) => {
    const grade = GRADE_OF_MARK.get(mark) ?? null;
    const better = grade && grade !== 'best' ? (DIRECTION_OF_LETTER.get(summary.better?.[i] ?? '') ?? null) : null;
    return { grade, better };
  });
}

/**
 * The replay's line for position `index` of a coached game (position i shows the board after move i):
 * "Move 5, left ←: Mistake (better: down ↓)"; at the start, the game's summary.
 */
export function replayMarkText(summary: CoachSummary, marks: readonly MoveMark[], index: number, move: Direction | null): string {
  if (index === 0 || !move) return summaryText(summary);
  const mark = marks[index - 1];
  if (!mark?.grade) return t('replayMarkNone', index, moveText(move));
  if (mark.grade === 'best' || !mark.better) return t('replayMark', index, moveText(move), gradeLabel(mark.grade));
  return t('replayMarkBetter', index, moveText(move), gradeLabel(mark.grade), moveText(mark.better));
}
