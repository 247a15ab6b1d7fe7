/**
 * The replay view: one game move by move, the board drawn; ←/→ step, Home/End jump, a slider. A game the
 * person played with the coach on shows the grade of the move just played, with the better move
 * when there was one, and a coloured tick under the slider for each move that was not the best.
 */
import { ReplayError, replayFrames } from '../../shared/history';
import type { ReplayFrame } from '../../shared/history';
import { maxTile } from '../../engine/grid';
import { moveText, strategyLabel } from '../status-view';
import { moveMarks, replayMarkText } from '../coach-view';
import type { MoveMark } from '../coach-view';
import type { CoachSummary } from '../../shared/coach';
import { byId, renderBoardInto, renderPairs } from '../dom';
import { formatInt, t, uiLanguage } from '../i18n';
import { gameId, loadGames } from './history-view';
import { ChanceChart } from './charts';
import { biggestFall, decodeChances } from '../../coach/chances';
import { nextMilestone } from '../../engine/chance';
import { percentText } from '../status-view';

export class ReplayView {
  private readonly ui = {
    title: byId('replay-title'),
    board: byId('replay-board'),
    position: byId('replay-position'),
    stats: byId('replay-stats'),
    slider: byId<HTMLInputElement>('replay-slider'),
    first: byId<HTMLButtonElement>('replay-first'),
    prev: byId<HTMLButtonElement>('replay-prev'),
    next: byId<HTMLButtonElement>('replay-next'),
    last: byId<HTMLButtonElement>('replay-last'),
    error: byId('replay-error'),
    note: byId('replay-note'),
    grade: byId('replay-grade'),
    ticks: byId('replay-ticks'),
    legend: byId('replay-legend'),
    chance: byId('replay-chance'),
    chanceText: byId('replay-chance-text'),
  };
  private chanceChart: ChanceChart | null = null;
  private frames: ReplayFrame[] = [];
  /** A coached game's summary and its marks (the i-th for move i + 1), else null. */
  private coached: { summary: CoachSummary; marks: MoveMark[] } | null = null;
  private index = 0;
  private wired = false;
  private readonly onKey = (event: KeyboardEvent): void => {
    // The slider handles its own arrows; elsewhere on the page the arrows step the replay.
    if (event.target === this.ui.slider || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.frames.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
  };

  private wire(): void {
    this.wired = true;
    const { ui } = this;
    ui.slider.addEventListener('input', () => this.go(Number(ui.slider.value)));
    ui.first.addEventListener('click', () => this.go(0));
    ui.prev.addEventListener('click', () => this.go(this.index - 1));
    ui.next.addEventListener('click', () => this.go(this.index + 1));
    ui.last.addEventListener('click', () => this.go(this.frames.length - 1));
  }

  async show(id: string): Promise<void> {
    if (!this.wired) this.wire();
    document.addEventListener('keydown', this.onKey);
    const { ui } = this;
    const game = (await loadGames()).find((g) => gameId(g) === id);
    ui.error.hidden = true;
    ui.note.hidden = true;
    this.frames = [];
    this.showMarks(null);
    if (!game?.replay) {
      this.fail(t('replayMissing'));
      return;
    }
    try {
      this.frames = replayFrames(game.replay);
    } catch (err) {
      this.fail(err instanceof ReplayError ? t('replayCorrupt', err.message) : t('replayCorrupt', err instanceof Error ? err.name : 'Error'));
      return;
    }
    const date = new Intl.DateTimeFormat(uiLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(game.endedAt);
    const marks = moveMarks(game);
    this.showMarks(game.coach && marks ? { summary: game.coach, marks } : null);
    this.showChances(game.coach && marks ? game.coach.chances : undefined);
    ui.title.textContent = t(game.coach ? 'replayTitleCoached' : 'replayTitle', strategyLabel(game.strategy), game.site || '—', date);
    // A replay cut short (too long to keep whole) says where it stops.
    ui.note.textContent = game.replay.truncated ? t('replayTruncated', game.replay.n, game.moves) : '';
    ui.note.hidden = !game.replay.truncated;
    ui.slider.max = String(this.frames.length - 1);
    this.go(this.frames.length - 1);
    ui.slider.focus({ preventScroll: true });
  }

  hide(): void {
    document.removeEventListener('keydown', this.onKey);
  }

  /** The ticks under the slider: one per move that was not the best, coloured by its grade. */
  private showMarks(coached: { summary: CoachSummary; marks: MoveMark[] } | null): void {
    this.coached = coached;
    const { ui } = this;
    ui.grade.hidden = ui.ticks.hidden = ui.legend.hidden = coached === null;
    ui.grade.replaceChildren();
    ui.ticks.replaceChildren();
    if (!coached) return;
    const n = coached.marks.length;
    coached.marks.forEach((mark, i) => {
      if (!mark.grade || mark.grade === 'best') return;
      const tick = document.createElement('span');
      tick.className = `tick grade-${mark.grade}`;
      // Move i + 1 is slider position i + 1 of n.
      tick.style.left = `${((i + 1) / n) * 100}%`;
      tick.dataset.move = String(i + 1);
      ui.ticks.append(tick);
    });
  }

  /**
   * The chance of the next milestone over a coached game (its record keeps one per move: the position the
   * move was played from), with the move where it fell most marked and said in words.
   */
  private showChances(text: string | undefined): void {
    const { ui } = this;
    const chances = text !== undefined && text.length === this.frames.length - 1 ? decodeChances(text) : null;
    ui.chance.hidden = !chances || chances.every((p) => p === null);
    if (!chances || ui.chance.hidden) return;
    const targets = chances.map((_, i) => nextMilestone(maxTile(this.frames[i].board)));
    const fall = biggestFall(chances, targets);
    this.chanceChart ??= new ChanceChart(byId('replay-chance-plot'), 130);
    this.chanceChart.rebuild();
    this.chanceChart.update(chances.map((_, i) => i), chances, fall ? fall.move : null);
    ui.chanceText.textContent = fall ? t('replayChanceFall', fall.move, percentText(fall.from), percentText(fall.to), fall.target) : '';
  }

  private fail(message: string): void {
    this.ui.error.textContent = message;
    this.ui.error.hidden = false;
    this.ui.title.textContent = t('viewReplay');
    renderBoardInto(this.ui.board, undefined);
    this.ui.slider.max = '0';
  }

  go(index: number): void {
    if (this.frames.length === 0) return;
    this.index = Math.max(0, Math.min(this.frames.length - 1, index));
    const frame = this.frames[this.index];
    const { ui } = this;
    ui.slider.value = String(this.index);
    ui.slider.setAttribute('aria-valuetext', t('replayPosition', this.index, this.frames.length - 1));
    renderBoardInto(ui.board, frame.board);
    ui.board.dataset.cells = frame.board.cells.join(',');
    ui.position.textContent = `${t('replayPosition', this.index, this.frames.length - 1)}${frame.move ? ` · ${moveText(frame.move)}` : ''}`;
    renderPairs(ui.stats, [
      { label: t('statScore'), value: formatInt(frame.score) },
      { label: t('statBestTile'), value: String(maxTile(frame.board)) },
      { label: t('chartThink'), value: frame.move ? `${frame.thinkMs} ms` : '—' },
    ]);
    if (this.coached) {
      const mark = this.index > 0 ? this.coached.marks[this.index - 1] : undefined;
      const dot = document.createElement('span');
      dot.className = `grade-dot${mark?.grade && mark.grade !== 'best' ? ` grade-${mark.grade}` : ''}`;
      dot.hidden = !mark?.grade || mark.grade === 'best';
      dot.setAttribute('aria-hidden', 'true');
      ui.grade.replaceChildren(dot, replayMarkText(this.coached.summary, this.coached.marks, this.index, frame.move));
      ui.grade.dataset.grade = mark?.grade ?? '';
    }
    ui.first.disabled = ui.prev.disabled = this.index === 0;
    ui.next.disabled = ui.last.disabled = this.index === this.frames.length - 1;
  }
}
