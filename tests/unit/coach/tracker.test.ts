import { describe, expect, it } from 'vitest';
import { applyMove } from '../../../src/engine/index';
import type { Direction, Grid } from '../../../src/engine/types';
import { MoveTracker, explainingMoves, looksLikeNewGame } from '../../../src/coach/tracker';

function grid(cells: number[]): Grid {
  return { rows: 4, cols: 4, cells };
}

/** `before` moved in `move`, with a `tile` spawned in empty cell number `nth` (0-based among the empties). */
function successor(before: Grid, move: Direction, tile = 2, nth = 0): Grid {
  const moved = applyMove(before, move).grid;
  const cells = [...moved.cells];
  let seen = 0;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] !== 0) continue;
    if (seen++ === nth) {
      cells[i] = tile;
      return { ...moved, cells };
    }
  }
  throw new Error('no empty cell');
}

const start = grid([0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 4]);

describe('MoveTracker: which changes are moves', () => {
  it('the first reading is a silent resync (evaluate, no grade)', () => {
    const tracker = new MoveTracker(250);
    expect(tracker.observe(start, 0)).toEqual({ kind: 'resync', from: null, to: start });
    expect(tracker.observe(start, 10)).toEqual({ kind: 'same' });
  });

  it('one legal move plus one spawn is a move, and becomes the anchor', () => {
    const tracker = new MoveTracker(250);
    tracker.reset(start);
    const next = successor(start, 'left', 4, 3);
    expect(tracker.observe(next, 5)).toEqual({ kind: 'moved', from: start, move: 'left', to: next });
    expect(tracker.anchor).toEqual(next);
    const after = successor(next, 'right', 2, 4);
    expect(tracker.observe(after, 10)).toMatchObject({ kind: 'moved', move: 'right' });
  });

  it('undo (the previous board again) is never a move: resync only after the page was quiet', () => {
    const tracker = new MoveTracker(250);
    tracker.reset(start);
    const next = successor(start, 'right');
    expect(tracker.observe(next, 0).kind).toBe('moved');
    expect(tracker.observe(start, 100)).toEqual({ kind: 'unsettled', waitMs: 250 });
    expect(tracker.observe(start, 350)).toEqual({ kind: 'resync', from: next, to: start });
    expect(tracker.anchor).toEqual(start);
  });

  it('a new game is a resync, and is recognised as a new game', () => {
    const tracker = new MoveTracker(100);
    const played = grid([2, 4, 8, 16, 0, 2, 4, 8, 0, 0, 2, 4, 0, 0, 0, 2]);
    tracker.reset(played);
    const fresh = grid([0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]);
    expect(tracker.observe(fresh, 0).kind).toBe('unsettled');
    expect(tracker.observe(fresh, 100)).toEqual({ kind: 'resync', from: played, to: fresh });
    expect(looksLikeNewGame(played, fresh)).toBe(true);
    expect(looksLikeNewGame(fresh, successor(fresh, 'up'))).toBe(false);
  });

  it('a board changed behind the game\'s back (a tile edited) is never graded', () => {
    const tracker = new MoveTracker(50);
    tracker.reset(start);
    const edited = grid([...start.cells.slice(0, 15), 8]);
    const seen = [tracker.observe(edited, 0), tracker.observe(edited, 20), tracker.observe(edited, 60)];
    expect(seen.map((o) => o.kind)).toEqual(['unsettled', 'unsettled', 'resync']);
  });

  it('a slowly animating page: mid-animation readings wait, then the settled board is graded', () => {
    const tracker = new MoveTracker(250);
    const before = grid([2, 2, 0, 0, 4, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
    tracker.reset(before);
    // Tiles half way: a reading no move explains.
    const halfway = grid([2, 0, 2, 0, 4, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(tracker.observe(halfway, 16).kind).toBe('unsettled');
    // Moved, the new tile not drawn yet.
    const moved = applyMove(before, 'left').grid;
    expect(tracker.observe(moved, 100)).toMatchObject({ kind: 'in-flight', move: 'left' });
    // The new tile appears: graded against the board before the move, not a half-drawn one.
    const settled = successor(before, 'left', 2, 5);
    expect(tracker.observe(settled, 200)).toEqual({ kind: 'moved', from: before, move: 'left', to: settled });
  });

  it('a move whose new tile never comes is a resync after twice the quiet time', () => {
    const tracker = new MoveTracker(100);
    tracker.reset(start);
    const moved = applyMove(start, 'down').grid;
    expect(tracker.observe(moved, 0).kind).toBe('in-flight');
    expect(tracker.observe(moved, 150).kind).toBe('in-flight');
    expect(tracker.observe(moved, 200)).toMatchObject({ kind: 'resync', to: moved });
  });

  it('two moves at once (the person was faster than the page was read) is a resync, not a grade', () => {
    const tracker = new MoveTracker(0);
    tracker.reset(start);
    const twice = successor(successor(start, 'left'), 'down');
    const first = tracker.observe(twice, 0);
    expect(first.kind === 'resync' || first.kind === 'unsettled').toBe(true);
    expect(tracker.observe(twice, 1).kind).not.toBe('moved');
  });

  it('a change of board size is a resync', () => {
    const tracker = new MoveTracker(0);
    tracker.reset(start);
    const small: Grid = { rows: 3, cols: 3, cells: [0, 2, 0, 0, 0, 0, 2, 0, 0] };
    expect(tracker.observe(small, 0).kind).toBe('resync');
  });
});

describe('explainingMoves', () => {
  it('names every move that explains a board, and none for an unrelated one', () => {
    const next = successor(start, 'up');
    expect(explainingMoves(start, next)).toEqual(['up']);
    expect(explainingMoves(next, start)).toEqual([]);
  });

  it('a board two moves could produce is ambiguous: the tracker resyncs instead of grading', () => {
    // Left and right both give a row "2 . . ." / ". . . 2" — find a reading both explain.
    const before = grid([0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const after = grid([2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(explainingMoves(before, after).sort()).toEqual(['left', 'right']);
    const tracker = new MoveTracker(0);
    tracker.reset(before);
    expect(tracker.observe(after, 0).kind).toBe('resync');
  });
});
