/**
 * forgetSearches: a search after it is the search a fresh thread makes. On the WebAssembly core the play
 * table is kept across searches, so the same position searched again at the same work (options.maxNodes:
 * deterministic, no clock) reads the first search's entries back and comes out deeper; after forgetSearches
 * it comes out exactly as the first did (bench/budget.ts relies on this between its configurations).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSearches, getStrategy, installWasmCore, instantiateWasmCore } from '../../../src/engine/index';
import type { Grid, MoveChoice } from '../../../src/engine/index';
import { WASM_FILE } from '../../../src/cli/wasm-files';

const expectimax = getStrategy('expectimax');
const grid: Grid = { rows: 4, cols: 4, cells: [2, 4, 8, 16, 0, 2, 32, 64, 0, 0, 4, 128, 0, 0, 2, 256] };
/** A fixed amount of work: the budget of move executions binds long before the clock (a minute). */
const FIXED_WORK = { timeMs: 60_000, maxNodes: 200_000 };

/** What a search came out with, its think time left out. */
function outcome(choice: MoveChoice): Pick<MoveChoice, 'move' | 'values' | 'depth' | 'nodes' | 'engine'> {
  const { move, values, depth, nodes, engine } = choice;
  return { move, values, depth, nodes, engine };
}

describe('forgetSearches on the WebAssembly core', () => {
  beforeAll(() => installWasmCore(instantiateWasmCore(readFileSync(WASM_FILE))));
  afterAll(() => installWasmCore(null));

  it('a search after it equals a fresh one; the same search with the table carried over comes out deeper', async () => {
    forgetSearches();
    const fresh = outcome(await expectimax.chooseMove(grid, FIXED_WORK));
    expect(fresh.engine).toBe('wasm');
    expect(fresh.depth).toBeGreaterThanOrEqual(2);

    const carried = outcome(await expectimax.chooseMove(grid, FIXED_WORK));
    expect(carried.depth).toBeGreaterThan(fresh.depth);
    expect(carried.values).not.toEqual(fresh.values);

    forgetSearches();
    expect(outcome(await expectimax.chooseMove(grid, FIXED_WORK))).toEqual(fresh);
  });
});

describe('the TypeScript search', () => {
  it('keeps nothing between searches: the same search again is the same, without forgetSearches', async () => {
    installWasmCore(null);
    const first = outcome(await expectimax.chooseMove(grid, FIXED_WORK));
    expect(first.engine).toBe('ts');
    expect(outcome(await expectimax.chooseMove(grid, FIXED_WORK))).toEqual(first);
  });
});
