/** Statistics of bench results: pure functions. */
import { lowerMedian, median, quantile } from '../shared/statistics';
import type { ChanceRecord } from './chance-samples';

export interface Summary {
  readonly min: number;
  readonly median: number;
  readonly mean: number;
  readonly max: number;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { min: Number.NaN, median: Number.NaN, mean: Number.NaN, max: Number.NaN };
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
    sum += value;
  }
  return { min, median: median(values), mean: sum / values.length, max };
}

/** Tiles reported in the reach table. */
export const REACH_TILES = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768] as const;

/** Share of games whose best tile reached each tile in `tiles`. */
export function reachShares(maxTiles: readonly number[], tiles: readonly number[] = REACH_TILES): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tile of tiles) {
    out[String(tile)] = maxTiles.length === 0 ? 0 : maxTiles.filter((value) => value >= tile).length / maxTiles.length;
  }
  return out;
}

/** One finished game of a bench. */
export interface GameResult {
  readonly index: number;
  readonly seed: number;
  readonly score: number;
  readonly maxTile: number;
  readonly moves: number;
  /** Time spent choosing moves, milliseconds. */
  readonly thinkMs: number;
  /** How the game ended. */
  readonly end: GameEnd;
  /** Think time of each move, milliseconds. */
  readonly moveMs?: readonly number[];
  /** Moves per search depth reached (index = depth; 0 where the strategy has no depth). */
  readonly depthCounts?: readonly number[];
  /** Moves played by the endgame tables (present when --tables on). */
  readonly tableMoves?: number;
  /** Moves that took extra time from the game's time bank (present with --bank). */
  readonly extendedMoves?: number;
  /** What the chance meter collected (with --chance, or bench/chance.ts). */
  readonly chance?: ChanceRecord;
}

/**
 * game-over: no legal move; target: reached --target; stopped: interrupted; stuck: the strategy returned no
 * move or a move that changes nothing although a legal move exists (a strategy bug, counted apart).
 */
export type GameEnd = 'game-over' | 'target' | 'stopped' | 'stuck';

export interface BenchSummary {
  readonly strategy: string;
  readonly games: number;
  readonly seed: number;
  readonly reach: Record<string, number>;
  readonly score: Summary;
  /** Best tile per game: median (the lower middle one for an even count, so it is a tile) and max. */
  readonly maxTile: { readonly median: number; readonly max: number };
  /** Mean moves per game. */
  readonly moves: number;
  /** Moves per game: min/median/mean/max. */
  readonly movesPerGame: Summary;
  /** Think time per move over all games, milliseconds. */
  readonly msPerMove: number;
  /** Games that ended because the strategy returned no usable move (should be 0). */
  readonly stuck: number;
  /** Think time per move over all games (ms): mean, median, 99th percentile, max. */
  readonly thinkMs: { readonly mean: number; readonly p50: number; readonly p99: number; readonly max: number };
  /** Search depth reached per move: mean and the number of moves at each depth (index = depth). */
  readonly depth: { readonly mean: number; readonly counts: readonly number[] };
}

export function summarizeBench(strategy: string, seed: number, results: readonly GameResult[]): BenchSummary {
  const maxTiles = results.map((result) => result.maxTile);
  const totalMoves = results.reduce((sum, result) => sum + result.moves, 0);
  const totalMs = results.reduce((sum, result) => sum + result.thinkMs, 0);
  return {
    strategy,
    games: results.length,
    seed,
    reach: reachShares(maxTiles),
    score: summarize(results.map((result) => result.score)),
    maxTile: { median: lowerMedian(maxTiles), max: maxTiles.length === 0 ? Number.NaN : largest(maxTiles) },
    moves: results.length === 0 ? 0 : totalMoves / results.length,
    movesPerGame: summarize(results.map((result) => result.moves)),
    msPerMove: totalMoves === 0 ? 0 : totalMs / totalMoves,
    stuck: results.filter((result) => result.end === 'stuck').length,
    thinkMs: thinkStats(results),
    depth: depthStats(results),
  };
}

/** The largest value, by a loop: Math.max(...values) overflows the stack past ~10^5 values (a long bench's moves). */
function largest(values: readonly number[]): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return max;
}

function thinkStats(results: readonly GameResult[]): BenchSummary['thinkMs'] {
  const all = results.flatMap((result) => result.moveMs ?? []);
  if (all.length === 0) return { mean: 0, p50: 0, p99: 0, max: 0 };
  return { mean: all.reduce((a, b) => a + b, 0) / all.length, p50: quantile(all, 0.5), p99: quantile(all, 0.99), max: largest(all) };
}

function depthStats(results: readonly GameResult[]): BenchSummary['depth'] {
  const counts: number[] = [];
  for (const result of results) {
    (result.depthCounts ?? []).forEach((n, depth) => {
      while (counts.length <= depth) counts.push(0);
      counts[depth] += n;
    });
  }
  const moves = counts.reduce((a, b) => a + b, 0);
  const mean = moves === 0 ? 0 : counts.reduce((sum, n, depth) => sum + n * depth, 0) / moves;
  return { mean, counts };
}
