/**
 * Splitting one expectimax search finer than its root moves (pure): a task is a root move and some of the
 * empty cells where the tile spawns after it (the root chance node's children). Tasks run anywhere (a
 * worker thread, a Web Worker), each returns the unnormalised sum over its cells; `mergeCellTasks` adds the
 * sums of each root move in cell order and divides by its number of empty cells, as the whole search would.
 * Shared by the CLI's thread pool and (through the same functions) any pool that splits a search.
 */
import type { Grid } from './types';
import { DIRECTIONS } from './types';
import type { Direction, MoveValues } from './types';
import { OUT, executeMove, fitsBitboard, fromGrid } from './board';
import { wasmCore } from './wasm/core';

export interface CellTask {
  /** Root move: 0 up, 1 down, 2 left, 3 right. */
  readonly dir: number;
  /** Bit mask of the spawn cells (bit i = cell i, row-major) this task searches. */
  readonly cells: number;
  /** Empty cells after the root move (the divisor of the root chance node). */
  readonly open: number;
}

/**
 * Tasks for `grid` (4x4, tiles up to 32768): every legal root move in `roots`, its spawn cells cut into
 * chunks so that there are about `tasksPerRoot` tasks per root move (at least one cell each). Ordered root
 * by root, cells ascending, so a work queue hands out the costly early ones first.
 */
export function planCellTasks(grid: Grid, roots: readonly number[], tasksPerRoot: number): CellTask[] {
  if (!fitsBitboard(grid)) throw new RangeError('planCellTasks: needs a 4x4 board with tiles up to 32768');
  fromGrid(grid);
  const lo = OUT[0];
  const hi = OUT[1];
  const tasks: CellTask[] = [];
  for (const dir of roots) {
    executeMove(lo, hi, dir);
    const nlo = OUT[0];
    const nhi = OUT[1];
    if (nlo === lo && nhi === hi) continue;
    const cells: number[] = [];
    for (let i = 0; i < 16; i++) {
      const rank = i < 8 ? (nlo >>> (4 * i)) & 0xf : (nhi >>> (4 * (i - 8))) & 0xf;
      if (rank === 0) cells.push(i);
    }
    const chunks = Math.max(1, Math.min(cells.length, Math.floor(tasksPerRoot)));
    for (let c = 0; c < chunks; c++) {
      let mask = 0;
      // Interleaved (cell k goes to chunk k mod chunks): neighbouring cells cost alike, so chunks balance.
      for (let k = c; k < cells.length; k += chunks) mask |= 1 << cells[k];
      tasks.push({ dir, cells: mask, open: cells.length });
    }
  }
  return tasks;
}

/**
 * The root moves' values from the tasks' sums (`sums[i]` answers `tasks[i]`): per root move, the float32
 * sum of its parts divided by its empty cells, plus the reference's 1e-6.
 */
export function mergeCellTasks(tasks: readonly CellTask[], sums: readonly number[]): MoveValues {
  if (sums.length !== tasks.length) throw new RangeError(`mergeCellTasks: ${sums.length} sums for ${tasks.length} tasks`);
  const total = new Map<number, { sum: number; open: number }>();
  tasks.forEach((task, i) => {
    const entry = total.get(task.dir) ?? { sum: 0, open: task.open };
    entry.sum = Math.fround(entry.sum + sums[i]);
    total.set(task.dir, entry);
  });
  const values: MoveValues = {};
  for (const [dir, { sum, open }] of total) {
    const key: Direction = DIRECTIONS[dir];
    values[key] = Math.fround(Math.fround(sum / open) + 1e-6);
  }
  return values;
}

/**
 * Run one task on the installed WebAssembly core to `limit` layers with a fresh transposition table (the
 * reference's per-root-move table, here per task): its sum and move executions. Throws without a core.
 */
export function runCellTask(grid: Grid, task: CellTask, limit: number): { sum: number; executions: number } {
  const core = wasmCore();
  if (!core) throw new Error('runCellTask: needs the WebAssembly core (installWasmCore)');
  fromGrid(grid);
  core.ttConfigure(16, true);
  const sum = core.searchCells(OUT[0] >>> 0, OUT[1] >>> 0, task.dir, limit, task.cells, Infinity, true, 0);
  return { sum, executions: core.lastExecutions() };
}

/**
 * Tasks balanced over `threads` from estimated costs per root move (`costs[dir]`, e.g. the executions of a
 * shallower search, see estimateRootCosts): whole root moves where they fit a thread's share, and a root
 * move costing more than a share cut into cell chunks of about one share each (a split loses the
 * transpositions between its parts, so it is cut no finer than needed). Dearest first, for a work queue.
 */
export function planBalancedTasks(grid: Grid, roots: readonly number[], threads: number, costs: readonly number[]): CellTask[] {
  const legal = roots.filter((dir) => planCellTasks(grid, [dir], 1).length > 0);
  const total = legal.reduce((sum, dir) => sum + Math.max(0, costs[dir] ?? 0), 0);
  const share = total / Math.max(1, threads);
  const planned: { task: CellTask; cost: number }[] = [];
  for (const dir of legal) {
    const cost = Math.max(0, costs[dir] ?? 0);
    const chunks = threads > 1 && share > 0 ? Math.max(1, Math.round(cost / share)) : 1;
    const tasks = planCellTasks(grid, [dir], chunks);
    for (const task of tasks) planned.push({ task, cost: cost / tasks.length });
  }
  planned.sort((a, b) => b.cost - a.cost);
  return planned.map((p) => p.task);
}

/** Each legal root move's move executions at `depth` layers (a cheap cost estimate for planBalancedTasks). */
export function estimateRootCosts(grid: Grid, roots: readonly number[], depth: number): number[] {
  const core = wasmCore();
  if (!core) throw new Error('estimateRootCosts: needs the WebAssembly core (installWasmCore)');
  fromGrid(grid);
  const lo = OUT[0] >>> 0;
  const hi = OUT[1] >>> 0;
  core.ttConfigure(16, true);
  const costs = [0, 0, 0, 0];
  for (const dir of roots) {
    core.searchRoot(lo, hi, dir, Math.max(1, depth), Infinity, true, 0);
    costs[dir] = core.lastExecutions();
  }
  return costs;
}
