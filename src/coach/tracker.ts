/**
 * Which board changes are the person's moves (pure: no DOM, no chrome.*).
 *
 * The coach keeps an anchor: the last board it accepted as settled. Each new reading of the page is
 * classified against it:
 *
 *   same        nothing happened (or the key did not move anything)
 *   moved       the reading is the anchor after exactly one legal move plus one new 2 or 4: the move is
 *               known and may be graded; the reading becomes the anchor
 *   in-flight   the reading is the anchor after a move but the new tile is not shown yet (a page that
 *               animates slowly): wait (if no tile comes within twice `quietMs`, it is a resync)
 *   unsettled   anything else (undo, a new game, a board changed behind the game's back, tiles caught
 *               mid-animation): wait until the page has shown the same board for `quietMs`, then
 *   resync      that board becomes the anchor WITHOUT a grade; the coach evaluates it silently
 *
 * A move is graded only from `moved`, so undo, a new game or a half-drawn board can never produce a grade.
 * Two different moves that explain the same reading (possible in rare positions) make it ambiguous: it is
 * treated as a resync, never graded. Undo can never look like a move: every move plus spawn raises the
 * sum of the tiles by 2 or 4, undo lowers it.
 */
import { applyMove, isSuccessor, sameGrid, tileSum } from '../engine/index';
import { DIRECTIONS } from '../engine/types';
import type { Direction, Grid } from '../engine/types';

export type Observation =
  | { readonly kind: 'same' }
  | { readonly kind: 'moved'; readonly from: Grid; readonly move: Direction; readonly to: Grid }
  | { readonly kind: 'in-flight'; readonly move: Direction; readonly waitMs: number }
  | { readonly kind: 'unsettled'; readonly waitMs: number }
  | { readonly kind: 'resync'; readonly from: Grid | null; readonly to: Grid };

/** A key for a board (for caches of evaluations). */
export function gridKey(grid: Grid): string {
  return `${grid.rows}x${grid.cols}:${grid.cells.join(',')}`;
}

/** The moves that turn `before` into `after` (one legal move plus one spawn). */
export function explainingMoves(before: Grid, after: Grid): Direction[] {
  if (before.rows !== after.rows || before.cols !== after.cols) return [];
  const out: Direction[] = [];
  for (const move of DIRECTIONS) {
    try {
      if (isSuccessor(before, after, move)) out.push(move);
    } catch {
      return []; // not a valid board
    }
  }
  return out;
}

/** The move after which `before` shows exactly `after` with no new tile yet, or null. */
function movedWithoutSpawn(before: Grid, after: Grid): Direction | null {
  if (before.rows !== after.rows || before.cols !== after.cols) return null;
  for (const move of DIRECTIONS) {
    const moved = applyMove(before, move);
    if (moved.moved && sameGrid(moved.grid, after)) return move;
  }
  return null;
}

export class MoveTracker {
  private anchorGrid: Grid | null = null;
  private candidate: { grid: Grid; since: number } | null = null;

  constructor(
    /** How long a board no move explains must stay on the page before it becomes the new anchor. */
    readonly quietMs = 250,
  ) {}

  get anchor(): Grid | null {
    return this.anchorGrid;
  }

  /** Start from `grid` (coach mode begins). */
  reset(grid: Grid | null): void {
    this.anchorGrid = grid;
    this.candidate = null;
  }

  observe(grid: Grid, now: number): Observation {
    const anchor = this.anchorGrid;
    if (anchor === null) {
      this.reset(grid);
      return { kind: 'resync', from: null, to: grid };
    }
    if (sameGrid(anchor, grid)) {
      this.candidate = null;
      return { kind: 'same' };
    }
    const moves = explainingMoves(anchor, grid);
    if (moves.length === 1) {
      this.reset(grid);
      return { kind: 'moved', from: anchor, move: moves[0], to: grid };
    }
    // A move whose new tile is not drawn yet: wait longer (twice quietMs) before giving up on it.
    const pending = moves.length === 0 ? movedWithoutSpawn(anchor, grid) : null;
    const patience = pending ? 2 * this.quietMs : this.quietMs;
    // No single move explains it: wait until the page has shown this board for that long.
    if (!this.candidate || !sameGrid(this.candidate.grid, grid)) this.candidate = { grid, since: now };
    const shown = now - this.candidate.since;
    if (shown < patience) return pending ? { kind: 'in-flight', move: pending, waitMs: patience - shown } : { kind: 'unsettled', waitMs: patience - shown };
    this.reset(grid);
    return { kind: 'resync', from: anchor, to: grid };
  }
}

/** A new game rather than an undo or an edit: the page now shows at most two tiles, all 2s and 4s. */
export function looksLikeNewGame(before: Grid | null, after: Grid): boolean {
  const tiles = after.cells.filter((v) => v > 0);
  if (tiles.length === 0 || tiles.length > 2 || tiles.some((v) => v > 4)) return false;
  return before === null || tileSum(before) > tileSum(after);
}
