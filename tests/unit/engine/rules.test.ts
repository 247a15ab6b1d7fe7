import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DIRECTIONS,
  applyMove,
  createRng,
  isGameOver,
  isSuccessor,
  legalMoves,
  maxTile,
  newGame,
  spawnRandomTile,
  validateGrid,
} from '../../../src/engine/index';
import type { Grid } from '../../../src/engine/index';
import { naiveGameOver, naiveMove, toMatrix } from './naive';

function arbGrid(rows: number, cols: number, maxRank: number): fc.Arbitrary<Grid> {
  const cell = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: maxRank }).map((r) => 2 ** r));
  return fc.array(cell, { minLength: rows * cols, maxLength: rows * cols }).map((cells) => ({ rows, cols, cells }));
}

describe.each([
  [4, 4, 11],
  [3, 3, 6],
  [5, 5, 12],
  [8, 8, 17],
  [3, 5, 8],
  [2, 4, 4],
])('rules on %ix%i boards', (rows, cols, maxRank) => {
  it('applyMove agrees with the naive oracle in every direction', () => {
    fc.assert(
      fc.property(arbGrid(rows, cols, maxRank), (grid) => {
        for (const dir of DIRECTIONS) {
          const got = applyMove(grid, dir);
          const want = naiveMove(toMatrix(rows, cols, [...grid.cells]), dir);
          expect(got.grid.cells).toEqual(want.board.flat());
          expect(got.score).toBe(want.score);
          expect(got.moved).toBe(want.moved);
        }
      }),
      { numRuns: rows * cols > 20 ? 600 : 1500 },
    );
  });

  it('legalMoves and isGameOver agree with the oracle', () => {
    fc.assert(
      fc.property(arbGrid(rows, cols, 3), (grid) => {
        const m = toMatrix(rows, cols, [...grid.cells]);
        expect(legalMoves(grid)).toEqual(DIRECTIONS.filter((d) => naiveMove(m, d).moved));
        expect(isGameOver(grid)).toBe(naiveGameOver(m));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('spawning and new games', () => {
  it('spawns 2 about 90% and 4 about 10% of the time, in uniformly chosen cells', () => {
    const rng = createRng(42);
    const grid: Grid = { rows: 3, cols: 3, cells: [2, 0, 0, 0, 4, 0, 0, 0, 8] };
    const perCell = new Array<number>(9).fill(0);
    let fours = 0;
    const n = 30000;
    for (let i = 0; i < n; i++) {
      const next = spawnRandomTile(grid, rng);
      const at = next.cells.findIndex((v, k) => v !== grid.cells[k]);
      perCell[at]++;
      if (next.cells[at] === 4) fours++;
    }
    expect(fours / n).toBeGreaterThan(0.09);
    expect(fours / n).toBeLessThan(0.11);
    for (const k of [1, 2, 3, 5, 6, 7]) {
      expect(perCell[k] / n).toBeGreaterThan(1 / 6 - 0.015);
      expect(perCell[k] / n).toBeLessThan(1 / 6 + 0.015);
    }
    expect(perCell[0] + perCell[4] + perCell[8]).toBe(0);
  });

  it('leaves a full grid unchanged', () => {
    const full: Grid = { rows: 2, cols: 2, cells: [2, 4, 8, 16] };
    expect(spawnRandomTile(full, createRng(1)).cells).toEqual(full.cells);
  });

  it('is deterministic for a seed, and seeds differ', () => {
    const a = createRng(7);
    const b = createRng(7);
    const c = createRng(8);
    const sa = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(sa);
    expect(newGame(createRng(5))).toEqual(newGame(createRng(5)));
    for (const v of sa) expect(v >= 0 && v < 1).toBe(true);
  });

  it('starts a game with two tiles of 2 or 4 on any size', () => {
    for (const [rows, cols] of [[4, 4], [3, 3], [5, 5], [8, 8], [3, 5]]) {
      const g = newGame(createRng(rows * 10 + cols), rows, cols);
      expect(g.cells.length).toBe(rows * cols);
      const tiles = g.cells.filter((v) => v !== 0);
      expect(tiles.length).toBe(2);
      for (const t of tiles) expect([2, 4]).toContain(t);
      expect(maxTile(g)).toBe(Math.max(...tiles));
    }
  });
});

describe('validateGrid', () => {
  const base = (): number[] => new Array<number>(16).fill(0);
  it('names the cell holding a bad value', () => {
    const cells = base();
    cells[11] = 3;
    expect(() => validateGrid({ rows: 4, cols: 4, cells })).toThrow(
      new RangeError('cell (row 2, col 3) holds 3: not 0 or a power of two from 2 to 131072'),
    );
  });
  it('accepts tiles up to 2^17 and rejects bad shapes', () => {
    const cells = base();
    cells[0] = 131072;
    expect(() => validateGrid({ rows: 4, cols: 4, cells })).not.toThrow();
    expect(() => validateGrid({ rows: 4, cols: 4, cells: cells.slice(1) })).toThrow(RangeError);
    expect(() => validateGrid({ rows: 9, cols: 4, cells: new Array<number>(36).fill(0) })).toThrow(RangeError);
    expect(() => validateGrid({ rows: 1.5, cols: 4, cells })).toThrow(RangeError);
  });
  it('rejects malformed values of every kind (fuzz): a RangeError, never a result', () => {
    const bad = fc.oneof(
      fc.constant(Number.NaN),
      fc.constant(Infinity),
      fc.integer({ min: -1_000_000, max: -1 }),
      fc.constant(1),
      fc.constant(3),
      fc.integer({ min: 18, max: 40 }).map((r) => 2 ** r),
      fc.double({ min: 0.01, max: 1e6, noInteger: true }),
      fc.integer({ min: 5, max: 1 << 20 }).filter((v) => (v & (v - 1)) !== 0),
    );
    fc.assert(
      fc.property(bad, fc.integer({ min: 0, max: 15 }), (value, at) => {
        const cells = base();
        cells[at] = value;
        const grid: Grid = { rows: 4, cols: 4, cells };
        expect(() => validateGrid(grid)).toThrow(RangeError);
        expect(() => applyMove(grid, 'left')).toThrow(RangeError);
        expect(() => legalMoves(grid)).toThrow(RangeError);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isSuccessor', () => {
  const before: Grid = { rows: 4, cols: 4, cells: [2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4] };
  const moved = applyMove(before, 'left').grid; // 4 at (0,0), 4 at (3,0)
  it('accepts the moved board plus exactly one new 2 or 4', () => {
    const after = { ...moved, cells: [...moved.cells] };
    after.cells[5] = 2;
    expect(isSuccessor(before, after, 'left')).toBe(true);
    after.cells[5] = 4;
    expect(isSuccessor(before, after, 'left')).toBe(true);
  });
  it('rejects no new tile, two new tiles, an 8, a changed tile, the wrong move, or no move', () => {
    expect(isSuccessor(before, moved, 'left')).toBe(false);
    const two = [...moved.cells];
    two[5] = 2;
    two[6] = 2;
    expect(isSuccessor(before, { ...moved, cells: two }, 'left')).toBe(false);
    const eight = [...moved.cells];
    eight[5] = 8;
    expect(isSuccessor(before, { ...moved, cells: eight }, 'left')).toBe(false);
    const changed = [...moved.cells];
    changed[0] = 8;
    changed[5] = 2;
    expect(isSuccessor(before, { ...moved, cells: changed }, 'left')).toBe(false);
    const ok = [...moved.cells];
    ok[5] = 2;
    expect(isSuccessor(before, { ...moved, cells: ok }, 'right')).toBe(false);
    const stuck: Grid = { rows: 2, cols: 2, cells: [2, 4, 8, 16] };
    expect(isSuccessor(stuck, stuck, 'up')).toBe(false);
  });
});
