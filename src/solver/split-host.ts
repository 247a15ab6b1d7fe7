/**
 * The solver pool's split sessions (the pool's side; the workers' side is ./worker-split.ts): where the host
 * is cross-origin isolated (Chrome's offscreen document), each expectimax decision on a 4x4 board is searched
 * by every worker together on one transposition table in a shared WebAssembly memory, the deepening the
 * time manager's (src/engine/split-session.ts), one message to each worker per iteration.
 *
 * Memory: until the learned network is in use the workers search on a memory of their own for the split
 * (the table of 4 regions of 2^bits entries: 20 MiB at 2^18); once it is, on the network's memory (its
 * weights once, the shared table in table slot 0, each worker's own table for its other searches in slots
 * 1…: the host makes that memory with one slot more than it has workers).
 *
 * Cancellation: a worker busy in its share reads no message, so `cancel` sets the stop flag of the control
 * words, which the workers' clocks read (their searches stop within about 0.1 ms), and aborts the session.
 */
import { SplitSession, createSharedMemory, createSplitBuffer, mergeSearched, resetSplit } from '../engine/index';
import type { ChanceEstimate, Grid, MoveChoice, MoveValues, SearchOptions, SplitHost, SplitSearch } from '../engine/index';
import { SPLIT_CONTROL_STOP, SPLIT_CONTROL_WORDS } from './protocol';
import type { WorkerRequest, WorkerResponse } from './protocol';

/** The split's shared table: 4 regions of 2^18 entries of 16 bytes (16 MiB), as the CLI's split games. */
const SPLIT_TABLE_BITS = 18;

/** One worker as a split session sees it: its number in the split, and how to reach it. */
export interface SplitThread {
  readonly post: (message: WorkerRequest) => void;
}

type SplitAnswer = Extract<WorkerResponse, { type: 'split-done' | 'split-failed' }>;

/** Can this context run split sessions (shared memory, cross-origin isolated)? */
export function canSplit(scope: { crossOriginIsolated?: boolean }): boolean {
  return scope.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
}

interface Iteration {
  readonly id: number;
  /** Threads that have not answered yet. */
  readonly waiting: Set<number>;
  readonly executions: number[];
  failure: string | null;
  resolve(): void;
  reject(error: Error): void;
}

interface Run {
  readonly threads: readonly SplitThread[];
  readonly network: boolean;
  readonly controller: AbortController;
}

export class PoolSplit implements SplitHost {
  private readonly buffer = createSplitBuffer();
  private readonly control = new SharedArrayBuffer(4 * SPLIT_CONTROL_WORDS);
  private readonly stop = new Int32Array(this.control, 0, SPLIT_CONTROL_WORDS);
  /** The split's memory before the network is in use (the heuristic's). */
  private readonly memory: WebAssembly.Memory;
  private readonly session = new SplitSession(this);
  /** The table generation of the next search (one per root move). */
  private generation = 1;
  private nextId = 1;
  private run: Run | null = null;
  private iteration: Iteration | null = null;
  private chance: ChanceEstimate | null = null;
  /** A worker could not search its share (its split core failed to load, say): the pool splits by root move from then on. */
  broken = false;

  constructor(readonly bits = SPLIT_TABLE_BITS) {
    this.memory = createSharedMemory(bits);
  }

  get threads(): number {
    return this.run?.threads.length ?? 0;
  }

  get hasNetwork(): boolean {
    return this.run?.network ?? false;
  }

  /** What a new worker is sent first: the split's memory, table, buffer and control words. */
  attachMessage(): WorkerRequest {
    return { type: 'split-attach', memory: this.memory, bits: this.bits, buffer: this.buffer, control: this.control };
  }

  /**
   * expectimax's choice of `grid` searched as a split session by `threads` (every one idle and attached);
   * `network`: their split cores hold the learned network. Rejects with an AbortError once cancelled.
   */
  async choose(grid: Grid, options: SearchOptions, threads: readonly SplitThread[], network: boolean): Promise<MoveChoice> {
    if (this.run) throw new Error('PoolSplit: one split session at a time');
    const run: Run = { threads, network, controller: new AbortController() };
    this.run = run;
    this.chance = null;
    Atomics.store(this.stop, SPLIT_CONTROL_STOP, 0);
    try {
      const found = await this.session.chooseMove(grid, options, run.controller.signal);
      return this.chance ? { ...found, chance: this.chance } : found;
    } finally {
      this.run = null;
    }
  }

  /** Stop the session under way (its workers within about 0.1 ms; the session then rejects). */
  cancel(): void {
    Atomics.store(this.stop, SPLIT_CONTROL_STOP, 1);
    this.run?.controller.abort(new DOMException('The search was cancelled', 'AbortError'));
  }

  /** A worker's answer to a split search. */
  answer(thread: number, response: SplitAnswer): void {
    const iteration = this.iteration;
    if (!iteration || response.id !== iteration.id || !iteration.waiting.has(thread)) return;
    if (response.type === 'split-failed') {
      this.broken = true;
      this.failed(thread, `a solver worker failed: ${response.error}`);
    }
    else {
      response.executions.forEach((n, dir) => (iteration.executions[dir] += n));
      if (response.chance) this.chance = response.chance;
      this.answered(thread);
    }
  }

  /** A worker of the session crashed or overran (it was replaced): the others stop, the search fails. */
  failed(thread: number, reason: string): void {
    const iteration = this.iteration;
    if (!iteration || !iteration.waiting.has(thread)) return;
    iteration.failure ??= reason;
    Atomics.store(this.stop, SPLIT_CONTROL_STOP, 1);
    this.answered(thread);
  }

  /** SplitHost: one iteration, every thread's share (see src/engine/split-session.ts). */
  async search(search: SplitSearch): Promise<{ values: MoveValues; executions: readonly number[] }> {
    const run = this.run;
    if (!run) throw new Error('PoolSplit: no session under way');
    if (search.grid.rows !== 4 || search.grid.cols !== 4) throw new RangeError('PoolSplit: split searches take 4x4 boards');
    // Generations run 1..2^24-1 in the core; when they wrap round, thread 0 zeroes the table first (a job of no
    // root move), before any thread searches.
    if (this.generation + search.plan.dirs.length > 0xffffff) {
      this.generation = 1;
      await this.post(run, { ...search, plan: { dirs: [], open: [], owner: [] }, deadline: Infinity, network: false }, 1, true);
    }
    const generation = this.generation;
    this.generation += search.plan.dirs.length;
    const executions = await this.post(run, search, generation, false);
    return { values: mergeSearched(search.plan, this.buffer), executions };
  }

  private post(run: Run, search: SplitSearch, generation: number, clear: boolean): Promise<number[]> {
    run.controller.signal.throwIfAborted();
    resetSplit(this.buffer, search.plan);
    const deadline = Number.isFinite(search.deadline) ? performance.timeOrigin + search.deadline : null;
    const id = this.nextId++;
    return new Promise<number[]>((resolve, reject) => {
      const iteration: Iteration = {
        id,
        waiting: new Set(run.threads.map((_thread, index) => index)),
        executions: [0, 0, 0, 0],
        failure: null,
        resolve: () => resolve(iteration.executions),
        reject,
      };
      this.iteration = iteration;
      run.threads.forEach((thread, index) => {
        const message: WorkerRequest = {
          type: 'split-search',
          id,
          thread: index,
          board: { rows: 4, cols: 4, cells: [...search.grid.cells] },
          plan: { dirs: [...search.plan.dirs], open: [...search.plan.open], owner: [...search.plan.owner] },
          limit: search.limit,
          cutoff: search.cutoff,
          deadline,
          network: search.network && run.network,
          generation,
          clear,
          // The chance meter's estimate depends on the board alone: asked of one worker, once per decision.
          chance: index === 0 && run.network && this.chance === null,
        };
        try {
          thread.post(message);
        } catch (err) {
          this.failed(index, `a solver worker could not take its share (${err instanceof Error ? err.message : String(err)})`);
        }
      });
    });
  }

  private answered(thread: number): void {
    const iteration = this.iteration as Iteration;
    iteration.waiting.delete(thread);
    if (iteration.waiting.size > 0) return;
    this.iteration = null;
    if (iteration.failure) iteration.reject(new Error(iteration.failure));
    else iteration.resolve();
  }
}
