/**
 * The pool's learned network (src/solver/network-supply.ts), with fake workers: loaded at the first search of
 * a strategy that uses it on a 4x4 board; decoded once by a loader worker that ends afterwards; one shared
 * memory that every worker attaches to (only a descriptor travels), or without one the decoded weights going
 * from worker to worker and back to the loader; no search before every worker has it; progress and the
 * outcome reported; any failure puts it out of use with the reason, and the heuristic plays.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getStrategy, legalMoves, mergeChoices } from '../../../src/engine/index';
import type { Grid, MoveChoice } from '../../../src/engine/types';
import { SolverPool } from '../../../src/solver/pool';
import type { SolverWorker } from '../../../src/solver/pool';
import type { NetworkSource } from '../../../src/solver/network-supply';
import { NetworkLoadError } from '../../../src/solver/network-loader';
import type { WorkerRequest, WorkerResponse } from '../../../src/solver/protocol';
import type { NetworkStatus } from '../../../src/shared/network-status';

const OPEN: Grid = { rows: 4, cols: 4, cells: [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] };
const FIVE: Grid = { rows: 5, cols: 5, cells: [2, ...new Array<number>(24).fill(0)] };
const DESCRIPTOR = { shape: '4x4' as const, encoding: 'i16' as const, scale: 0.5, stages: [0], metadata: { test: 'fake' } };

type LoaderBehaviour = 'decode' | 'fail' | 'crash';

/** Everything the pool sent and the workers did, in order. */
const log: string[] = [];

class NetWorker implements SolverWorker {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly received: { message: WorkerRequest; transfer: Transferable[] }[] = [];
  terminated = false;
  hasNetwork = false;

  constructor(
    readonly index: number,
    private readonly options: { loader: LoaderBehaviour; crashOnAttach: boolean; refuseMemory: boolean },
  ) {}

  postMessage(message: WorkerRequest, transfer: Transferable[] = []): void {
    if (this.options.refuseMemory && 'memory' in message && message.memory) throw new DOMException('WebAssembly.Memory cannot be serialized', 'DataCloneError');
    this.received.push({ message, transfer });
    log.push(`${this.index} ${message.type}${'slot' in message ? ` slot ${message.slot}` : ''}`);
    const answer = (data: WorkerResponse, later = 1): void => {
      setTimeout(() => {
        if (this.terminated) return;
        log.push(`${this.index} answered ${data.type}`);
        this.onmessage?.({ data });
      }, later);
    };
    switch (message.type) {
      case 'start': {
        const values = Object.fromEntries((message.options.rootMoves ?? legalMoves(message.board)).map((move) => [move, 1]));
        const choice: MoveChoice = { strategy: message.strategy, move: null, values, depth: 1, nodes: 1, ms: 1, evaluation: this.hasNetwork ? 'network' : 'heuristic' };
        answer({ type: 'result', id: message.id, choice });
        return;
      }
      case 'cancel':
        return;
      case 'network-load':
        if (this.options.loader === 'crash') {
          setTimeout(() => this.onerror?.(new Error('out of memory')), 1);
          return;
        }
        if (this.options.loader === 'fail') {
          answer({ type: 'network-failed', id: message.id, reason: { code: 'networkLoadFailed', params: ['the network file is corrupt (weights checksum mismatch)'] } });
          return;
        }
        answer({ type: 'network-progress', id: message.id, fraction: 0.5 });
        answer(
          message.memory
            ? { type: 'network-ready', id: message.id, descriptor: DESCRIPTOR, shared: true }
            : { type: 'network-ready', id: message.id, descriptor: DESCRIPTOR, shared: false, weights: new Int16Array([1, 2, 3]) },
          3,
        );
        return;
      case 'network-attach':
        if (this.options.crashOnAttach && this.index > 0) {
          setTimeout(() => this.onerror?.(new Error('boom')), 1);
          return;
        }
        this.hasNetwork = true;
        answer({ type: 'network-ready', id: message.id, descriptor: message.descriptor, shared: true });
        return;
      case 'network-copy':
        this.hasNetwork = true;
        answer({ type: 'network-ready', id: message.id, descriptor: message.descriptor, shared: false, weights: message.weights }, 2);
        return;
      case 'network-drop':
        return;
    }
  }

  terminate(): void {
    this.terminated = true;
    log.push(`${this.index} terminated`);
  }
}

interface Harness {
  pool: SolverPool;
  workers: NetWorker[];
  statuses: NetworkStatus[];
  loads: number;
}

let current: Harness | null = null;

function makePool(
  size: number,
  source: (() => Promise<NetworkSource>) | 'shared' | 'copies',
  options: Partial<{ loader: LoaderBehaviour; crashOnAttach: boolean; refuseMemory: boolean }> = {},
): Harness {
  log.length = 0;
  const workers: NetWorker[] = [];
  const harness: Harness = { pool: undefined as unknown as SolverPool, workers, statuses: [], loads: 0 };
  const behaviour = { loader: options.loader ?? 'decode', crashOnAttach: options.crashOnAttach ?? false, refuseMemory: options.refuseMemory ?? false };
  const load =
    typeof source === 'function'
      ? source
      : async (): Promise<NetworkSource> => ({
          file: new Uint8Array([1, 2, 3, 4]),
          memory: source === 'shared' ? new WebAssembly.Memory({ initial: 1, maximum: 2, shared: true }) : null,
        });
  harness.pool = new SolverPool({
    size,
    createWorker: () => {
      const worker = new NetWorker(workers.length, behaviour);
      workers.push(worker);
      return worker;
    },
    engine: { legalMoves, mergeChoices, fallback: (grid) => getStrategy('priority').chooseMove(grid, {}) },
    untimedLimitMs: 2_000,
    network: {
      load: async (onProgress) => {
        harness.loads++;
        onProgress(0.5);
        onProgress(1);
        return load();
      },
      report: (status) => harness.statuses.push(status),
      now: () => 0,
    },
  });
  current = harness;
  return harness;
}

afterEach(() => {
  current?.pool.dispose();
  current = null;
});

function loaderOf(workers: readonly NetWorker[]): NetWorker {
  const loader = workers.find((w) => w.received.some((r) => r.message.type === 'network-load'));
  if (!loader) throw new Error('no loader');
  return loader;
}

const solve = (pool: SolverPool, strategy: 'expectimax' | 'greedy' | 'network', board = OPEN, requestId = 'r') =>
  pool.solve({ requestId, strategy, board, options: { depth: 2 } });

describe('the learned network in the pool', () => {
  it('loads at the first search of a strategy that uses it on a 4x4 board, not before', async () => {
    const { pool, statuses } = makePool(2, 'shared');
    await solve(pool, 'greedy', OPEN, 'a');
    await solve(pool, 'expectimax', FIVE, 'b');
    expect(statuses).toEqual([]);
    const { choice } = await solve(pool, 'expectimax', OPEN, 'c');
    expect(choice.evaluation).toBe('network');
    expect(statuses.at(-1)).toEqual({ state: 'ready', memory: 'shared', workers: 2, ms: 0 });
  });

  it('shared memory: a loader decodes the file into it (the file transferred) and ends; every worker attaches in its own slot before the first search', async () => {
    const { pool, workers, statuses } = makePool(2, 'shared');
    const { choice } = await solve(pool, 'expectimax');
    const loader = loaderOf(workers);
    const load = loader.received[0];
    expect(load.message).toMatchObject({ type: 'network-load', slot: 0 });
    const request = load.message as Extract<WorkerRequest, { type: 'network-load' }>;
    expect(request.memory).toBeInstanceOf(WebAssembly.Memory);
    expect(load.transfer).toEqual([request.file.buffer]);
    expect(loader.terminated).toBe(true);
    expect(loader.received.some((r) => r.message.type === 'start')).toBe(false);
    const solvers = workers.filter((w) => w !== loader);
    expect(solvers).toHaveLength(2);
    const attaches = solvers.map((w) => w.received[0].message);
    expect(attaches.map((m) => m.type)).toEqual(['network-attach', 'network-attach']);
    expect(attaches.map((m) => ('slot' in m ? m.slot : -1)).sort()).toEqual([0, 1]);
    for (const m of attaches) if (m.type === 'network-attach') expect(m.memory).toBe(request.memory);
    // Every attach before the first search, and the loader gone before them.
    const firstStart = log.findIndex((line) => line.endsWith('start'));
    expect(log.findIndex((line) => line === `${loader.index} terminated`)).toBeLessThan(firstStart);
    expect(log.filter((line, i) => line.includes('network-attach') && i < firstStart)).toHaveLength(2);
    expect(choice.evaluation).toBe('network');
    expect(statuses.map((s) => (s.state === 'loading' ? s.percent : s.state))).toEqual([0, 10, 20, 60, 'ready']);
  });

  it('without shared memory: the decoded weights go from worker to worker, transferred, one at a time, and back to the loader, which ends', async () => {
    const { pool, workers, statuses } = makePool(3, 'copies');
    const { choice } = await solve(pool, 'expectimax');
    expect(choice.evaluation).toBe('network');
    const loader = loaderOf(workers);
    const load = loader.received[0];
    expect('memory' in load.message && load.message.memory).toBeFalsy();
    expect(load.transfer).toEqual([]); // the host keeps the file for workers that replace crashed ones
    const copies = workers.filter((w) => w !== loader).map((w) => w.received[0]);
    expect(copies.map((c) => c.message.type)).toEqual(['network-copy', 'network-copy', 'network-copy']);
    for (const copy of copies) if (copy.message.type === 'network-copy') expect(copy.transfer).toEqual([copy.message.weights.buffer]);
    // One at a time: each copy goes out after the previous worker handed the weights back (one buffer).
    const sequence = log.filter((line) => line.includes('network-copy') || line.endsWith('answered network-ready'));
    expect(sequence.map((line) => line.replace(/^\d+ /, '').replace(/ slot \d/, ''))).toEqual([
      'answered network-ready', // the loader
      'network-copy',
      'answered network-ready',
      'network-copy',
      'answered network-ready',
      'network-copy',
      'answered network-ready',
    ]);
    const drop = loader.received.find((r) => r.message.type === 'network-drop');
    expect(drop?.transfer).toHaveLength(1);
    expect(loader.terminated).toBe(true);
    expect(log.indexOf(`${loader.index} network-drop`)).toBeLessThan(log.indexOf(`${loader.index} terminated`));
    expect(statuses.at(-1)).toEqual({ state: 'ready', memory: 'copies', workers: 3, ms: 0 });
  });

  it('a shared memory the workers cannot take makes one copy per worker', async () => {
    const { pool, workers, statuses } = makePool(2, 'shared', { refuseMemory: true });
    const { choice } = await solve(pool, 'network');
    expect(choice.evaluation).toBe('network');
    expect(workers.some((w) => w.received.some((r) => r.message.type === 'network-copy'))).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ state: 'ready', memory: 'copies' });
  });

  it('a file that cannot be read puts the network out of use with the reason, and the heuristic plays', async () => {
    const { pool, workers, statuses } = makePool(2, () => Promise.reject(new NetworkLoadError('HTTP 404')));
    const { choice } = await solve(pool, 'expectimax');
    expect(choice.evaluation).toBe('heuristic');
    expect(statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkLoadFailed', params: ['HTTP 404'] } });
    expect(workers.every((w) => w.received.every((r) => !r.message.type.startsWith('network')))).toBe(true);
    // Out of use for the pool's lifetime: no second load.
    await solve(pool, 'expectimax', OPEN, 'again');
    expect(current?.loads).toBe(1);
  });

  it('a corrupt file (the loader says so) and a loader that crashes are failures with their reason', async () => {
    const corrupt = makePool(2, 'shared', { loader: 'fail' });
    expect((await solve(corrupt.pool, 'expectimax')).choice.evaluation).toBe('heuristic');
    expect(corrupt.statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkLoadFailed', params: ['the network file is corrupt (weights checksum mismatch)'] } });
    corrupt.pool.dispose();

    const crash = makePool(2, 'copies', { loader: 'crash' });
    expect((await solve(crash.pool, 'expectimax')).choice.evaluation).toBe('heuristic');
    expect(crash.statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkWorkerFailed' } });
    expect(loaderOf(crash.workers).terminated).toBe(true);
  });

  it('a worker that crashes while it attaches puts the network out of use: the workers that hold it are replaced, the parts of a search are valued one way', async () => {
    const { pool, workers, statuses } = makePool(2, 'shared', { crashOnAttach: true });
    const { choice } = await solve(pool, 'expectimax');
    expect(statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkWorkerFailed' } });
    expect(choice.evaluation).toBe('heuristic');
    const attached = workers.filter((w) => w.hasNetwork);
    expect(attached.every((w) => w.terminated)).toBe(true);
    expect(pool.stats().replaced).toBeGreaterThanOrEqual(2);
  });
});
