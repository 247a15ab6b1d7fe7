/**
 * Splitting one search finer than its root moves (src/engine/split.ts): tasks cover every spawn cell of
 * every legal root move exactly once; whole-root tasks on the WebAssembly core reproduce the reference
 * exactly; cut into cell chunks the values stay close (the parts do not share transpositions).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIRECTIONS,
  estimateRootCosts,
  installWasmCore,
  instantiateWasmCore,
  legalMoves,
  mergeCellTasks,
  planBalancedTasks,
  planCellTasks,
  runCellTask,
} from '../../../src/engine/index';
import type { Grid } from '../../../src/engine/index';
import { parsePositionsTsv } from '../../../src/cli/positions';
import { WASM_FILE } from '../../../scripts/build-wasm.mjs';

beforeAll(() => installWasmCore(instantiateWasmCore(readFileSync(WASM_FILE))));
afterAll(() => installWasmCore(null));

const file = fileURLToPath(new URL('../../fixtures/reference/expectimax-positions.tsv', import.meta.url));
const positions = parsePositionsTsv(readFileSync(file, 'utf8'));
const cost = (p: (typeof positions)[number]): number => Object.values(p.executions).reduce((a, b) => a + b, 0);
const cheap = [...positions].sort((a, b) => cost(a) - cost(b)).slice(0, 5);
const rootsOf = (grid: Grid): number[] => legalMoves(grid).map((d) => DIRECTIONS.indexOf(d));
const limitOf = (grid: Grid): number => Math.max(3, new Set(grid.cells.filter((v) => v !== 0)).size - 2);

describe('cell tasks', () => {
  it('cover each spawn cell of each legal root move exactly once, whatever the chunking', () => {
    const grid = cheap[0].board;
    const roots = rootsOf(grid);
    const whole = planCellTasks(grid, roots, 1);
    expect(whole.map((t) => t.dir)).toEqual(roots);
    for (const chunks of [2, 3, 16]) {
      const tasks = planCellTasks(grid, roots, chunks);
      for (const root of whole) {
        const parts = tasks.filter((t) => t.dir === root.dir);
        expect(parts.length).toBe(Math.min(chunks, root.open));
        expect(parts.reduce((mask, t) => mask | t.cells, 0)).toBe(root.cells);
        expect(parts.reduce((n, t) => n + popcount(t.cells), 0)).toBe(root.open);
      }
    }
  });

  it.each(cheap.map((p, i) => [i, p] as const))('whole-root tasks reproduce reference position %i exactly', (_i, p) => {
    const roots = rootsOf(p.board);
    const tasks = planCellTasks(p.board, roots, 1);
    const results = tasks.map((task) => runCellTask(p.board, task, limitOf(p.board)));
    const values = mergeCellTasks(
      tasks,
      results.map((r) => r.sum),
    );
    tasks.forEach((task, i) => expect(results[i].executions).toBe(p.executions[DIRECTIONS[task.dir]]));
    for (const d of DIRECTIONS) {
      if (p.values[d] === 0) expect(values[d]).toBeUndefined();
      else expect(Math.abs((values[d] as number) - p.values[d]) / p.values[d]).toBeLessThan(1e-6);
    }
  });

  it('cell chunks give close values and the same best move', () => {
    const p = cheap[4];
    const tasks = planCellTasks(p.board, rootsOf(p.board), 3);
    const values = mergeCellTasks(
      tasks,
      tasks.map((task) => runCellTask(p.board, task, limitOf(p.board)).sum),
    );
    for (const d of DIRECTIONS) {
      if (p.values[d] !== 0) expect(Math.abs((values[d] as number) - p.values[d]) / p.values[d]).toBeLessThan(1e-2);
    }
    const best = DIRECTIONS.filter((d) => values[d] !== undefined).sort((a, b) => (values[b] as number) - (values[a] as number))[0];
    expect(best).toBe(p.best);
  });

  it('a balanced plan cuts only a root move dearer than one thread share, dearest first', () => {
    const grid = cheap[1].board;
    const roots = rootsOf(grid);
    const costs = [0, 0, 0, 0];
    roots.forEach((dir, i) => (costs[dir] = i === 0 ? 100 : 10));
    const tasks = planBalancedTasks(grid, roots, 2, costs);
    const first = tasks.filter((t) => t.dir === roots[0]);
    expect(first.length).toBeGreaterThan(1);
    for (const dir of roots.slice(1)) expect(tasks.filter((t) => t.dir === dir)).toHaveLength(1);
    expect(tasks[0].dir).toBe(roots[0]);
    expect(planBalancedTasks(grid, roots, 1, costs)).toHaveLength(roots.length);
    const estimated = estimateRootCosts(grid, roots, 2);
    for (const dir of roots) expect(estimated[dir]).toBeGreaterThan(0);
  });

  it('rejects boards the 64-bit board cannot hold and mismatched sums', () => {
    expect(() => planCellTasks({ rows: 5, cols: 5, cells: new Array<number>(25).fill(0) }, [0], 1)).toThrow(/4x4/);
    expect(() => mergeCellTasks(planCellTasks(cheap[0].board, rootsOf(cheap[0].board), 1), [])).toThrow(/sums/);
  });
});

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}
