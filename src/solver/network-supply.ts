/**
 * The learned network's way into the solver workers (the pool's side; src/solver/pool.ts asks it what each
 * worker needs before its first search):
 *
 * 1. The first search of a strategy that evaluates with the network (`usesNetwork` in the registry) on a 4x4
 *    board starts the load as it ends (the heuristic valued it; the load would only have slowed it down): the
 *    host fetches the packaged file and, where it is cross-origin isolated, makes one shared WebAssembly memory
 *    for the network and every worker's table (`PoolNetworkConfig.load`). Searches go on meanwhile, valued by
 *    the heuristic (the early game needs no network).
 * 2. A loader worker (one more solver worker, for this alone) decodes the file once (`network-load`). It is
 *    terminated afterwards: nothing of the decoding (the file, the inflated stream, the decoded weights:
 *    ~300 MB) waits for a garbage collection in a worker that goes on searching.
 *    - Shared memory: the loader writes the weights into it; every solver worker then uses them in place
 *      (`network-attach`: the memory and a light descriptor, never the weights), each with its own
 *      transposition table in its slot of the same memory.
 *    - Without one (Firefox's event page is not isolated; or the memory could not be made or sent): the
 *      loader hands the decoded weights back, and they go from worker to worker (`network-copy`, transferred
 *      both ways: one buffer, no garbage left in any worker), each copying them into a memory of its own;
 *      the last worker's return goes back to the loader, which is then terminated.
 * 3. Progress (fetching, then the loader's decoding) and the outcome are reported as NetworkStatus.
 *
 * A failure anywhere (the file missing or corrupt, not enough memory, a worker crashing while it loads) puts
 * the network out of use for the pool's lifetime: the pool replaces every worker that holds it, so that the
 * parts of one search are never valued two ways, and the heuristic plays; the status says why.
 */
import type { Grid, NetworkDescriptor, StrategyName } from '../engine/index';
import { describeStrategy } from '../engine/strategies/index';
import type { NetworkStatus } from '../shared/network-status';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';
import { networkFailure } from './network-loader';
import type { WorkerRequest } from './protocol';

/** What the host hands over for the workers: the network file, and the memory to share it in (null: none). */
export interface NetworkSource {
  readonly file: Uint8Array;
  readonly memory: WebAssembly.Memory | null;
}

export interface PoolNetworkConfig {
  /** Fetch the packaged network file and make the memory to share it in; reports how much is fetched (0..1). */
  load(onProgress: (fraction: number) => void): Promise<NetworkSource>;
  /** Told every change of the network's state (the pages show it). */
  report(status: NetworkStatus): void;
  /** Time a worker has to load the network before it counts as failed. */
  readonly setupLimitMs?: number;
  /** A clock (ms), for the load time the ready status carries. */
  readonly now?: () => number;
}

/** The share of the progress bar the host's fetch takes (a local read); the loader's decoding the rest. */
const FETCH_SHARE = 0.2;
/** Progress is reported in steps of at least this many percent. */
const PROGRESS_STEP = 5;
const DEFAULT_SETUP_LIMIT_MS = 30_000;

type SupplyState = 'idle' | 'loading' | 'ready' | 'failed';

/** The requests that set a worker's network up, and what the loader and the workers get sent. */
export type NetworkSetup = Extract<WorkerRequest, { type: 'network-load' | 'network-attach' | 'network-copy' }>;
/** Decoded weights, as they travel between the workers without shared memory. */
type Weights = Int16Array | Float32Array;

export class NetworkSupply {
  state: SupplyState = 'idle';
  private source: NetworkSource | null = null;
  /** The network once decoded (in the shared memory, or as `weights`). */
  private descriptor: NetworkDescriptor | null = null;
  /** Without shared memory: the decoded weights, between two workers' copies (null while one has them). */
  private weights: Weights | null = null;
  private lent = false;
  /** The loader was sent the file and has not answered yet. */
  private loading = false;
  private lastPercent = -1;
  private startedAt = 0;

  constructor(
    private readonly config: PoolNetworkConfig,
    /** Called when the state changed (the pool pumps its queue again). */
    private readonly changed: () => void,
  ) {}

  get setupLimitMs(): number {
    return this.config.setupLimitMs ?? DEFAULT_SETUP_LIMIT_MS;
  }

  /** Is the network shared in one memory (else each worker holds a copy)? */
  get shared(): boolean {
    return this.source?.memory != null;
  }

  /** Does a search of `strategy` on `board` value positions with the network (then it waits for the load)? */
  static wanted(strategy: StrategyName, board: Grid): boolean {
    return describeStrategy(strategy).usesNetwork === true && board.rows === 4 && board.cols === 4;
  }

  /** Start loading (once). */
  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'loading';
    this.startedAt = this.clock();
    this.progress(0);
    this.config.load((fraction) => this.progress(FETCH_SHARE * fraction)).then(
      (source) => {
        if (this.state !== 'loading') return;
        this.source = source;
        this.state = 'ready';
        this.changed();
      },
      (err: unknown) => this.fail(networkFailure(err)),
    );
  }

  /**
   * The request for a loader, when one must decode the file now (the network is not decoded yet, or, without
   * shared memory, its weights were let go and a new worker needs them); null otherwise. `transfer`: the file
   * moves to the loader (the host keeps it only while workers may still need their own copies).
   */
  loaderRequest(id: number): { request: NetworkSetup; transfer: boolean } | null {
    if (this.state !== 'ready' || !this.source || this.loading || this.lent || this.weights) return null;
    if (this.source.memory && this.descriptor) return null;
    this.loading = true;
    const { file, memory } = this.source;
    return { request: { type: 'network-load', id, slot: 0, file, ...(memory ? { memory } : {}) }, transfer: memory !== null };
  }

  /**
   * What a worker with table slot `slot` must be sent before its first search: a setup request; 'wait' while the
   * loader decodes or another worker has the weights; null when there is no network to set up (none, or failed).
   */
  setupFor(slot: number, id: number): NetworkSetup | 'wait' | null {
    if (this.state !== 'ready' || !this.source) return null;
    if (this.source.memory) return this.descriptor ? { type: 'network-attach', id, slot, memory: this.source.memory, descriptor: this.descriptor } : 'wait';
    if (!this.weights || !this.descriptor) return 'wait';
    const weights = this.weights;
    this.weights = null;
    this.lent = true;
    return { type: 'network-copy', id, slot, descriptor: this.descriptor, weights };
  }

  /** The shared memory could not be sent to a worker (a context that is not isolated): each worker gets its own copy. */
  unshareable(): void {
    if (this.source) this.source = { ...this.source, memory: null };
    this.loading = false;
  }

  /** The loader's decoding progress (0..1). */
  decoding(fraction: number): void {
    this.progress(FETCH_SHARE + (1 - FETCH_SHARE) * fraction);
  }

  /** The loader decoded the network: into the shared memory, or into `weights` handed back. */
  decoded(descriptor: NetworkDescriptor, weights: Weights | undefined): void {
    this.loading = false;
    this.descriptor = descriptor;
    if (weights) this.weights = weights;
    if (this.source?.memory) this.source = { ...this.source, file: new Uint8Array(0) }; // transferred to the loader
  }

  /** A worker copied the weights into its own memory and handed them back. */
  returned(weights: Weights | undefined): void {
    if (!this.lent) return;
    this.lent = false;
    if (weights) this.weights = weights;
  }

  /** The weights handed back by the last worker, to go back to the loader before it ends (null: none). */
  takeWeights(): Weights | null {
    const weights = this.weights;
    this.weights = null;
    return weights;
  }

  /** The pool's workers are set up: `ready` of them hold the network, none is loading it. */
  settled(ready: number): void {
    if (this.state !== 'ready' || ready === 0) return;
    this.lastPercent = 100;
    this.config.report({ state: 'ready', memory: this.shared ? 'shared' : 'copies', workers: ready, ms: Math.round(this.clock() - this.startedAt) });
  }

  /** The network is out of use for good (the pool replaces the workers that hold it). */
  fail(reason: StatusMessage): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.source = null;
    this.descriptor = null;
    this.weights = null;
    this.lent = false;
    this.loading = false;
    this.config.report({ state: 'failed', reason });
    this.changed();
  }

  /** A worker died, or stalled, while it set the network up. */
  crashed(): void {
    this.fail(statusMessage('networkWorkerFailed'));
  }

  private progress(fraction: number): void {
    const percent = Math.min(99, Math.floor(fraction * 100));
    if (this.lastPercent >= 0 && percent < this.lastPercent + PROGRESS_STEP) return;
    this.lastPercent = percent;
    this.config.report({ state: 'loading', percent });
  }

  private clock(): number {
    return this.config.now?.() ?? Date.now();
  }
}
