/**
 * The chance meter: how likely the next milestone (2048, 4096, … the first above the largest tile) and the
 * one after are reached from a board, for the player the curve was measured on — the learned network with
 * one look ahead (the "network" strategy) playing on from there.
 *
 * How: one network evaluation per legal move (its score plus the network's value of the board after it:
 * strategies/network.ts networkMoveValues) gives the expected score still to come; with the score the board
 * already holds (progressOf) that is a feature
 *
 *     x = log2((progress + value) / scoreOfTile(target))
 *
 * which a curve per milestone and distance (target / largest tile) maps to a chance. The curves were fitted
 * on thousands of one-ply games (`npx tsx bench/chance.ts fit`: each position's x against whether its game
 * reached the milestone, binned by 1/32 of a unit of x, pooled until each point rests on 30 games counted
 * by weight, made monotone: cli/chance-samples.ts) and carry a 90 % interval from the games behind each
 * point. They belong to one network file (chance-curve.ts names its SHA-256; a unit test fails when the
 * shipped network changes until the fit is run again).
 *
 * Pure: no DOM, no chrome.*.
 */
import { DIRECTIONS } from './types';
import type { Direction, Grid, MoveValues } from './types';
import { legalMoves, maxTile } from './grid';
import { networkMoveValues } from './strategies/network';
import { CHANCE_CURVES } from './chance-curve';

/** The tiles the meter gives chances for. */
export const MILESTONES = [2048, 4096, 8192, 16384, 32768, 65536] as const;

/** Distances (log2 of target / largest tile) beyond this share one curve. */
const MAX_GAP = 4;

/** One fitted curve: points sorted by x, each with its chance, 90 % interval and the games behind it. */
export interface ChanceCurve {
  readonly x: readonly number[];
  readonly p: readonly number[];
  readonly lo: readonly number[];
  readonly hi: readonly number[];
  readonly games: readonly number[];
  /**
   * How the points are joined (readCurve): linear in the chance (absent), linear in its logit, or steps (each
   * point's chance holds up to halfway to the next: the pooled blocks' own chances).
   */
  readonly scale?: 'logit' | 'step';
}

export interface ChanceCurves {
  /** SHA-256 (hex) of the network file the curves were fitted with. */
  readonly network: string;
  /** The games the curves were fitted on (how many, which player, which seed). */
  readonly fittedOn: string;
  /** By curveKey. */
  readonly curves: Readonly<Record<string, ChanceCurve>>;
}

/** A chance with its 90 % interval (0–1). */
interface Chance {
  readonly target: number;
  readonly p: number;
  readonly lo: number;
  readonly hi: number;
}

export interface ChanceEstimate {
  /** The next milestone above the largest tile. */
  readonly next: Chance;
  /** The milestone after it (absent where no curve reaches that far). */
  readonly after?: Chance;
  /** Each legal move's chance of the next milestone (its value mapped by the same curve). */
  readonly moves: Partial<Record<Direction, number>>;
}

/** The first milestone above the largest tile (null above the last). */
export function nextMilestone(best: number): number | null {
  return MILESTONES.find((tile) => tile > best) ?? null;
}

/** The score merges make to build a tile of 2^k from 2s: (k − 1)·2^k (the 4s that spawn make it a little less). */
export function scoreOfTile(tile: number): number {
  const k = Math.log2(tile);
  return k <= 1 ? 0 : (k - 1) * tile;
}

/** The score the tiles on the board stand for (the sum of scoreOfTile). */
export function progressOf(grid: Grid): number {
  let sum = 0;
  for (const v of grid.cells) sum += scoreOfTile(v);
  return sum;
}

/** The key of the curve for `target` when the largest tile is `best`. */
export function curveKey(target: number, best: number): string {
  const gap = Math.min(MAX_GAP, Math.max(1, Math.round(Math.log2(target / Math.max(2, best)))));
  return `${target}/${gap}`;
}

/** The feature the curves map (see above). */
export function chanceFeature(progress: number, value: number, target: number): number {
  return Math.log2(Math.max(1, progress + value) / scoreOfTile(target));
}

/** Chances this close to 0 or 1 are joined in logit as if they were this far in (a logit needs 0 < p < 1). */
const LOGIT_EDGE = 0.001;

function logit(p: number): number {
  const q = Math.min(1 - LOGIT_EDGE, Math.max(LOGIT_EDGE, p));
  return Math.log(q / (1 - q));
}

/** Between two chances a and b at the share t of the way: linear, or linear in the logit. */
function join(a: number, b: number, t: number, scale: ChanceCurve['scale']): number {
  if (scale === 'step') return t < 0.5 ? a : b;
  if (scale !== 'logit' || a === b) return a + t * (b - a);
  const z = logit(a) + t * (logit(b) - logit(a));
  const p = 1 / (1 + Math.exp(-z));
  // The clamp's edge is not a chance the curve holds: keep the result between the two points.
  return Math.min(Math.max(a, b), Math.max(Math.min(a, b), p));
}

/** A curve's chance at x: between its points joined as curve.scale says, flat beyond its ends. */
export function readCurve(curve: ChanceCurve, x: number): { p: number; lo: number; hi: number } {
  const n = curve.x.length;
  if (x <= curve.x[0]) return { p: curve.p[0], lo: curve.lo[0], hi: curve.hi[0] };
  if (x >= curve.x[n - 1]) return { p: curve.p[n - 1], lo: curve.lo[n - 1], hi: curve.hi[n - 1] };
  let i = 1;
  while (curve.x[i] < x) i++;
  const t = (x - curve.x[i - 1]) / (curve.x[i] - curve.x[i - 1]);
  const at = (ys: readonly number[]): number => join(ys[i - 1], ys[i], t, curve.scale);
  return { p: at(curve.p), lo: at(curve.lo), hi: at(curve.hi) };
}

function chanceOf(curves: ChanceCurves, target: number, best: number, progress: number, value: number): Chance | null {
  const curve = curves.curves[curveKey(target, best)];
  if (!curve || curve.x.length === 0) return null;
  return { target, ...readCurve(curve, chanceFeature(progress, value, target)) };
}

/**
 * The chances from a board given the one-look-ahead values of its legal moves (networkMoveValues); null
 * when there is no legal move, no milestone above the largest tile or no curve for it.
 */
export function chanceFromValues(grid: Grid, values: MoveValues, curves: ChanceCurves = CHANCE_CURVES): ChanceEstimate | null {
  const best = maxTile(grid);
  const target = nextMilestone(best);
  if (target === null) return null;
  let top = -Infinity;
  for (const d of DIRECTIONS) top = Math.max(top, values[d] ?? -Infinity);
  if (!Number.isFinite(top)) return null;
  const progress = progressOf(grid);
  const next = chanceOf(curves, target, best, progress, top);
  if (!next) return null;
  const after = chanceOf(curves, target * 2, best, progress, top);
  const moves: Partial<Record<Direction, number>> = {};
  for (const d of DIRECTIONS) {
    const value = values[d];
    if (value !== undefined) moves[d] = chanceOf(curves, target, best, progress, value)?.p ?? next.p;
  }
  return { next, ...(after ? { after } : {}), moves };
}

/** The chances from a board with the installed network (null without one, off 4x4, or with no legal move). */
export function estimateChance(grid: Grid, curves: ChanceCurves = CHANCE_CURVES): ChanceEstimate | null {
  const roots = legalMoves(grid).map((move) => DIRECTIONS.indexOf(move));
  if (roots.length === 0) return null;
  const values = networkMoveValues(grid, roots);
  return values ? chanceFromValues(grid, values, curves) : null;
}
