/**
 * The per-move series the panel's live charts draw, accumulated from the statuses the panel receives
 * anyway (one per move): no extra message on the play path. Pure, so it is unit-tested.
 */
import type { RunStatus } from '../shared/messages';
import { tileMilestones } from '../shared/history';

export interface LiveSeries {
  /** Move numbers (x). */
  readonly moves: number[];
  readonly score: (number | null)[];
  readonly thinkMs: (number | null)[];
  readonly depth: (number | null)[];
  readonly bestTile: number[];
}

export function emptySeries(): LiveSeries {
  return { moves: [], score: [], thinkMs: [], depth: [], bestTile: [] };
}

/** Most points kept per tab (a very long game keeps its last part). */
export const SERIES_CAP = 20_000;

/**
 * Add what `status` says about the last move. A status of the same move count changes nothing (the
 * 'thinking' report before a move); fewer moves than the last point means a new run or game: start over.
 * Returns true when a point was added or the series restarted.
 */
export function addStatus(series: LiveSeries, status: RunStatus): boolean {
  const last = series.moves.at(-1);
  if (last !== undefined && status.moves < last) {
    for (const list of Object.values(series) as unknown[][]) list.length = 0;
  } else if (last !== undefined && status.moves === last) {
    return false;
  }
  if (status.moves === 0 || status.lastMove === null) return last !== undefined && series.moves.length === 0;
  series.moves.push(status.moves);
  series.score.push(status.score);
  series.thinkMs.push(status.thinkMs ?? null);
  series.depth.push(status.depth > 0 ? status.depth : null);
  series.bestTile.push(status.bestTile);
  if (series.moves.length > SERIES_CAP) {
    for (const list of Object.values(series) as unknown[][]) list.splice(0, list.length - SERIES_CAP);
  }
  return true;
}

/** Where tiles from 512 up first appeared: [{tile, move number, score there}]. */
export function milestones(series: LiveSeries): { tile: number; move: number; score: number | null }[] {
  return tileMilestones(series.bestTile).map(({ tile, move }) => ({ tile, move: series.moves[move], score: series.score[move] }));
}
