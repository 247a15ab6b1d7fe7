/** The charts' contents in words (for screen readers and as a caption under each chart). Pure. */
import { formatInt, t } from '../i18n';
import type { LiveSeries } from './live-series';
import { milestones } from './live-series';
import { percentText } from '../status-view';

/** "Chance of 4096: 72 %" at the last move that had one; '' when none did. */
export function chanceChartText(series: LiveSeries): string {
  for (let i = series.chance.length - 1; i >= 0; i--) {
    const p = series.chance[i];
    const target = series.target[i];
    if (p !== null && target !== null) return t('chanceLine', target, percentText(p));
  }
  return '';
}

export function liveChartTexts(series: LiveSeries): { score: string; think: string } {
  const n = series.moves.length;
  if (n === 0) return { score: t('chartNoMoves'), think: '' };
  const lastMove = series.moves[n - 1];
  const score = series.score[n - 1];
  const marks = milestones(series)
    .map((m) => t('chartMilestoneAt', m.tile, m.move))
    .join(', ');
  const thinks = series.thinkMs.filter((v): v is number => v !== null);
  const depths = series.depth.filter((v): v is number => v !== null);
  const mean = thinks.length ? thinks.reduce((a, b) => a + b, 0) / thinks.length : 0;
  return {
    score: [t('chartScoreText', score === null ? '—' : formatInt(score), lastMove), marks].filter(Boolean).join(' · '),
    think: thinks.length ? t('chartThinkText', mean.toFixed(1), depths.length ? Math.max(...depths) : '—') : '',
  };
}
