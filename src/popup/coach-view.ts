/**
 * What the popup (and later the side panel) shows of coach mode, as pure functions of the run status and
 * a game record (no DOM, no chrome.*).
 */
import type { Grade } from '../coach/grade';
import type { CoachStatus, CoachSummary } from '../shared/coach';
import type { RunStatus } from '../shared/messages';
import { moveText } from './view';

export const GRADE_LABEL: Readonly<Record<Grade, string>> = {
  best: 'Best',
  good: 'Good',
  inaccuracy: 'Inaccuracy',
  mistake: 'Mistake',
  blunder: 'Blunder',
};

export function isCoaching(status: RunStatus | null): boolean {
  return status?.coach?.active === true;
}

/** The state line while coaching ("Coaching": the person plays), else null (the run's own state). */
export function coachStateLabel(status: RunStatus | null): string | null {
  return isCoaching(status) && !status?.running ? 'Coaching' : null;
}

/** "87.5 %", or "—" before the first graded move. */
export function accuracyText(accuracy: number | null): string {
  return accuracy === null ? '—' : `${accuracy.toFixed(1)} %`;
}

/** "Mistake: left ← (better: down ↓, −4.2 % of the position's value)", or "Best: left ←". */
export function lastGradeText(coach: CoachStatus): string {
  const last = coach.last;
  if (!last) return coach.graded === 0 ? 'Play a move: it will be graded here.' : '';
  if (last.grade === 'best') return `${GRADE_LABEL.best}: ${moveText(last.move)}`;
  const loss = last.loss >= 0.995 ? 'everything' : `−${(last.loss * 100).toFixed(1)} %`;
  return `${GRADE_LABEL[last.grade]}: ${moveText(last.move)} (better: ${moveText(last.best)}, ${loss} of the position's value)`;
}

/** "Suggested: down ↓", "Thinking…" while the board shown is evaluated. */
export function suggestionText(coach: CoachStatus): string {
  return coach.suggestion ? `Suggested: ${moveText(coach.suggestion)}` : coach.active ? 'Thinking…' : '';
}

/** "5 best · 3 good · 2 inaccuracies · 1 mistake · 1 blunder" (zeros left out); "" when nothing graded. */
export function countsText(counts: CoachSummary['counts']): string {
  const parts: string[] = [];
  const plural: Record<Grade, [string, string]> = {
    best: ['best', 'best'],
    good: ['good', 'good'],
    inaccuracy: ['inaccuracy', 'inaccuracies'],
    mistake: ['mistake', 'mistakes'],
    blunder: ['blunder', 'blunders'],
  };
  for (const grade of Object.keys(plural) as Grade[]) {
    const n = counts[grade];
    if (n > 0) parts.push(`${n} ${plural[grade][n === 1 ? 0 : 1]}`);
  }
  return parts.join(' · ');
}

/** One line for a game record's coach summary: "Accuracy 87.5 % over 40 graded moves: 30 best · …". */
export function summaryText(summary: CoachSummary): string {
  if (summary.graded === 0) return 'No graded move';
  const counts = countsText(summary.counts);
  return `Accuracy ${accuracyText(summary.accuracy)} over ${summary.graded} graded move${summary.graded === 1 ? '' : 's'}${counts ? `: ${counts}` : ''}`;
}
