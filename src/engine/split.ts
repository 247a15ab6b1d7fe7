/**
 * Sharing one expectimax search between threads, finer than its root moves (pure: plain JS, Atomics and a
 * SharedArrayBuffer, so it runs the same in worker_threads, Web Workers and tests).
 *
 * The unit of work is a child of a root move's chance node: a 2 or a 4 spawned in one empty cell. Every
 * thread gets the same plan and the same shared buffer, and searches on a WebAssembly core on one shared
 * memory, so on one transposition table (engine-shared.wasm, see SharedTable). Each root move has an owner
 * (planSplit: the dearest moves spread over the threads), who takes its children from the front, in cell
 * order. A thread done with its own moves takes children of the move with the most left from the back.
 * A thread with nothing left to take helps one still searching: it searches the same child with the cells
 * in the other order, so the two meet in the middle through the shared table, and stops when the other is
 * done. Every root move's entries live in their own region of the table: threads on different moves never
 * write the same cache lines, and a thread joining a move finds what its owner stored.
 * `mergeSplit` then adds each root move's children in cell order, as the root chance node does. One thread
 * alone reproduces searchRoot exactly (its values and move executions).
 */
import type { Grid } from './types';
import { DIRECTIONS } from './types';
import type { MoveValues } from './types';
import { OUT, executeMove, fitsBitboard, fromGrid } from './board';
import { wasmCore } from './wasm/core';
import { now } from './strategies/common';
import type { WasmCore } from './wasm/core';

/** Children per root move at most: 16 cells x (a 2, a 4). */
const CHILDREN = 32;
/** Threads that can share one search at most. */
export const MAX_SPLIT_THREADS = 16;
/** A plan's owner of a move that every thread takes from the front (sequentialPlan). */
const EVERY_THREAD = -1;
// The shared buffer: a claim word per root move, what each thread is searching (child + 1, 0: nothing),
// then the children's values.
const CLAIMS = 0;
const WORKING = 16;
const VALUES = WORKING + 4 * MAX_SPLIT_THREADS;
const P9 = Math.fround(0.9);
const P1 = Math.fround(0.1);

export interface SplitPlan {
  /** The legal root moves (0 up, 1 down, 2 left, 3 right), dearest first. */
  readonly dirs: readonly number[];
  /** Empty cells after each move of `dirs` (its chance node has a 2 and a 4 child per cell). */
  readonly open: readonly number[];
  /** The thread that takes each move's children from the front (the others take its last ones, from the back);
   *  EVERY_THREAD (a sequential plan): all threads take them from the front, move after move. */
  readonly owner: readonly number[];
}

/**
 * The plan for `grid` (4x4, tiles up to 32768) on `threads` threads: the legal moves of `roots`, dearest
 * first by `costs[dir]` (without costs, in the given order), each owned by the thread with the least cost
 * so far (longest processing time first). One thread taking the moves in the given order reproduces
 * searchRoot exactly.
 */
export function planSplit(grid: Grid, roots: readonly number[], threads: number, costs?: readonly number[]): SplitPlan {
  if (!fitsBitboard(grid)) throw new RangeError('planSplit: needs a 4x4 board with tiles up to 32768');
  fromGrid(grid);
  const lo = OUT[0];
  const hi = OUT[1];
  const legal: { dir: number; open: number; cost: number }[] = [];
  for (const dir of roots) {
    executeMove(lo, hi, dir);
    const nlo = OUT[0];
    const nhi = OUT[1];
    if (nlo === lo && nhi === hi) continue;
    let open = 0;
    for (let i = 0; i < 8; i++) {
      if (((nlo >>> (4 * i)) & 0xf) === 0) open++;
      if (((nhi >>> (4 * i)) & 0xf) === 0) open++;
    }
    legal.push({ dir, open, cost: costs ? Math.max(0, costs[dir] ?? 0) : 0 });
  }
  if (costs) legal.sort((a, b) => b.cost - a.cost);
  const load = new Array<number>(Math.max(1, Math.floor(threads))).fill(0);
  const owner = legal.map((move) => {
    const least = load.indexOf(Math.min(...load));
    load[least] += costs ? move.cost : 1;
    return least;
  });
  return { dirs: legal.map((m) => m.dir), open: legal.map((m) => m.open), owner };
}

/**
 * The plan of a timed iteration (src/engine/split-session.ts): the legal moves of `order` in that order, every
 * thread taking the children of the first move not yet taken, so that the moves complete one after another,
 * best first, as on one thread (a search stopped at its deadline has completed a prefix of them).
 */
export function sequentialPlan(grid: Grid, order: readonly number[]): SplitPlan {
  const plan = planSplit(grid, order, 1);
  return { ...plan, owner: plan.dirs.map(() => EVERY_THREAD) };
}

/**
 * The shared buffer of one split search: per root move one Int32 holding the next child its owner takes
 * (low 16 bits) and the end of the children not yet taken from the back (high 16 bits), then the children's
 * values.
 */
export function createSplitBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(VALUES + 4 * 4 * CHILDREN);
}

/** Make `buffer` ready for `plan`'s search (no thread may be working in it). */
export function resetSplit(buffer: SharedArrayBuffer, plan: SplitPlan): void {
  const claims = new Int32Array(buffer, CLAIMS, 4);
  claims.fill(0);
  plan.open.forEach((open, index) => (claims[index] = (2 * open) << 16));
  new Int32Array(buffer, WORKING, MAX_SPLIT_THREADS).fill(0);
  new Float32Array(buffer, VALUES, 4 * CHILDREN).fill(0);
}

/** Take the next child of root move `index` from the front (its owner) or the back; -1 when none is left. */
function claim(claims: Int32Array, index: number, front: boolean): number {
  for (;;) {
    const seen = Atomics.load(claims, index);
    const next = seen & 0xffff;
    const end = seen >>> 16;
    if (next >= end) return -1;
    const taken = front ? seen + 1 : seen - 0x10000;
    if (Atomics.compareExchange(claims, index, seen, taken) === seen) return front ? next : end - 1;
  }
}

/**
 * A transposition table that every thread's core shares (engine-shared.wasm on one shared memory, set up
 * with ttShare): the search's root moves get the generations `generation + their index in the plan`, and
 * the generations before `generation` are free slots.
 */
export interface SharedTable {
  readonly core: WasmCore;
  readonly generation: number;
  /** Make the core's clock (which the search polls about every 0.1 ms) read Infinity, so that the search
   *  stops, once `stop` returns true; null: never. */
  readonly stopWhen: (stop: (() => boolean) | null) => void;
}

/** How a timed split search stops and prunes: `stopAt` (ms, this thread's clock), `cutoff` (0: the reference's). */
interface SplitBounds {
  readonly stopAt: number;
  readonly cutoff: number;
}

const UNBOUNDED: SplitBounds = { stopAt: Infinity, cutoff: 0 };

/**
 * Thread `worker`'s share of the search of `grid` to `limit` layers (see the module comment): the children
 * of its own root moves from the front, then children of the move with the most left from the back, until
 * none is left; their values are written to `buffer` (NaN: stopped at `bounds.stopAt`, after which the thread
 * takes nothing more). Returns the move executions it did, by direction.
 */
export function workSplit(grid: Grid, plan: SplitPlan, buffer: SharedArrayBuffer, worker: number, limit: number, table: SharedTable, bounds: SplitBounds = UNBOUNDED): number[] {
  if (!(worker >= 0 && worker < MAX_SPLIT_THREADS)) throw new RangeError(`workSplit: thread ${worker} of at most ${MAX_SPLIT_THREADS}`);
  const { core, generation } = table;
  fromGrid(grid);
  const lo = OUT[0] >>> 0;
  const hi = OUT[1] >>> 0;
  const claims = new Int32Array(buffer, CLAIMS, 4);
  const working = new Int32Array(buffer, WORKING, MAX_SPLIT_THREADS);
  const values = new Float32Array(buffer, VALUES, 4 * CHILDREN);
  const executions = [0, 0, 0, 0];
  const { cutoff } = bounds;
  // A stop (a cancel's flag, the helper's stopWhen) makes the core's clock read Infinity, which passes only a
  // finite deadline: a search without one waits for Number.MAX_VALUE, so that it stops too.
  const stopAt = Math.min(bounds.stopAt, Number.MAX_VALUE);
  let stopped = false;
  const search = (index: number, front: boolean): void => {
    const dir = plan.dirs[index];
    core.ttSetGeneration(generation + index, generation);
    for (let child = claim(claims, index, front); child >= 0 && !stopped; child = claim(claims, index, front)) {
      Atomics.store(working, worker, index * CHILDREN + child + 1);
      const value = core.searchChild(lo, hi, dir, limit, child, stopAt, false, cutoff);
      values[index * CHILDREN + child] = value;
      Atomics.store(working, worker, 0);
      executions[dir] += core.lastExecutions();
      stopped = Number.isNaN(value);
    }
  };
  plan.dirs.forEach((_dir, index) => {
    if (!stopped && (plan.owner[index] === worker || plan.owner[index] === EVERY_THREAD)) search(index, true);
  });
  for (; !stopped; ) {
    let most = -1;
    let left = 0;
    plan.dirs.forEach((_dir, index) => {
      const seen = Atomics.load(claims, index);
      const children = (seen >>> 16) - (seen & 0xffff);
      if (children > left) {
        left = children;
        most = index;
      }
    });
    if (most < 0) break;
    search(most, false);
  }
  if (stopped) return executions;
  // Nothing left to take: help a thread still searching a child. The helper searches the same child with
  // the cells in the other order on the shared table, so each finds what the other stored; it stops when
  // that thread is done (its own value is dropped: the child's value is the one its thread writes). A child
  // the helper finished searching itself is not searched again: it waits no longer for that thread.
  const helped = new Set<number>();
  core.setReverse(true);
  try {
    for (;;) {
      let busy = 0;
      for (let other = 0; other < MAX_SPLIT_THREADS && busy === 0; other++) {
        const item = other === worker ? 0 : Atomics.load(working, other);
        if (item !== 0 && !helped.has(item)) {
          busy = item;
          table.stopWhen(() => Atomics.load(working, other) !== item);
        }
      }
      if (busy === 0) return executions;
      const index = (busy - 1) >>> 5;
      const dir = plan.dirs[index];
      core.ttSetGeneration(generation + index, generation);
      const value = core.searchChild(lo, hi, dir, limit, (busy - 1) & (CHILDREN - 1), stopAt, false, cutoff);
      executions[dir] += core.lastExecutions();
      if (!Number.isNaN(value)) helped.add(busy);
      else if (now() >= stopAt) return executions;
    }
  } finally {
    core.setReverse(false);
    table.stopWhen(null);
  }
}

/**
 * The root moves' values once every thread's workSplit has returned: per move, 0.9·v(2) + 0.1·v(4) added
 * cell by cell in cell order in float32, divided by the empty cells, plus the reference's 1e-6 (exactly as
 * the search's root chance node computes them). Throws when a move's children are not all searched.
 */
export function mergeSplit(plan: SplitPlan, buffer: SharedArrayBuffer): MoveValues {
  const merged = mergeSearched(plan, buffer);
  for (const dir of plan.dirs) {
    if (merged[DIRECTIONS[dir]] === undefined) throw new Error(`mergeSplit: the children of move ${DIRECTIONS[dir]} are not all searched`);
  }
  return merged;
}

/** mergeSplit's values of the moves whose children were all searched (a timed search may have stopped before the others). */
export function mergeSearched(plan: SplitPlan, buffer: SharedArrayBuffer): MoveValues {
  const claims = new Int32Array(buffer, CLAIMS, 4);
  const values = new Float32Array(buffer, VALUES, 4 * CHILDREN);
  const merged: MoveValues = {};
  plan.dirs.forEach((dir, index) => {
    const open = plan.open[index];
    const seen = Atomics.load(claims, index);
    if ((seen & 0xffff) < seen >>> 16) return;
    let sum = 0;
    for (let cell = 0; cell < open; cell++) {
      const two = values[index * CHILDREN + 2 * cell];
      const four = values[index * CHILDREN + 2 * cell + 1];
      if (Number.isNaN(two) || Number.isNaN(four)) return;
      sum = Math.fround(sum + Math.fround(two * P9));
      sum = Math.fround(sum + Math.fround(four * P1));
    }
    merged[DIRECTIONS[dir]] = Math.fround(Math.fround(sum / open) + 1e-6);
  });
  return merged;
}

/** Each legal root move's move executions at `depth` layers (a cheap cost estimate for planSplit). */
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
