/**
 * A pool of worker threads for one search at a time: either every thread shares each search on one
 * transposition table, finer than its root moves (a pool made with a table: src/engine/split.ts, jobs
 * posted on a shared job board), or a search is split by root moves into parts that a free thread takes
 * (chooseMove, by message).
 */
import { Worker } from 'node:worker_threads';
import { attachNetwork, createNetworkMemory, createSplitBuffer, instantiateSharedWasmCore, mergeSearched, resetSplit } from '../engine/index';
import type { Grid, MoveChoice, MoveValues, Network, NetworkDescriptor, SearchEngine, SearchOptions, SplitHost, SplitSearch, StrategyName } from '../engine/index';
import { createSharedMemory } from '../engine/index';
import { SHARED_WASM_FILE, readWasm } from './wasm-files';
import { createJobBoard, jobDone, jobExecutions, postJob, postQuit } from './split-protocol';
import type { ChooseRequest, ShareJob, SplitReply, SplitWorkerData } from './split-protocol';

const WORKER_ENTRY = new URL('./split-worker-entry.mjs', import.meta.url);

interface Pending {
  readonly request: ChooseRequest;
  readonly resolve: (choice: MoveChoice) => void;
  readonly reject: (error: Error) => void;
}

interface SplitState {
  readonly buffer: SharedArrayBuffer;
  readonly jobs: SharedArrayBuffer;
  /** The table generation of the next search (one per root move). */
  generation: number;
}

/**
 * A shared memory for the split threads' cores: with a network, its weights copied in once at the heap base
 * (every thread attaches them in place), the table of 2^bits entries per region after them.
 */
function splitMemory(bits: number, network: Network | null): { memory: WebAssembly.Memory; descriptor?: NetworkDescriptor } {
  if (!network) return { memory: createSharedMemory(bits) };
  const { weights, ...descriptor } = network;
  const memory = createNetworkMemory(descriptor, 1);
  const view = attachNetwork(instantiateSharedWasmCore(readWasm(SHARED_WASM_FILE), memory), memory, descriptor);
  if (view.weights instanceof Int16Array) view.weights.set(weights as Int16Array);
  else view.weights.set(weights as Float32Array);
  return { memory, descriptor };
}

/** The table of a split pool with a network: at most what createNetworkMemory leaves room for (4 regions of 2^19). */
const MAX_NETWORK_TABLE_BITS = 19;

export class SplitPool implements SplitHost {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<Worker, Pending>();
  private nextId = 1;
  private failure: Error | null = null;
  private readonly started: Promise<void>[] = [];
  private readonly split: SplitState | null;

  /** Whether the threads' shared memory holds a learned network (a pool with a table). */
  readonly hasNetwork: boolean;

  /**
   * `threads` worker threads on `engine`; with `tableBits` (WebAssembly only) they share split searches
   * (`search`) on one transposition table of 2^tableBits entries in a shared memory, and take no parts:
   * then `network` is the decoded network they value leaves with (put in the shared memory once), else the
   * file each thread loads for its parts.
   */
  constructor(
    readonly threads: number,
    engine: SearchEngine = 'wasm',
    tableBits?: number,
    network: string | Network | null = null,
  ) {
    const withTable = tableBits !== undefined && engine === 'wasm';
    this.split = withTable ? { buffer: createSplitBuffer(), jobs: createJobBoard(), generation: 1 } : null;
    const decoded = withTable && network !== null && typeof network !== 'string' ? network : null;
    if (decoded && (tableBits as number) > MAX_NETWORK_TABLE_BITS) throw new RangeError(`SplitPool: a table of at most 2^${MAX_NETWORK_TABLE_BITS} entries beside a network`);
    const shared = withTable ? splitMemory(tableBits, decoded) : null;
    this.hasNetwork = shared?.descriptor !== undefined;
    for (let i = 0; i < threads; i++) {
      const workerData: SplitWorkerData = {
        engine,
        network: typeof network === 'string' ? network : null,
        split:
          this.split && shared && tableBits !== undefined
            ? { worker: i, memory: shared.memory, bits: tableBits, buffer: this.split.buffer, jobs: this.split.jobs, ...(shared.descriptor ? { descriptor: shared.descriptor } : {}) }
            : undefined,
      };
      const worker = new Worker(WORKER_ENTRY, { workerData });
      this.started.push(
        new Promise<void>((resolve) => {
          worker.once('message', () => resolve());
        }),
      );
      worker.on('message', (reply: SplitReply) => this.finished(worker, reply));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (this.split || this.running.has(worker) || this.queue.length > 0) this.fail(new Error(`a split worker exited early (code ${code})`));
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** Resolves when every thread has loaded its core (so that a timing leaves the start-up out). */
  async ready(): Promise<void> {
    await Promise.all(this.started);
    if (this.failure) throw this.failure;
  }

  /**
   * One search by every thread together on the pool's shared table (src/engine/split.ts): resolves with the
   * values of the root moves searched completely (all of them unless stopped at the deadline) and the move
   * executions per direction.
   */
  async search(search: SplitSearch): Promise<{ values: MoveValues; executions: number[] }> {
    const { grid, plan, limit } = search;
    const split = this.split;
    if (!split) throw new Error('SplitPool.search: the pool was made without a shared table');
    if (this.failure) throw this.failure;
    // Generations run 1..2^24-1 in the core; when they wrap round, thread 0 zeroes the table first (a job
    // of no root move), before any thread searches.
    if (split.generation + plan.dirs.length > 0xffffff) {
      split.generation = 1;
      const none = { dirs: [], open: [], owner: [] };
      await this.runJob({ grid, plan: none, limit, generation: 1, clear: true, cutoff: 0, deadline: Infinity, network: false });
    }
    const generation = split.generation;
    split.generation += plan.dirs.length;
    const deadline = performance.timeOrigin + search.deadline;
    const executions = await this.runJob({ grid, plan, limit, generation, clear: false, cutoff: search.cutoff, deadline, network: search.network });
    return { values: mergeSearched(plan, split.buffer), executions };
  }

  private async runJob(job: ShareJob): Promise<number[]> {
    const split = this.split as SplitState;
    resetSplit(split.buffer, job.plan);
    postJob(split.jobs, job);
    let failed: Error | null = null;
    await Promise.race([
      jobDone(split.jobs, this.threads),
      new Promise<void>((_, reject) => (this.onFailure = reject)),
    ]).catch((error: Error) => (failed = error));
    this.onFailure = null;
    const shares = this.workers.map((_, worker) => jobExecutions(split.jobs, worker));
    if (!failed && shares.some((share) => share.some((n) => Number.isNaN(n)))) {
      // A thread that failed posted why before it finished: let that message arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
      failed = this.failure ?? new Error('a split worker failed');
    }
    if (failed) throw failed;
    return [0, 1, 2, 3].map((dir) => shares.reduce((sum, share) => sum + share[dir], 0));
  }

  private onFailure: ((error: Error) => void) | null = null;

  /** One part of a search run with the strategy's chooseMove on a free thread (a pool without a table). */
  choose(grid: Grid, strategy: StrategyName, options: SearchOptions): Promise<MoveChoice> {
    if (this.split) return Promise.reject(new Error('SplitPool.choose: a pool with a shared table only shares searches'));
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { type: 'choose', id: this.nextId++, grid, strategy, options }, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const workers = [...this.workers];
    this.workers.length = 0;
    this.idle.length = 0;
    this.running.clear();
    if (this.split) postQuit(this.split.jobs);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as Worker;
      const pending = this.queue.shift() as Pending;
      this.running.set(worker, pending);
      worker.postMessage(pending.request);
    }
  }

  private finished(worker: Worker, reply: SplitReply): void {
    if (reply.type === 'ready') return;
    if (reply.type === 'split-error') {
      this.fail(new Error(`a split worker failed: ${reply.message}`));
      return;
    }
    const pending = this.running.get(worker);
    if (!pending || pending.request.id !== reply.id) return;
    this.running.delete(worker);
    this.idle.push(worker);
    if (reply.type === 'chosen') pending.resolve(reply.choice);
    else pending.reject(new Error(reply.message));
    this.pump();
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const pending of [...this.queue, ...this.running.values()]) pending.reject(error);
    this.queue.length = 0;
    this.onFailure?.(error);
  }
}
