/**
 * The panel's charts, drawn by uPlot (npm `uplot`: ~50 kB, canvas, fast on tens of thousands of points):
 * score over moves with a marker where each tile from 512 up first appeared, think time and search depth
 * per move, the value of each move for the current board (bars), and the history's reach rates.
 *
 * Each chart sits in a <figure> whose caption says in words what it shows (the canvas itself is
 * aria-hidden), and takes its colours from the page's CSS variables, so the dark theme applies.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Direction, MoveValues } from '../../engine/types';
import { DIRECTIONS } from '../../engine/types';
import { moveText } from '../status-view';
import { t } from '../i18n';
import type { LiveSeries } from './live-series';
import { milestones } from './live-series';

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function palette() {
  return {
    ink: cssVar('--ink', '#776e65'),
    grid: cssVar('--line', '#e3dacd'),
    score: cssVar('--orange', '#f67c5f'),
    gold: cssVar('--gold', '#edc22e'),
    think: cssVar('--accent', '#8f7a66'),
    depth: cssVar('--blue', '#3b7dd8'),
    bar: cssVar('--board', '#bbada0'),
  };
}

function axis(colors: ReturnType<typeof palette>, extra: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: colors.ink,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
    font: '11px system-ui, sans-serif',
    size: 36,
    ...extra,
  };
}

function compact(n: number): string {
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (Math.abs(n) >= 1e3) return `${(n / 1e3).toFixed(n >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(n * 100) / 100);
}

function widthOf(element: HTMLElement): number {
  return Math.max(200, Math.floor(element.clientWidth || 300));
}

/** A chart that follows its container's width. */
abstract class Chart {
  protected plot: uPlot | null = null;
  private readonly resize = new ResizeObserver(() => this.plot?.setSize({ width: widthOf(this.target), height: this.height }));

  constructor(
    protected readonly target: HTMLElement,
    protected readonly height: number,
  ) {
    this.resize.observe(target);
  }

  protected abstract build(): uPlot;

  /** What every chart here shares: the container's width, its height, no legend, no cursor. */
  protected frame(): Pick<uPlot.Options, 'width' | 'height' | 'legend' | 'cursor'> {
    return { width: widthOf(this.target), height: this.height, legend: { show: false }, cursor: { show: false } };
  }

  /** Build again (a change of colour scheme). */
  rebuild(): void {
    this.plot?.destroy();
    this.plot = this.build();
    this.plot.root.setAttribute('aria-hidden', 'true');
  }
}

/** Score over moves, with tile markers (a points-only series), and think time / depth per move. */
export class LiveCharts {
  private readonly score: ScoreChart;
  private readonly think: ThinkChart;

  constructor(scoreTarget: HTMLElement, thinkTarget: HTMLElement) {
    this.score = new ScoreChart(scoreTarget, 170);
    this.think = new ThinkChart(thinkTarget, 140);
    this.rebuild();
  }

  rebuild(): void {
    this.score.rebuild();
    this.think.rebuild();
  }

  update(series: LiveSeries): void {
    this.score.update(series);
    this.think.update(series);
  }
}

class ScoreChart extends Chart {
  private data: uPlot.AlignedData = [[], [], []];

  protected build(): uPlot {
    const c = palette();
    return new uPlot(
      {
        ...this.frame(),
        scales: { x: { time: false } },
        axes: [axis(c), axis(c, { values: (_u, ticks) => ticks.map(compact), size: 42 })],
        series: [
          {},
          { label: t('chartScore'), stroke: c.score, width: 2, fill: `${c.score}22`, points: { show: false } },
          {
            label: t('chartMilestones'),
            stroke: c.gold,
            fill: c.gold,
            paths: () => null,
            points: { show: true, size: 9, width: 2, stroke: c.ink, fill: c.gold },
          },
        ],
      },
      this.data,
      this.target,
    );
  }

  update(series: LiveSeries): void {
    const marks = new Map(milestones(series).map((m) => [m.move, m.score]));
    this.data = [series.moves, series.score, series.moves.map((m) => marks.get(m) ?? null)];
    this.plot?.setData(this.data);
  }
}

class ThinkChart extends Chart {
  private data: uPlot.AlignedData = [[], [], []];

  protected build(): uPlot {
    const c = palette();
    return new uPlot(
      {
        ...this.frame(),
        scales: { x: { time: false }, ms: { range: (_u, _min, max) => [0, Math.max(1, max)] }, depth: { range: (_u, _min, max) => [0, Math.max(4, max + 1)] } },
        axes: [
          axis(c),
          axis(c, { scale: 'ms', values: (_u, ticks) => ticks.map((v) => `${compact(v)}`) }),
          axis(c, { scale: 'depth', side: 1, grid: { show: false }, size: 30, incrs: [1, 2, 5], values: (_u, ticks) => ticks.map((v) => (Number.isInteger(v) ? String(v) : '')) }),
        ],
        series: [
          {},
          { label: t('chartThink'), scale: 'ms', stroke: c.think, width: 1, points: { show: false } },
          { label: t('chartDepth'), scale: 'depth', stroke: c.depth, width: 2, paths: uPlot.paths.stepped?.({ align: 1 }), points: { show: false } },
        ],
      },
      this.data,
      this.target,
    );
  }

  update(series: LiveSeries): void {
    this.data = [series.moves, series.thinkMs, series.depth];
    this.plot?.setData(this.data);
  }
}

/** The value of each move for the current board, as bars (best highlighted by its label). */
export class ValuesChart extends Chart {
  private data: uPlot.AlignedData = [[0, 1, 2, 3], [null, null, null, null]];

  protected build(): uPlot {
    const c = palette();
    return new uPlot(
      {
        ...this.frame(),
        scales: { x: { time: false, range: [-0.5, 3.5] }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] } },
        axes: [
          axis(c, { values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) && DIRECTIONS[i] ? moveText(DIRECTIONS[i]) : '')), splits: () => [0, 1, 2, 3], grid: { show: false } }),
          axis(c, { values: (_u, ticks) => ticks.map(compact), size: 44 }),
        ],
        series: [{}, { label: t('chartValues'), fill: c.score, stroke: c.score, paths: uPlot.paths.bars?.({ size: [0.6, 60] }), points: { show: false } }],
      },
      this.data,
      this.target,
    );
  }

  update(values: MoveValues | undefined): void {
    const ys = DIRECTIONS.map((d: Direction) => {
      const v = values?.[d];
      return v !== undefined && Number.isFinite(v) ? v : null;
    });
    this.data = [[0, 1, 2, 3], ys];
    this.plot?.setData(this.data);
  }
}

/** Reach rate (%) of each tile, one line per strategy (history). */
export class ReachChart extends Chart {
  private data: uPlot.AlignedData = [[]];
  private labels: string[] = [];
  private tiles: number[] = [];

  protected build(): uPlot {
    const c = palette();
    const colors = [c.score, c.depth, c.gold, c.think, '#5d9b4a', '#b04fb0'];
    return new uPlot(
      {
        ...this.frame(),
        scales: { x: { time: false }, y: { range: [0, 100] } },
        axes: [
          axis(c, { values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) ? String(this.tiles[i] ?? '') : '')), splits: () => this.tiles.map((_, i) => i) }),
          axis(c, { values: (_u, ticks) => ticks.map((v) => `${v}%`), size: 46 }),
        ],
        series: [{}, ...this.labels.map((label, i) => ({ label, stroke: colors[i % colors.length], width: 2, points: { show: true, size: 6 } }))],
      },
      this.data,
      this.target,
    );
  }

  update(tiles: readonly number[], rows: readonly { label: string; rates: number[] }[]): void {
    const shape = rows.map((r) => r.label).join('|');
    this.tiles = [...tiles];
    this.data = [tiles.map((_, i) => i), ...rows.map((r) => r.rates.map((v) => Math.round(v * 1000) / 10))];
    if (shape !== this.labels.join('|') || !this.plot) {
      this.labels = rows.map((r) => r.label);
      this.rebuild();
    } else this.plot.setData(this.data);
  }
}

/**
 * The chance of the next milestone over a game (0–100 %), with one marked point: where it fell most (the
 * replay), or none (the live chart).
 */
export class ChanceChart extends Chart {
  private data: uPlot.AlignedData = [[], [], []];

  protected build(): uPlot {
    const c = palette();
    return new uPlot(
      {
        ...this.frame(),
        scales: { x: { time: false }, y: { range: [0, 100] } },
        axes: [axis(c), axis(c, { values: (_u, ticks) => ticks.map((v) => `${v}%`), size: 46 })],
        series: [
          {},
          { label: t('chanceChart'), stroke: c.depth, width: 2, fill: `${c.depth}22`, spanGaps: false, points: { show: false } },
          { label: t('chanceChart'), stroke: c.score, fill: c.score, paths: () => null, points: { show: true, size: 10, width: 2, stroke: c.ink, fill: c.score } },
        ],
      },
      this.data,
      this.target,
    );
  }

  /** `chances` (0–1, null: none) at the positions `moves`; `mark`: the index of the point to mark. */
  update(moves: readonly number[], chances: readonly (number | null)[], mark: number | null = null): void {
    const percent = chances.map((p) => (p === null ? null : Math.round(p * 1000) / 10));
    this.data = [[...moves], percent, percent.map((p, i) => (i === mark ? p : null))];
    this.plot?.setData(this.data);
  }
}
