/**
 * The per-move series the panel's live charts draw, accumulated from the statuses the panel receives
 * anyway (each carries the moves since the previous one): no extra message on the play path. Pure, so it is unit-tested.
 */
import { movePointOf } from '../../shared/messages';
import type { MovePoint, RunStatus } from '../../shared/messages';
import { tileMilestones } from '../../shared/history';

export interface LiveSeries {
  /** Move numbers (x). */
  readonly moves: number[];
  readonly score: (number | null)[];
  readonly thinkMs: (number | null)[];
  readonly depth: (number | null)[];
  readonly bestTile: number[];
  /** The chance meter's chance of the next milestone (0–1) and which milestone, where the status had it. */
  readonly chance: (number | null)[];
  readonly target: (number | null)[];
}

export function emptySeries(): LiveSeries {
  return { moves: [], score: [], thinkMs: [], depth: [], bestTile: [], chance: [], target: [] };
}

/** Most points kept per tab (a very long game keeps its last part). */
export const SERIES_CAP = 20_000;

/**
 * Add what `status` says: the moves it carries in `recent` (played since the previous stored status), then
 * its own last move. A status of the same move count changes nothing (the 'thinking' report before a
 * move); fewer moves than the last point means a new run or game: start over. Returns true when a point
 * was added or the series restarted.
 */
export function addStatus(series: LiveSeries, status: RunStatus): boolean {
  let changed = false;
  for (const point of status.recent ?? []) changed = addPoint(series, point) || changed;
  return addPoint(series, movePointOf(status) ?? { moves: status.moves }) || changed;
}

function addPoint(series: LiveSeries, point: MovePoint | { readonly moves: number }): boolean {
  const last = series.moves.at(-1);
  let restarted = false;
  if (last !== undefined && point.moves < last) {
    for (const list of Object.values(series) as unknown[][]) list.length = 0;
    restarted = true;
  } else if (last !== undefined && point.moves === last) {
    return false;
  }
  if (!('bestTile' in point)) return restarted;
  series.moves.push(point.moves);
  series.score.push(point.score);
  series.thinkMs.push(point.thinkMs ?? null);
  series.depth.push(point.depth > 0 ? point.depth : null);
  series.bestTile.push(point.bestTile);
  series.chance.push(point.chance ?? null);
  series.target.push(point.target ?? null);
  if (series.moves.length > SERIES_CAP) {
    for (const list of Object.values(series) as unknown[][]) list.splice(0, list.length - SERIES_CAP);
  }
  return true;
}

/** Where tiles from 512 up first appeared: [{tile, move number, score there}]. */
export function milestones(series: LiveSeries): { tile: number; move: number; score: number | null }[] {
  return tileMilestones(series.bestTile).map(({ tile, move }) => ({ tile, move: series.moves[move], score: series.score[move] }));
}
