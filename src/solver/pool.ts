/**
 * A pool of solver workers that splits one search over several workers and merges the parts, the way
 * each strategy declares (`split` of its descriptor in src/engine/strategies/):
 *
 * - `root-moves`: split by root move (`options.rootMoves`), one legal root move per worker,
 *   round-robin when there are fewer workers than moves.
 * - `playouts`: split the playouts over the workers, each part with its own seed; the engine's
 *   `mergeChoices` weights the parts by their `samples`.
 * - `single`: one worker (the strategy is instant).
 *
 * With a network supply (./network-supply.ts), the first search that values positions with the learned network
 * starts its load as it ends; until it is decoded the workers search with the heuristic (the first moves at once,
 * their choices saying `evaluation: 'heuristic'`), then each gets it between two searches, all of them before the
 * next search starts. `warm` starts the workers ahead of the first search (the network stays unloaded).
 *
 * With a split (./split-host.ts: a host that is cross-origin isolated) an expectimax search on a 4x4 board
 * is one task on every worker at once, a split session on one shared table; other searches are split as above.
 *
 * A newer request on the same channel (one channel per tab) cancels the older one; so does `cancel`.
 * A worker that crashes (`onerror`) or overruns its budget by a wide margin is terminated and replaced;
 * the move then comes from the parts that did complete, or, when none did, from a cheap fallback
 * strategy, and the result carries a `note` saying so.
 *
 * Nothing here touches the DOM or chrome.*: workers come from an injected factory, so the pool runs in
 * Node under test with fake workers.
 *
 * Beside it: ./pool-api.ts (what it takes and gives), ./pool-plan.ts (the parts of a search), ./pool-search.ts
 * (how the parts make the result), ./pool-split.ts (tasks, slots, split sessions), ./network-decoder.ts.
 */
import type { MoveChoice } from '../engine/types';
import { isNetworkAnswer, parseWorkerResponse, type NetworkAnswer } from './protocol';
import { NetworkSupply } from './network-supply';
import { NetworkDecoder } from './network-decoder';
import { partLimitMs, planParts } from './pool-plan';
import { partDone, settle, type Search } from './pool-search';
import type { PoolSplit } from './split-host';
import { cancelSplit, planSearch, startSplit } from './pool-split';
import type { Slot, SplitSide, Task } from './pool-split';
import { SearchCancelledError, type PoolConfig, type PoolStats, type SolveRequest, type SolveResult, type SolverWorker } from './pool-api';

export class SolverPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private readonly searches = new Map<string, Search<Task>>();
  private readonly byChannel = new Map<string, Search<Task>>();
  private nextTaskId = 1;
  private replacedCount = 0;
  private disposed = false;
  private readonly network: NetworkSupply | null;
  /** The worker that puts the network into the shared memory, while it does (then it is terminated). */
  private loader: NetworkDecoder | null = null;
  readonly size: number;
  private readonly split: PoolSplit | null;
  private readonly splitSide: SplitSide; // what the split sessions' tasks (./pool-split.ts) use of the pool

  constructor(private readonly config: PoolConfig) {
    this.size = Math.max(1, Math.floor(config.size));
    this.split = config.split ?? null;
    const end = (task: Task, choice: MoveChoice | null, failure: string | null): void => this.endSplit(task, choice, failure);
    this.splitSide = { split: this.split, slots: this.slots, config, networkReady: () => this.network?.state === 'ready', arm: (slot, ms, why) => this.arm(slot, ms, why), end };
    this.network = config.network ? new NetworkSupply(config.network, () => this.networkChanged()) : null;
  }

  /** Run one search over the pool. Rejects with SearchCancelledError when cancelled or replaced. */
  solve(request: SolveRequest): Promise<SolveResult> {
    if (this.disposed) return Promise.reject(new Error('The solver pool was shut down'));
    const channel = request.channel ?? '';
    const key = `${channel}\u0000${request.requestId}`;
    const older = this.byChannel.get(channel);
    if (older) this.cancelSearch(older, 'replaced by a newer request');
    const existing = this.searches.get(key);
    if (existing) this.cancelSearch(existing, 'replaced by a request with the same id');

    const loadsNetwork = this.network?.state === 'idle' && NetworkSupply.wanted(request.strategy, request.board);
    const legal = this.config.engine.legalMoves(request.board);
    const { plans, whole, split } = planSearch(this.split, this.network, request, planParts(request.strategy, request.options, legal, this.size, (Date.now() ^ this.nextTaskId) | 0));
    if (plans.length === 0) return Promise.resolve({ choice: { strategy: request.strategy, move: null, values: {}, depth: 0, nodes: 0, ms: 0 } });
    const result = new Promise<SolveResult>((done, reject) => {
      const resolve = (answer: SolveResult): void => done(split ? { ...answer, split } : answer);
      const tasks: Task[] = [];
      const search: Search<Task> = { key, channel, request, tasks, results: plans.map(() => null), failures: [], pending: plans.length, settled: false, resolve, reject };
      plans.forEach((options, index) => tasks.push({ id: this.nextTaskId++, index, options, search, slot: null, whole }));
      this.searches.set(key, search);
      this.byChannel.set(channel, search);
      this.queue.push(...tasks);
      this.pump();
    });
    // The network loads once this search has ended, answered or not: its load would slow this search down (on
    // two cores, past its budget), which the heuristic values either way.
    if (loadsNetwork) {
      const load = (): void => {
        if (!this.disposed) this.network?.start();
      };
      result.then(load, load);
    }
    return result;
  }

  /**
   * Start every worker now, ahead of the first search (each loads and compiles its search core as it starts), so
   * that the first search need not wait for them. The network is not loaded here: the first search that uses
   * it starts that (docs: architecture.md, "Contexts").
   */
  warm(): void {
    if (this.disposed) return;
    while (this.slots.length < this.size) this.addSlot();
  }

  /** Cancel a search; true when it was running. */
  cancel(requestId: string, channel = ''): boolean {
    const search = this.searches.get(`${channel}\u0000${requestId}`);
    if (!search) return false;
    this.cancelSearch(search, 'cancelled');
    return true;
  }

  /** True while any search is queued or running. */
  get busy(): boolean {
    return this.searches.size > 0 || this.slots.some((slot) => slot.task !== null);
  }

  stats(): PoolStats {
    return {
      split: this.split ? 'shared' : 'roots',
      workers: this.slots.length,
      busy: this.slots.filter((slot) => slot.task !== null).length,
      queued: this.queue.length,
      searches: this.searches.size,
      replaced: this.replacedCount,
    };
  }

  /** Cancel everything and terminate the workers. */
  dispose(): void {
    this.disposed = true;
    this.endLoader(null);
    for (const search of [...this.searches.values()]) this.cancelSearch(search, 'the solver shut down');
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.worker.onmessage = null;
      slot.worker.onerror = null;
      slot.worker.terminate();
    }
    this.slots.length = 0;
  }

  private pump(): void {
    if (this.disposed) return;
    if (this.network?.state === 'ready') this.supplyNetwork();
    while (this.queue.length > 0 && !this.disposed) {
      // Until the network is decoded the workers search with the heuristic (the first move at once); while it
      // is handed to them none starts, so that the parts of a search are valued one way.
      if (this.handingOver()) return;
      if (this.queue[0].whole) {
        this.warm();
        if (startSplit(this.splitSide, this.queue)) continue;
        return;
      }
      let slot = this.slots.find((candidate) => candidate.task === null);
      if (!slot && this.slots.length < this.size) slot = this.addSlot();
      if (!slot) return;
      this.assign(slot, this.queue.shift() as Task);
    }
  }

  /** Some worker is being given the network, or some hold it and some not yet: no part may start now. */
  private handingOver(): boolean {
    if (this.slots.some((slot) => slot.network === 'pending')) return true;
    return this.slots.some((slot) => slot.network === 'ready') && this.slots.some((slot) => slot.network !== 'ready');
  }

  /**
   * The network is loaded: every worker gets it before the first search (all of them made now), each idle one
   * without it is set up, a loader decodes it when a worker waits for it, and once no worker needs the decoded
   * weights any more (one copy per worker) they go back to the loader, which ends.
   */
  private supplyNetwork(): void {
    while (this.slots.length < this.size) this.addSlot();
    for (const slot of this.slots) this.setUpNetwork(slot);
    const waiting = this.slots.some((slot) => slot.network === 'waiting');
    if (waiting && !this.loader) this.startLoader();
    if (this.loader?.done && !waiting && !this.slots.some((slot) => slot.network === 'pending')) this.endLoader(this.network?.takeWeights() ?? null);
  }

  private addSlot(): Slot {
    const slot: Slot = { index: this.slots.length, worker: undefined as unknown as SolverWorker, task: null, timer: null, network: 'none', setupId: -1, warm: false, shared: false };
    this.attachWorker(slot);
    this.slots.push(slot);
    return slot;
  }

  private attachWorker(slot: Slot): void {
    const worker = this.config.createWorker();
    worker.onmessage = (event) => this.onWorkerMessage(slot, worker, event.data);
    worker.onerror = () => this.onWorkerFailure(slot, worker, 'a solver worker crashed');
    slot.worker = worker;
    slot.network = 'none';
    slot.warm = false;
    slot.shared = false;
    if (this.split) worker.postMessage(this.split.attachMessage());
  }

  /** Send an idle worker without the network what it needs to use it (or have it wait for the loader). */
  private setUpNetwork(slot: Slot): void {
    const network = this.network;
    if (!network || slot.task !== null || (slot.network !== 'none' && slot.network !== 'waiting')) return;
    const id = this.nextTaskId++;
    const setup = network.setupFor(slot.index + (this.split ? 1 : 0), id);
    if (setup === null || setup === 'wait') {
      slot.network = setup === null ? 'none' : 'waiting';
      return;
    }
    slot.network = 'pending';
    slot.setupId = id;
    this.arm(slot, network.setupLimitMs, 'a solver worker took too long to load the network');
    try {
      slot.worker.postMessage(setup, setup.type === 'network-copy' ? [setup.weights.buffer] : []);
    } catch (err) {
      this.onWorkerFailure(slot, slot.worker, `a solver worker could not take the network (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  /** Start a loader worker to decode the network (./network-decoder.ts). */
  private startLoader(): void {
    const network = this.network;
    if (!network || this.loader) return;
    const id = this.nextTaskId++;
    const next = network.loaderRequest(id);
    if (!next) return;
    const loader: NetworkDecoder = new NetworkDecoder(network, this.config.createWorker(), id, {
      stop: () => {
        if (this.loader === loader) this.endLoader(null);
      },
      pump: () => this.pump(),
    });
    this.loader = loader;
    loader.start(next.request, next.transfer);
  }

  /** Terminate the loader, handing it `weights` first (they end with it instead of waiting for a collection here). */
  private endLoader(weights: Int16Array | Float32Array | null): void {
    const loader = this.loader;
    if (!loader) return;
    this.loader = null;
    loader.end(weights);
  }

  private onNetworkAnswer(slot: Slot, response: NetworkAnswer): void {
    const network = this.network;
    if (!network || slot.network !== 'pending' || response.id !== slot.setupId) return;
    if (response.type === 'network-progress') return;
    this.release(slot);
    if (response.type === 'network-failed') {
      slot.network = 'none';
      network.fail(response.reason);
    } else {
      slot.network = 'ready';
      slot.shared = response.shared;
      network.returned(response.weights);
    }
    this.pump();
    // Once no worker loads or waits for the network any more, it is in use (reported once per load or replacement).
    if (response.type === 'network-ready' && !this.loader && !this.slots.some((s) => s.network === 'pending' || s.network === 'waiting')) {
      network.settled(this.slots.filter((s) => s.network === 'ready').length);
    }
  }

  /** The network came or went: a failed one leaves no worker holding it (each is replaced, now or when idle). */
  private networkChanged(): void {
    if (this.disposed) return;
    if (this.network?.state === 'failed') {
      this.endLoader(null);
      for (const slot of this.slots) {
        if (slot.network === 'waiting') slot.network = 'none';
        if (slot.network !== 'none' && slot.task === null) this.replaceWorker(slot);
      }
    }
    this.pump();
  }

  /** Terminate a slot's worker and give the slot a fresh one (no network, no task). */
  private replaceWorker(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.worker.onmessage = null;
    slot.worker.onerror = null;
    slot.worker.terminate();
    this.replacedCount++;
    this.attachWorker(slot);
  }

  private assign(slot: Slot, task: Task): void {
    const { request } = task.search;
    slot.task = task;
    task.slot = slot;
    // A new worker's first part also waits for its search core to be fetched and compiled (slow on a busy machine,
    // or beside the network's load): without this grace it would be replaced, and the next one too.
    const startup = slot.warm ? 0 : (this.config.startupGraceMs ?? 10_000);
    this.arm(slot, partLimitMs(request.strategy, task.options, this.config) + startup, 'a solver worker overran its time budget');
    try {
      slot.worker.postMessage({ type: 'start', id: task.id, strategy: request.strategy, board: request.board, options: task.options });
    } catch (err) {
      this.onWorkerFailure(slot, slot.worker, `a solver worker could not start (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  private arm(slot: Slot, ms: number, reason: string): void {
    if (slot.timer) clearTimeout(slot.timer);
    const worker = slot.worker;
    slot.timer = setTimeout(() => this.onWorkerFailure(slot, worker, reason), ms);
  }

  private onWorkerMessage(slot: Slot, worker: SolverWorker, data: unknown): void {
    if (slot.worker !== worker) return; // a replaced worker's late answer
    const response = parseWorkerResponse(data);
    if (response?.type === 'split-done' || response?.type === 'split-failed') {
      this.split?.answer(slot.index, response);
      return;
    }
    if (response && isNetworkAnswer(response)) {
      this.onNetworkAnswer(slot, response);
      return;
    }
    const task = slot.task;
    if (!response || !task || response.id !== task.id) return; // stale or foreign
    this.release(slot);
    slot.warm = true;
    if (response.type === 'result') this.finishTask(task, response.choice, null);
    else this.finishTask(task, null, response.aborted ? 'a part was cancelled' : `a solver worker failed: ${response.error}`);
    this.pump();
  }

  private onWorkerFailure(slot: Slot, worker: SolverWorker, reason: string): void {
    if (slot.worker !== worker || this.disposed) return;
    const task = slot.task;
    const loading = slot.network === 'pending';
    if (task?.whole) {
      // The session's other workers stop; its slots are released once it has ended.
      this.replaceWorker(slot);
      this.split?.failed(slot.index, reason);
      return;
    }
    this.release(slot);
    this.replaceWorker(slot);
    if (loading) this.network?.crashed();
    if (task) this.finishTask(task, null, reason);
    this.pump();
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (slot.task) slot.task.slot = null;
    slot.task = null;
    // A worker holding a network that failed elsewhere meanwhile goes once it is idle.
    if (this.network?.state === 'failed' && slot.network !== 'none') this.replaceWorker(slot);
  }

  private endSplit(task: Task, choice: MoveChoice | null, failure: string | null): void {
    for (const slot of this.slots) if (slot.task === task) this.release(slot);
    this.finishTask(task, choice, failure);
    this.pump();
  }

  private finishTask(task: Task, choice: MoveChoice | null, failure: string | null): void {
    if (partDone(task.search, task.index, choice, failure)) this.complete(task.search);
  }

  private forget(search: Search<Task>): void {
    search.settled = true;
    this.searches.delete(search.key);
    if (this.byChannel.get(search.channel) === search) this.byChannel.delete(search.channel);
  }

  private complete(search: Search<Task>): void {
    this.forget(search);
    void settle(search, this.config.engine);
  }

  private cancelSearch(search: Search<Task>, why: string): void {
    if (search.settled) return;
    this.forget(search);
    for (const task of search.tasks) {
      const queued = this.queue.indexOf(task);
      if (queued >= 0) this.queue.splice(queued, 1);
      if (task.whole) cancelSplit(this.splitSide, task); // (and its first worker is told, which it ignores)
      const slot = task.slot;
      if (slot && slot.task === task) {
        try {
          slot.worker.postMessage({ type: 'cancel', id: task.id });
        } catch {
          // a worker that cannot take the message is replaced when the grace time runs out
        }
        this.arm(slot, this.config.cancelGraceMs ?? 1_000, 'a solver worker ignored a cancel');
      }
    }
    search.reject(new SearchCancelledError(`The search was ${why}`));
  }
}

