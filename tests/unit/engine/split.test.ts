/**
 * Sharing one search between threads (src/engine/split.ts) on the shared-memory core (engine-shared.wasm),
 * here in one thread: the plan covers each legal root move once and spreads the dear ones; one thread
 * reproduces the reference exactly; a thread with nothing left to take helps the one still searching and
 * stops when told; the merge refuses a search with children left. The CLI test runs two real threads.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIRECTIONS,
  createSplitBuffer,
  estimateRootCosts,
  installWasmCore,
  instantiateSharedWasmCore,
  instantiateWasmCore,
  legalMoves,
  mergeSplit,
  planSplit,
  resetSplit,
  workSplit,
} from '../../../src/engine/index';
import type { Grid, SharedTable, SplitPlan, WasmCore } from '../../../src/engine/index';
import { parsePositionsTsv } from '../../../src/cli/positions';
import { createSharedMemory } from '../../../src/engine/index';
import { SHARED_WASM_FILE, WASM_FILE } from '../../../src/cli/wasm-files';

const BITS = 16;
let core: WasmCore;
let stop: (() => boolean) | null = null;
let generation = 1;

beforeAll(() => {
  installWasmCore(instantiateWasmCore(readFileSync(WASM_FILE)));
  core = instantiateSharedWasmCore(readFileSync(SHARED_WASM_FILE), createSharedMemory(BITS), () => (stop?.() ? Infinity : performance.now()));
  core.ttShare(BITS, false);
});
afterAll(() => installWasmCore(null));

/** A table for one search: its own generations (one per root move), as the pool hands them out. */
function table(plan: SplitPlan, stopWhen: SharedTable['stopWhen'] = (next) => (stop = next)): SharedTable {
  const shared = { core, generation, stopWhen };
  generation += plan.dirs.length;
  return shared;
}

const file = fileURLToPath(new URL('../../fixtures/reference/expectimax-positions.tsv', import.meta.url));
const positions = parsePositionsTsv(readFileSync(file, 'utf8'));
const cost = (p: (typeof positions)[number]): number => Object.values(p.executions).reduce((a, b) => a + b, 0);
const cheap = [...positions].sort((a, b) => cost(a) - cost(b)).slice(0, 5);
const rootsOf = (grid: Grid): number[] => legalMoves(grid).map((d) => DIRECTIONS.indexOf(d));
const limitOf = (grid: Grid): number => Math.max(3, new Set(grid.cells.filter((v) => v !== 0)).size - 2);

describe('the shared memory', () => {
  it('holds the core and its shared table as createSharedMemory sizes it: ttShare grows nothing', () => {
    // At 2^20 entries the table dominates: a region count or a data size out of step with the core's would
    // make ttShare grow the memory (which threads racing to share it must not do).
    const bits = 20;
    const memory = createSharedMemory(bits);
    const before = memory.buffer.byteLength;
    instantiateSharedWasmCore(readFileSync(SHARED_WASM_FILE), memory).ttShare(bits, false);
    expect(memory.buffer.byteLength).toBe(before);
  });
});

describe('split plan', () => {
  it('lists each legal root move once with its empty cells, dearest first, spread over the threads', () => {
    const grid = cheap[1].board;
    const roots = rootsOf(grid);
    expect(roots.length).toBeGreaterThanOrEqual(3);
    const given = planSplit(grid, [0, 1, 2, 3], 2);
    expect(given.dirs).toEqual(roots);
    for (const [index, dir] of given.dirs.entries()) {
      const after = legalMoves(grid).includes(DIRECTIONS[dir]);
      expect(after).toBe(true);
      expect(given.open[index]).toBeGreaterThan(0);
    }
    // Without costs: the given order, owners in turn.
    expect(given.owner).toEqual(roots.map((_, i) => i % 2));

    const costs = [0, 0, 0, 0];
    roots.forEach((dir, i) => (costs[dir] = i === roots.length - 1 ? 100 : 10));
    const plan = planSplit(grid, roots, 2, costs);
    expect(plan.dirs[0]).toBe(roots[roots.length - 1]);
    // The dear move alone on thread 0; every cheap one on thread 1 (10 + 10 + ... < 100).
    expect(plan.owner).toEqual([0, ...roots.slice(1).map(() => 1)]);
    const estimated = estimateRootCosts(grid, roots, 2);
    for (const dir of roots) expect(estimated[dir]).toBeGreaterThan(0);
  });

  it('rejects boards the 64-bit board cannot hold and more threads than the buffer has room for', () => {
    expect(() => planSplit({ rows: 5, cols: 5, cells: new Array<number>(25).fill(0) }, [0], 1)).toThrow(/4x4/);
    const grid = cheap[0].board;
    const plan = planSplit(grid, rootsOf(grid), 1);
    const buffer = createSplitBuffer();
    resetSplit(buffer, plan);
    expect(() => workSplit(grid, plan, buffer, 16, limitOf(grid), table(plan))).toThrow(/at most 16/);
  });
});

describe('one thread', () => {
  it.each(cheap.map((p, i) => [i, p] as const))('reproduces reference position %i exactly (values and move executions)', (_i, p) => {
    const plan = planSplit(p.board, rootsOf(p.board), 1);
    const buffer = createSplitBuffer();
    resetSplit(buffer, plan);
    const executions = workSplit(p.board, plan, buffer, 0, limitOf(p.board), table(plan));
    const values = mergeSplit(plan, buffer);
    for (const d of DIRECTIONS) {
      const dir = DIRECTIONS.indexOf(d);
      if (p.values[d] === 0) {
        expect(values[d]).toBeUndefined();
        expect(executions[dir]).toBe(0);
      } else {
        expect(Math.abs((values[d] as number) - p.values[d]) / p.values[d]).toBeLessThan(1e-6);
        expect(executions[dir]).toBe(p.executions[d]);
      }
    }
  });

  it('takes the children of moves it does not own too, and a second search on the same table gives the same values', () => {
    const p = cheap[2];
    const grid = p.board;
    // Thread 1 owns nothing here: it takes every child from the back (last cell first).
    const plan = { ...planSplit(grid, rootsOf(grid), 1), owner: rootsOf(grid).map(() => 0) };
    const buffer = createSplitBuffer();
    resetSplit(buffer, plan);
    workSplit(grid, plan, buffer, 1, limitOf(grid), table(plan));
    const fromBack = mergeSplit(plan, buffer);
    for (const d of DIRECTIONS) {
      if (p.values[d] !== 0) expect(Math.abs((fromBack[d] as number) - p.values[d]) / p.values[d]).toBeLessThan(1e-2);
    }
    resetSplit(buffer, plan);
    workSplit(grid, plan, buffer, 1, limitOf(grid), table(plan));
    expect(mergeSplit(plan, buffer)).toEqual(fromBack);
  });

  it('with nothing left to take, helps a thread still searching a child until that thread is done', () => {
    const p = cheap[3];
    const grid = p.board;
    const plan = planSplit(grid, rootsOf(grid), 2);
    const buffer = createSplitBuffer();
    resetSplit(buffer, plan);
    // Thread 0 is "searching" the first child of the first move (marked as the pool's threads mark it); the
    // rest of the children are taken. Thread 1 has nothing to take, so it helps, until thread 0 is done:
    // here, after the helper's clock has been read a few times.
    const claims = new Int32Array(buffer, 0, 4);
    plan.open.forEach((open, index) => (claims[index] = ((2 * open) << 16) | (2 * open)));
    const working = new Int32Array(buffer, 16, 16);
    working[0] = 1;
    let polls = 0;
    let stopsAsked = 0;
    const helping = table(plan, (next) => {
      if (next) stopsAsked++;
      stop = next
        ? () => {
            if (++polls === 5) Atomics.store(working, 0, 0);
            return next();
          }
        : null;
    });
    const executions = workSplit(grid, plan, buffer, 1, limitOf(grid) + 2, helping);
    expect(stopsAsked).toBe(1);
    expect(polls).toBeGreaterThanOrEqual(5);
    expect(executions[plan.dirs[0]]).toBeGreaterThan(0);
    // The helper drops its own value: the child's value is the one its thread writes.
    expect(new Float32Array(buffer, 80, 128)[0]).toBe(0);
    expect(stop).toBeNull();
  });

  it('stops a search without a deadline once its clock reads Infinity (a cancel sets the stop flag)', () => {
    const grid = cheap[0].board;
    const plan = planSplit(grid, rootsOf(grid), 1);
    const buffer = createSplitBuffer();
    resetSplit(buffer, plan);
    // Deep enough to run for tens of seconds; stopped at the core's third look at its clock.
    let polls = 0;
    stop = () => ++polls >= 3;
    try {
      const executions = workSplit(grid, plan, buffer, 0, 12, table(plan));
      expect(polls).toBe(3);
      expect(executions.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(() => mergeSplit(plan, buffer)).toThrow(/not all searched/);
    } finally {
      stop = null;
    }
  });

  it('refuses to merge a search whose children are not all searched', () => {
    const grid = cheap[0].board;
    const plan = planSplit(grid, rootsOf(grid), 1);
    const buffer = createSplitBuffer();
    resetSplit(buffer, plan);
    expect(() => mergeSplit(plan, buffer)).toThrow(/not all searched/);
  });
});
