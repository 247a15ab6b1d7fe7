/**
 * The chance meter's numbers from played games (src/engine/chance.ts): what a game collects move by move
 * (ChanceCollector, in the bench's worker threads), the curves fitted from many games' features
 * (fitCurves: `npx tsx bench/chance.ts fit`) and the reliability of the estimates against what the games
 * really reached (reliability: `npm run bench -- --chance`, `npx tsx bench/chance.ts measure`).
 */
import { DIRECTIONS, legalMoves, maxTile } from '../engine/index';
import type { Grid, MoveValues } from '../engine/index';
import { chanceFeature, chanceFromValues, curveKey, nextMilestone, progressOf } from '../engine/chance';
import type { ChanceCurve, ChanceCurves } from '../engine/chance';
import { networkMoveValues } from '../engine/strategies/network';

/** fit: each position's feature for the curves; measure: each position's estimate. */
export type ChanceMode = 'fit' | 'measure';

/** Bins per unit of x in the records (fit and raw, `bench/chance.ts --save`): fine enough to rebin as a FitMethod says. */
export const RAW_BINS_PER_UNIT = 64;

/**
 * What one game collected. fit: [curve key, bin of x at RAW_BINS_PER_UNIT, positions, target]; measure: [0 next | 1 after,
 * tenth of the estimate, target, positions, sum of the estimates]. Whether the target came is known from
 * the game's best tile.
 */
export interface ChanceRecord {
  readonly fit?: readonly (readonly [string, number, number, number])[];
  readonly measure?: readonly (readonly [number, number, number, number, number])[];
  /** With raw on (either mode): [0 next | 1 after, curve key, bin of x at RAW_BINS_PER_UNIT, positions, target]. */
  readonly raw?: readonly (readonly [number, string, number, number, number])[];
}

export class ChanceCollector {
  private readonly fit = new Map<string, [string, number, number, number]>();
  private readonly measure = new Map<string, [number, number, number, number, number]>();
  private readonly raw = new Map<string, [number, string, number, number, number]>();

  /** raw: also keep each position's feature at RAW_BINS_PER_UNIT (for refitting offline). */
  constructor(
    private readonly mode: ChanceMode,
    private readonly keepRaw = false,
  ) {}

  /** One position of the game (before the move from it). */
  observe(grid: Grid): void {
    const roots = legalMoves(grid).map((move) => DIRECTIONS.indexOf(move));
    const values = roots.length > 0 ? networkMoveValues(grid, roots) : null;
    if (!values) return;
    if (this.keepRaw) this.observeRaw(grid, values);
    if (this.mode === 'measure') {
      const estimate = chanceFromValues(grid, values);
      if (!estimate) return;
      for (const [which, chance] of [estimate.next, estimate.after].entries()) {
        if (!chance) continue;
        const tenth = Math.min(9, Math.floor(chance.p * 10));
        const key = `${which}/${tenth}/${chance.target}`;
        const row = this.measure.get(key) ?? [which, tenth, chance.target, 0, 0];
        row[3] += 1;
        row[4] += chance.p;
        this.measure.set(key, row);
      }
      return;
    }
    const best = maxTile(grid);
    const target = nextMilestone(best);
    if (target === null) return;
    const top = Math.max(...Object.values(values));
    const progress = progressOf(grid);
    for (const tile of [target, target * 2]) {
      const bin = Math.round(chanceFeature(progress, top, tile) * RAW_BINS_PER_UNIT);
      const key = `${curveKey(tile, best)}|${bin}`;
      const row = this.fit.get(key) ?? [curveKey(tile, best), bin, 0, tile];
      row[2] += 1;
      this.fit.set(key, row);
    }
  }

  private observeRaw(grid: Grid, values: MoveValues): void {
    const best = maxTile(grid);
    const target = nextMilestone(best);
    if (target === null) return;
    const top = Math.max(...Object.values(values));
    const progress = progressOf(grid);
    for (const [which, tile] of [target, target * 2].entries()) {
      const bin = Math.round(chanceFeature(progress, top, tile) * RAW_BINS_PER_UNIT);
      const key = curveKey(tile, best);
      const id = `${which}|${key}|${bin}`;
      const row = this.raw.get(id) ?? [which, key, bin, 0, tile];
      row[3] += 1;
      this.raw.set(id, row);
    }
  }

  record(): ChanceRecord {
    const raw = this.keepRaw ? { raw: [...this.raw.values()] } : {};
    return this.mode === 'fit' ? { fit: [...this.fit.values()], ...raw } : { measure: [...this.measure.values()], ...raw };
  }
}

/** A game as the fit and the reliability read it. */
export interface ChanceGame {
  readonly maxTile: number;
  readonly chance?: ChanceRecord;
}

/** The 90 % Wilson interval of a share p seen over n. */
export function wilson(p: number, n: number, z = 1.645): { lo: number; hi: number } {
  if (n <= 0) return { lo: 0, hi: 1 };
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

interface Block {
  x: number; // sum of x × positions
  n: number; // positions
  hits: number; // positions whose game reached the target
  games: number; // (game, bin) pairs, or the effective number of games when byGame is kept
  /** Positions per game (FitMethod.effective): games is then (Σ n)² / Σ n², the games a share rests on. */
  byGame?: Map<number, number>;
}

function absorb(into: Block, from: Block): void {
  into.x += from.x;
  into.n += from.n;
  into.hits += from.hits;
  if (into.byGame && from.byGame) {
    const merged = new Map(into.byGame);
    for (const [game, n] of from.byGame) merged.set(game, (merged.get(game) ?? 0) + n);
    into.byGame = merged;
    let squares = 0;
    for (const n of merged.values()) squares += n * n;
    into.games = (into.n * into.n) / squares;
  } else into.games += from.games;
}

/**
 * Pool adjacent blocks until each has `minGames` games behind it, then make the chances non-decreasing in x
 * (pool adjacent violators, weighted by positions). Blocks must be sorted by x.
 */
export function monotoneBlocks(blocks: readonly Block[], minGames: number): Block[] {
  const pooled: Block[] = [];
  for (const b of blocks) {
    const last = pooled.at(-1);
    if (last && last.games < minGames) absorb(last, b);
    else pooled.push({ ...b });
  }
  const tail = pooled.at(-1);
  if (pooled.length > 1 && tail && tail.games < minGames) {
    pooled.pop();
    absorb(pooled[pooled.length - 1], tail);
  }
  const stack: Block[] = [];
  for (const b of pooled) {
    stack.push({ ...b });
    while (stack.length > 1 && stack[stack.length - 2].hits / stack[stack.length - 2].n >= stack[stack.length - 1].hits / stack[stack.length - 1].n) {
      const top = stack.pop() as Block;
      absorb(stack[stack.length - 1], top);
    }
  }
  return stack;
}

/** How the curves are fitted (bench/chance-offline.ts compares methods on saved games). */
export interface FitMethod {
  /** Bins per unit of x before pooling (at most RAW_BINS_PER_UNIT). */
  readonly binsPerUnit: number;
  /** How the points are joined (ChanceCurve.scale). */
  readonly scale: 'linear' | 'logit' | 'step';
  /** Count a point's games by their weight (Block.byGame) rather than one per game and bin. */
  readonly effective?: boolean;
}

/**
 * The method chosen by cross-validation in the fit games (docs/benchmarks.md, "The chance meter"): bins of
 * 1/32 of a unit, points joined linearly, a point's games counted by their weight.
 */
const DEFAULT_FIT: FitMethod = { binsPerUnit: 32, scale: 'linear', effective: true };

/** A game's positions as the fit reads them: [curve key, x, positions, target]. */
function fitSamples(game: ChanceGame): [string, number, number, number][] {
  const record = game.chance;
  if (record?.raw) return record.raw.map(([, key, bin, n, target]) => [key, bin / RAW_BINS_PER_UNIT, n, target]);
  return (record?.fit ?? []).map(([key, bin, n, target]) => [key, bin / RAW_BINS_PER_UNIT, n, target]);
}

/** The curves from games played in fit mode; a key with fewer than minGames games in all gets none. */
export function fitCurves(games: readonly ChanceGame[], minGames = 30, method: FitMethod = DEFAULT_FIT): Record<string, ChanceCurve> {
  const bins = new Map<string, Map<number, Block & { last: number }>>();
  for (const [index, game] of games.entries()) {
    for (const [key, x, n, target] of fitSamples(game)) {
      const bin = Math.round(x * method.binsPerUnit);
      const byBin = bins.get(key) ?? new Map<number, Block & { last: number }>();
      const block = byBin.get(bin) ?? { x: 0, n: 0, hits: 0, games: 0, last: -1, ...(method.effective ? { byGame: new Map<number, number>() } : {}) };
      block.x += x * n;
      block.n += n;
      block.hits += game.maxTile >= target ? n : 0;
      if (block.last !== index) block.games += 1;
      block.last = index;
      block.byGame?.set(index, (block.byGame.get(index) ?? 0) + n);
      byBin.set(bin, block);
      bins.set(key, byBin);
    }
  }
  const curves: Record<string, ChanceCurve> = {};
  for (const key of [...bins.keys()].sort()) {
    const sorted = [...(bins.get(key) as Map<number, Block & { last: number }>).entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, { x, n, hits, games: g, byGame }]): Block => {
        if (!byGame) return { x, n, hits, games: g };
        let squares = 0;
        for (const m of byGame.values()) squares += m * m;
        return { x, n, hits, games: (n * n) / squares, byGame };
      });
    if (sorted.reduce((sum, b) => sum + b.games, 0) < minGames) continue;
    const blocks = monotoneBlocks(sorted, minGames);
    const round = (v: number): number => Math.round(v * 10_000) / 10_000;
    const points = blocks.map((b) => ({ x: b.x / b.n, p: b.hits / b.n, games: b.games, ...wilson(b.hits / b.n, b.games) }));
    curves[key] = {
      x: points.map((q) => round(q.x)),
      p: points.map((q) => round(q.p)),
      lo: points.map((q) => round(q.lo)),
      hi: points.map((q) => round(q.hi)),
      games: points.map((q) => Math.round(q.games)),
      ...(method.scale === 'linear' ? {} : { scale: method.scale }),
    };
  }
  return curves;
}

/** The source file the curves live in (src/engine/chance-curve.ts). */
export function curveSource(curves: ChanceCurves): string {
  return `/** Written by \`npx tsx bench/chance.ts fit\`: do not edit by hand. */\nimport type { ChanceCurves } from './chance';\n\nexport const CHANCE_CURVES: ChanceCurves = ${JSON.stringify(curves)};\n`;
}

interface ReliabilityRow {
  readonly tenth: number;
  readonly positions: number;
  readonly games: number;
  /** Mean estimate of the positions in this tenth (0–1). */
  readonly predicted: number;
  /** Share of them whose game reached the milestone (0–1). */
  readonly observed: number;
}

export interface Reliability {
  readonly next: readonly ReliabilityRow[];
  readonly after: readonly ReliabilityRow[];
}

/** Predicted against observed per tenth of the estimate, for the next milestone and the one after. */
export function reliability(games: readonly ChanceGame[]): Reliability {
  const table = [0, 1].map(() => Array.from({ length: 10 }, () => ({ n: 0, sumP: 0, hits: 0, games: 0 })));
  for (const game of games) {
    const seen = new Set<string>();
    for (const [which, tenth, target, n, sumP] of game.chance?.measure ?? []) {
      const cell = table[which][tenth];
      cell.n += n;
      cell.sumP += sumP;
      cell.hits += game.maxTile >= target ? n : 0;
      if (!seen.has(`${which}/${tenth}`)) cell.games += 1;
      seen.add(`${which}/${tenth}`);
    }
  }
  const rows = (cells: (typeof table)[number]): ReliabilityRow[] =>
    cells.flatMap((c, tenth) => (c.n === 0 ? [] : [{ tenth, positions: c.n, games: c.games, predicted: c.sumP / c.n, observed: c.hits / c.n }]));
  return { next: rows(table[0]), after: rows(table[1]) };
}

/** The reliability as text lines (a table per milestone). */
export function formatReliability(result: Reliability): string[] {
  const lines: string[] = [];
  for (const [name, rows] of [['next milestone', result.next], ['the milestone after', result.after]] as const) {
    lines.push(`chance of the ${name}: predicted vs reached, per tenth of the estimate`);
    lines.push('  tenth      positions  games  predicted  reached  difference');
    for (const r of rows) {
      const pct = (v: number): string => `${(100 * v).toFixed(1)} %`.padStart(9);
      lines.push(
        `  ${`${r.tenth * 10}-${r.tenth * 10 + 10} %`.padEnd(10)} ${String(r.positions).padStart(9)}  ${String(r.games).padStart(5)}  ${pct(r.predicted)}  ${pct(r.observed)}  ${`${(100 * (r.predicted - r.observed)).toFixed(1)}`.padStart(8)} pts`,
      );
    }
    lines.push('');
  }
  return lines;
}
