/**
 * Abandoning a search: the WebAssembly core's execution budget (deterministic) and the strategies'
 * options.maxNodes on both search cores. An abandoned iteration never leaks a half-searched value: the
 * answer is the last completed iteration's.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OUT, fromGrid } from '../../../src/engine/board';
import { getStrategy, installWasmCore, instantiateWasmCore } from '../../../src/engine/index';
import type { Grid, WasmCore } from '../../../src/engine/index';
import { WASM_FILE } from '../../../src/cli/wasm-files';

let core: WasmCore;
beforeAll(() => {
  core = instantiateWasmCore(readFileSync(WASM_FILE));
});
afterEach(() => {
  core.setExecutionLimit(Infinity);
  installWasmCore(null);
});

// A mid-game board: a depth-5 search of a root move costs about a million move executions.
const grid: Grid = { rows: 4, cols: 4, cells: [2, 4, 8, 16, 0, 2, 4, 8, 0, 0, 2, 4, 0, 0, 0, 2] };
const DIRS = ['up', 'down', 'left', 'right'] as const;

function halves(g: Grid): [number, number] {
  fromGrid(g);
  return [OUT[0] >>> 0, OUT[1] >>> 0];
}

describe('WebAssembly core: execution budget', () => {
  it('abandons a root search past its budget (NaN) and completes it exactly within it', () => {
    const [lo, hi] = halves(grid);
    core.ttConfigure(16, true);
    const full = core.searchRoot(lo, hi, 2, 5, Infinity, true, 0);
    const executions = core.lastExecutions();
    expect(full).toBeGreaterThan(0);
    expect(executions).toBeGreaterThan(100_000);

    core.setExecutionLimit(executions / 2);
    expect(core.searchRoot(lo, hi, 2, 5, Infinity, true, 0)).toBeNaN();
    // Stopped at the first chance node past the budget: a few hundred executions more at most.
    expect(core.lastExecutions()).toBeGreaterThan(executions / 2);
    expect(core.lastExecutions()).toBeLessThan(executions / 2 + 1_000);

    core.setExecutionLimit(executions);
    expect(core.searchRoot(lo, hi, 2, 5, Infinity, true, 0)).toBe(full);
    expect(core.lastExecutions()).toBe(executions);

    core.setExecutionLimit(Infinity);
    expect(core.searchRoot(lo, hi, 2, 5, Infinity, true, 0)).toBe(full);
  });

  it('abandons a search whose deadline has passed', () => {
    const [lo, hi] = halves(grid);
    core.ttConfigure(16, true);
    expect(core.searchRoot(lo, hi, 2, 5, 0, true, 0)).toBeNaN();
    expect(core.lastExecutions()).toBeLessThan(10_000);
  });

  it('abandons the search of one root child past its budget too', () => {
    const [lo, hi] = halves(grid);
    core.ttConfigure(16, true);
    const value = core.searchChild(lo, hi, 2, 5, 0, Infinity, true, 0);
    const executions = core.lastExecutions();
    expect(value).toBeGreaterThan(0);
    core.setExecutionLimit(executions - 1);
    expect(core.searchChild(lo, hi, 2, 5, 0, Infinity, true, 0)).toBeNaN();
    core.setExecutionLimit(Infinity);
    expect(core.searchChild(lo, hi, 2, 5, 0, Infinity, true, 0)).toBe(value);
  });
});

describe.each(['wasm', 'ts'] as const)('expectimax under options.maxNodes (%s core)', (engine) => {
  const expectimax = getStrategy('expectimax');
  const use = (): void => {
    installWasmCore(engine === 'wasm' ? core : null);
    // A fresh table generation: runs start alike whatever the earlier tests left in the kept table.
    if (engine === 'wasm') {
      core.ttConfigure(21, false);
      core.ttNewGeneration();
    }
  };

  it('a tiny budget returns the completed depth-1 answer, never a half-searched value', async () => {
    use();
    const tiny = await expectimax.chooseMove(grid, { timeMs: 60_000, maxNodes: 1 });
    expect(tiny.engine).toBe(engine);
    expect(tiny.depth).toBe(1);
    const depth1 = await expectimax.chooseMove(grid, { depth: 1 });
    expect(tiny.values).toEqual(depth1.values);
    expect(tiny.move).toBe(depth1.move);
    expect(tiny.valuesByDepth?.[1]).toEqual(depth1.values);
  });

  it('a larger budget stops deepening within it, at the same answer every time', async () => {
    use();
    const unbounded = await expectimax.chooseMove(grid, { timeMs: 60_000, maxNodes: 20_000_000 });
    const budget = Math.floor(unbounded.nodes / 20);
    use();
    const first = await expectimax.chooseMove(grid, { timeMs: 60_000, maxNodes: budget });
    use();
    const second = await expectimax.chooseMove(grid, { timeMs: 60_000, maxNodes: budget });
    expect(first.depth).toBeGreaterThanOrEqual(1);
    expect(first.depth).toBeLessThan(unbounded.depth);
    // The abandoned root search overshoots by at most one chance node's children.
    expect(first.nodes).toBeLessThanOrEqual(budget + 1_000);
    expect(second.values).toEqual(first.values);
    expect(second.depth).toBe(first.depth);
    expect(first.move).not.toBeNull();
    // Every value is a completed search's: the last completed iteration's, or (WebAssembly core) a root
    // move of the next iteration that completed, compared with the others it completed.
    const completed = first.valuesByDepth?.[first.depth] ?? {};
    for (const d of DIRS) {
      if (first.values[d] === undefined) continue;
      expect(completed[d]).toBeDefined();
    }
  });
});
