/** Messages and the job board between the bench's main thread and its split-search worker threads (src/cli/split-pool.ts). */
import { MAX_SPLIT_THREADS } from '../engine/index';
import type { Grid, MoveChoice, NetworkDescriptor, SearchEngine, SearchOptions, SplitPlan, StrategyName } from '../engine/index';

/** What a split worker thread is started with. */
export interface SplitWorkerData {
  readonly engine: SearchEngine;
  /** The network file each thread installs for its parts (null: none). */
  readonly network?: string | null;
  /** Split searches (a pool with a shared table): this thread's number, the shared memory of the threads'
   *  shared-table cores, the table's size, the split buffer (createSplitBuffer) and the job board. */
  readonly split?: {
    readonly worker: number;
    readonly memory: WebAssembly.Memory;
    readonly bits: number;
    readonly buffer: SharedArrayBuffer;
    readonly jobs: SharedArrayBuffer;
    /** The learned network whose weights the main thread put in `memory` (every thread attaches it). */
    readonly descriptor?: NetworkDescriptor;
  };
}

// The job board of split searches (a SharedArrayBuffer): the main thread writes a job and bumps SEQ; each
// thread, waiting on SEQ (Atomics.wait), takes its share, writes its move executions and bumps DONE. No
// message per search: a message each way costs about as much as 2 % of the reference positions' work.
const SEQ = 0;
const DONE = 1;
const QUIT = 2;
const NETWORK = 3;
const LIMIT = 4;
const GENERATION = 5;
const CLEAR = 6;
const ROOTS = 7;
const DIRS = 8;
const OPEN = 12;
const OWNER = 16;
const CELLS = 20;
/** The cut-off (float32) and the deadline (float64, ms since the epoch: each thread has a clock of its own). */
const CUTOFF_BYTE = 160;
const DEADLINE_BYTE = 168;
const EXECUTIONS_BYTE = 256;

/** One split search as the threads read it from the job board. */
export interface ShareJob {
  readonly grid: Grid;
  readonly plan: SplitPlan;
  readonly limit: number;
  /** The first of the search's table generations, one per root move. */
  readonly generation: number;
  /** Zero the shared table first (its generations wrapped round); done by thread 0. */
  readonly clear: boolean;
  /** The probability cut-off (0: the reference's). */
  readonly cutoff: number;
  /** When to stop, ms since the epoch (performance.timeOrigin + performance.now()); Infinity: never. */
  readonly deadline: number;
  /** Value leaves with the network (when the threads have one). */
  readonly network: boolean;
}

export function createJobBoard(): SharedArrayBuffer {
  return new SharedArrayBuffer(EXECUTIONS_BYTE + 8 * 4 * MAX_SPLIT_THREADS);
}

/** Main thread: post `job` to every thread waiting on `board` (its DONE count starts again from 0). */
export function postJob(board: SharedArrayBuffer, job: ShareJob): void {
  const words = new Int32Array(board, 0, EXECUTIONS_BYTE / 4);
  if (job.grid.rows !== 4 || job.grid.cols !== 4) throw new RangeError('postJob: split searches take 4x4 boards');
  words[LIMIT] = job.limit;
  words[GENERATION] = job.generation;
  words[CLEAR] = job.clear ? 1 : 0;
  words[NETWORK] = job.network ? 1 : 0;
  new Float32Array(board, CUTOFF_BYTE, 1)[0] = job.cutoff;
  new Float64Array(board, DEADLINE_BYTE, 1)[0] = job.deadline;
  words[ROOTS] = job.plan.dirs.length;
  job.plan.dirs.forEach((dir, i) => {
    words[DIRS + i] = dir;
    words[OPEN + i] = job.plan.open[i];
    words[OWNER + i] = job.plan.owner[i];
  });
  job.grid.cells.forEach((value, i) => (words[CELLS + i] = value));
  Atomics.store(words, DONE, 0);
  Atomics.add(words, SEQ, 1);
  Atomics.notify(words, SEQ);
}

/** Main thread: resolves once `threads` threads have finished the job posted last. */
export async function jobDone(board: SharedArrayBuffer, threads: number): Promise<void> {
  const words = new Int32Array(board, 0, EXECUTIONS_BYTE / 4);
  for (let done = Atomics.load(words, DONE); done < threads; done = Atomics.load(words, DONE)) {
    const waiting = Atomics.waitAsync(words, DONE, done);
    if (waiting.async) await waiting.value;
  }
}

/** Main thread: thread `worker`'s move executions of the last job, by direction. */
export function jobExecutions(board: SharedArrayBuffer, worker: number): number[] {
  return Array.from(new Float64Array(board, EXECUTIONS_BYTE + 32 * worker, 4));
}

/** Main thread: make every thread leave its wait for jobs. */
export function postQuit(board: SharedArrayBuffer): void {
  const words = new Int32Array(board, 0, EXECUTIONS_BYTE / 4);
  Atomics.store(words, QUIT, 1);
  Atomics.add(words, SEQ, 1);
  Atomics.notify(words, SEQ);
}

/**
 * Worker thread: wait (blocking) for the job after number `seen`; returns it with its number, or null when
 * told to quit.
 */
export function waitForJob(board: SharedArrayBuffer, seen: number): { seq: number; job: ShareJob } | null {
  const words = new Int32Array(board, 0, EXECUTIONS_BYTE / 4);
  Atomics.wait(words, SEQ, seen);
  const seq = Atomics.load(words, SEQ);
  if (Atomics.load(words, QUIT) !== 0) return null;
  const roots = words[ROOTS];
  const plan: SplitPlan = {
    dirs: Array.from(words.subarray(DIRS, DIRS + roots)),
    open: Array.from(words.subarray(OPEN, OPEN + roots)),
    owner: Array.from(words.subarray(OWNER, OWNER + roots)),
  };
  const grid: Grid = { rows: 4, cols: 4, cells: Array.from(words.subarray(CELLS, CELLS + 16)) };
  const cutoff = new Float32Array(board, CUTOFF_BYTE, 1)[0];
  const deadline = new Float64Array(board, DEADLINE_BYTE, 1)[0];
  return { seq, job: { grid, plan, limit: words[LIMIT], generation: words[GENERATION], clear: words[CLEAR] !== 0, cutoff, deadline, network: words[NETWORK] !== 0 } };
}

/** Worker thread: report this thread's share of the job done, with its move executions by direction. */
export function finishJob(board: SharedArrayBuffer, worker: number, executions: readonly number[]): void {
  new Float64Array(board, EXECUTIONS_BYTE + 32 * worker, 4).set(executions.slice(0, 4));
  const words = new Int32Array(board, 0, EXECUTIONS_BYTE / 4);
  Atomics.add(words, DONE, 1);
  Atomics.notify(words, DONE);
}

/** One part of a timed search (the extension's split: options.rootMoves), run with chooseMove. */
export interface ChooseRequest {
  readonly type: 'choose';
  readonly id: number;
  readonly grid: Grid;
  readonly strategy: StrategyName;
  readonly options: SearchOptions;
}

export type SplitReply =
  | { readonly type: 'ready' }
  | { readonly type: 'chosen'; readonly id: number; readonly choice: MoveChoice }
  | { readonly type: 'error'; readonly id: number; readonly message: string }
  /** A split job failed in this thread (it still counts as done on the job board). */
  | { readonly type: 'split-error'; readonly message: string };
