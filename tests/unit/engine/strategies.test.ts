import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIRECTIONS, STRATEGIES, STRATEGY_NAMES, getStrategy, legalMoves } from '../../../src/engine/index';
import type { Grid, SearchOptions, StrategyName } from '../../../src/engine/index';
import { midGame } from '../../support/boards';

const quick: Record<StrategyName, SearchOptions> = {
  expectimax: { timeMs: 30 },
  montecarlo: { playouts: 20, seed: 1 },
  minimax: { timeMs: 30 },
  greedy: { timeMs: 30, seed: 1 },
  priority: {},
  network: {},
  random: { seed: 3 },
};

describe('registry', () => {
  it('holds every strategy by name', () => {
    expect(STRATEGIES.map((s) => s.name)).toEqual([...STRATEGY_NAMES]);
    for (const name of STRATEGY_NAMES) expect(getStrategy(name).name).toBe(name);
    expect(() => getStrategy('nope' as StrategyName)).toThrow(RangeError);
  });
});

describe.each(STRATEGY_NAMES.map((n) => [n]))('%s', (name) => {
  const strategy = getStrategy(name);

  it.each([
    [4, 4],
    [3, 3],
    [5, 5],
    [3, 5],
  ])('returns a legal move with values for legal moves only on %ix%i', async (rows, cols) => {
    for (let seed = 1; seed <= 3; seed++) {
      const grid = midGame(rows, cols, seed * 31 + rows, rows * cols * 2);
      const legal = legalMoves(grid);
      if (legal.length === 0) continue;
      const choice = await strategy.chooseMove(grid, quick[name]);
      expect(choice.strategy).toBe(name);
      expect(legal).toContain(choice.move);
      for (const d of DIRECTIONS) {
        if (!legal.includes(d)) expect(choice.values[d]).toBeUndefined();
      }
      expect(Object.keys(choice.values).length).toBe(legal.length);
    }
  });

  it('returns null on a finished game and rejects a malformed grid', async () => {
    const over: Grid = { rows: 3, cols: 3, cells: [2, 4, 2, 4, 2, 4, 2, 4, 2] };
    const choice = await strategy.chooseMove(over, quick[name]);
    expect(choice.move).toBeNull();
    expect(choice.values).toEqual({});
    await expect(strategy.chooseMove({ rows: 4, cols: 4, cells: [3, ...new Array<number>(15).fill(0)] })).rejects.toThrow(RangeError);
  });

  it('honours rootMoves', async () => {
    const grid = midGame(4, 4, 99, 30);
    const legal = legalMoves(grid);
    const only = legal.slice(0, 1);
    const choice = await strategy.chooseMove(grid, { ...quick[name], rootMoves: only });
    expect(Object.keys(choice.values)).toEqual(only);
    expect(choice.move).toBe(only[0]);
  });

  it('rejects with an AbortError when aborted, before or during the search', async () => {
    const grid = midGame(4, 4, 5, 40);
    const before = new AbortController();
    before.abort();
    await expect(strategy.chooseMove(grid, quick[name], before.signal)).rejects.toMatchObject({ name: 'AbortError' });
    if (name === 'priority' || name === 'random' || name === 'network') return; // answer at once: nothing to interrupt
    const during = new AbortController();
    const options: SearchOptions = name === 'montecarlo' ? { playouts: 100_000 } : { timeMs: 60_000 };
    const started = performance.now();
    const pending = strategy.chooseMove(grid, options, during.signal);
    setTimeout(() => during.abort(), 30);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('budgets', () => {
  it.each(['expectimax', 'minimax', 'greedy', 'montecarlo'] as const)('%s stays within its time budget (generous margin)', async (name) => {
    const grid = midGame(4, 4, 11, 60);
    const options: SearchOptions = name === 'montecarlo' ? { playouts: 100_000, timeMs: 100 } : { timeMs: 100 };
    const started = performance.now();
    const choice = await getStrategy(name).chooseMove(grid, options);
    const elapsed = performance.now() - started;
    expect(choice.move).not.toBeNull();
    expect(elapsed).toBeLessThan(600);
  });

  it('expectimax iterative deepening reports completed depths and the values at each', async () => {
    const grid = midGame(4, 4, 12, 80);
    const choice = await getStrategy('expectimax').chooseMove(grid, { timeMs: 50 });
    expect(choice.depth).toBeGreaterThanOrEqual(1);
    expect(choice.valuesByDepth?.length).toBe(choice.depth + 1);
    expect(choice.valuesByDepth?.[choice.depth]).toEqual(choice.values);
  });

  it('expectimax with a fixed depth reports it', async () => {
    const grid = midGame(5, 5, 13, 40);
    const choice = await getStrategy('expectimax').chooseMove(grid, { depth: 2 });
    expect(choice.depth).toBe(2);
    expect(choice.nodes).toBeGreaterThan(0);
  });

  it('montecarlo reports the playouts per move as samples, deterministically for a seed', async () => {
    const grid = midGame(4, 4, 14, 30);
    const a = await getStrategy('montecarlo').chooseMove(grid, { playouts: 40, seed: 9 });
    const b = await getStrategy('montecarlo').chooseMove(grid, { playouts: 40, seed: 9 });
    expect(a.samples).toBe(40);
    expect(a.values).toEqual(b.values);
  });

  it('random is seeded and uniform over legal moves', async () => {
    const grid: Grid = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
    const counts: Record<string, number> = {};
    for (let seed = 0; seed < 400; seed++) {
      const c = await getStrategy('random').chooseMove(grid, { seed });
      counts[c.move ?? 'none'] = (counts[c.move ?? 'none'] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['down', 'right']);
    expect(counts.down).toBeGreaterThan(150);
    const again = await getStrategy('random').chooseMove(grid, { seed: 5 });
    expect((await getStrategy('random').chooseMove(grid, { seed: 5 })).move).toBe(again.move);
  });

  it('priority plays down, right, up, left in that order of preference', async () => {
    const onlyUpLeft: Grid = { rows: 2, cols: 2, cells: [0, 0, 0, 2] };
    expect((await getStrategy('priority').chooseMove(onlyUpLeft)).move).toBe('up');
    const any: Grid = { rows: 3, cols: 3, cells: [0, 0, 0, 0, 2, 0, 0, 0, 0] };
    expect((await getStrategy('priority').chooseMove(any)).move).toBe('down');
  });

  it('expectimax works on 8x8 and on tiles above 32768', async () => {
    const big = midGame(8, 8, 3, 50);
    expect(legalMoves(big)).toContain((await getStrategy('expectimax').chooseMove(big, { timeMs: 50 })).move);
    const huge: Grid = { rows: 4, cols: 4, cells: [65536, 32768, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
    expect(legalMoves(huge)).toContain((await getStrategy('expectimax').chooseMove(huge, { timeMs: 30 })).move);
  });
});

describe('malformed grids (fuzz)', () => {
  const badGrid = fc.oneof(
    // a bad value in one cell
    fc
      .tuple(
        fc.oneof(
          fc.constant(Number.NaN),
          fc.integer({ min: -100000, max: -1 }),
          fc.constant(3),
          fc.constant(1),
          fc.constant(2 ** 20),
          fc.constant(Number.MAX_SAFE_INTEGER),
          fc.double({ min: 0.1, max: 100, noInteger: true }),
        ),
        fc.integer({ min: 0, max: 15 }),
      )
      .map(([value, at]) => {
        const cells = new Array<number>(16).fill(0);
        cells[at] = value;
        cells[(at + 1) % 16] = 2;
        return { rows: 4, cols: 4, cells };
      }),
    // wrong length or shape
    fc.integer({ min: 0, max: 40 }).filter((n) => n !== 16).map((n) => ({ rows: 4, cols: 4, cells: new Array<number>(n).fill(2) })),
    fc.constantFrom(0, 1, 9, -4, 2.5).map((rows) => ({ rows, cols: 4, cells: new Array<number>(16).fill(0) })),
  );

  it.each(STRATEGY_NAMES.map((n) => [n]))('%s rejects with a RangeError, never a move', async (name) => {
    await fc.assert(
      fc.asyncProperty(badGrid, async (grid: Grid) => {
        await expect(getStrategy(name).chooseMove(grid, quick[name])).rejects.toThrow(RangeError);
      }),
      { numRuns: 100 },
    );
  });
});
