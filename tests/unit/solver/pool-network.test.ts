/**
 * The pool's learned network (src/solver/network-supply.ts), with fake workers: loaded as the first search of
 * a strategy that uses it on a 4x4 board ends (never by the warm-up); decoded once by a loader worker that ends afterwards; one shared
 * memory that every worker attaches to (only a descriptor travels), or without one the decoded weights going
 * from worker to worker and back to the loader; the heuristic plays until it is decoded (the first move at
 * once), then no search starts before every worker has it; progress and the outcome reported; any failure
 * puts it out of use with the reason, and the heuristic plays.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getStrategy, legalMoves, mergeChoices } from '../../../src/engine/index';
import type { Grid, MoveChoice } from '../../../src/engine/types';
import { SolverPool } from '../../../src/solver/pool';
import type { SolverWorker } from '../../../src/solver/pool-api';
import type { NetworkSource } from '../../../src/solver/network-supply';
import { NetworkLoadError } from '../../../src/solver/network-loader';
import type { WorkerRequest, WorkerResponse } from '../../../src/solver/protocol';
import type { NetworkStatus } from '../../../src/shared/network-status';

const OPEN: Grid = { rows: 4, cols: 4, cells: [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] };
const FIVE: Grid = { rows: 5, cols: 5, cells: [2, ...new Array<number>(24).fill(0)] };
const DESCRIPTOR = { shape: '4x4' as const, encoding: 'i16' as const, scale: 0.5, stages: [0], metadata: { test: 'fake' } };

type LoaderBehaviour = 'decode' | 'fail' | 'crash' | 'slow';

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
        if (this.options.loader === 'slow') {
          // Progress every 10 ms for 80 ms: longer than a 30 ms setup limit, yet never stalled for it.
          for (let i = 1; i < 8; i++) answer({ type: 'network-progress', id: message.id, fraction: i / 8 }, i * 10);
          answer({ type: 'network-ready', id: message.id, descriptor: DESCRIPTOR, shared: true }, 80);
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
  options: Partial<{ loader: LoaderBehaviour; crashOnAttach: boolean; refuseMemory: boolean; setupLimitMs: number }> = {},
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
        log.push('load');
        onProgress(0.5);
        onProgress(1);
        return load();
      },
      report: (status) => harness.statuses.push(status),
      now: () => 0,
      ...(options.setupLimitMs !== undefined ? { setupLimitMs: options.setupLimitMs } : {}),
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

/** Search until a move is valued by the network: the choices in order (the heuristic's first, while it loads). */
async function untilNetwork(pool: SolverPool, strategy: 'expectimax' | 'network' = 'expectimax'): Promise<MoveChoice[]> {
  const choices: MoveChoice[] = [];
  for (let i = 0; i < 200 && choices.at(-1)?.evaluation !== 'network'; i++) choices.push((await solve(pool, strategy, OPEN, `u${i}`)).choice);
  return choices;
}

/** Search until the network is ready or failed (the statuses say): the last search's choice. */
async function untilLoaded(harness: Harness): Promise<MoveChoice> {
  let choice = (await solve(harness.pool, 'expectimax', OPEN, 'l')).choice;
  for (let i = 0; i < 200 && harness.statuses.at(-1)?.state === 'loading'; i++) choice = (await solve(harness.pool, 'expectimax', OPEN, `l${i}`)).choice;
  return choice;
}

describe('the learned network in the pool', () => {
  it('loads as the first search of a strategy that uses it on a 4x4 board ends, not before', async () => {
    const { pool, statuses } = makePool(2, 'shared');
    pool.warm();
    await solve(pool, 'greedy', OPEN, 'a');
    await solve(pool, 'expectimax', FIVE, 'b');
    expect(statuses).toEqual([]);
    // The first move at once, valued by the heuristic, the load not yet begun (it would slow that search down);
    // the network loads as it ends, the heuristic valuing the moves meanwhile; then the network's.
    const searched = log.length;
    const { choice } = await solve(pool, 'expectimax', OPEN, 'c');
    expect(choice.evaluation).toBe('heuristic');
    expect(log.slice(searched).filter((line) => line.endsWith('answered result'))).toHaveLength(2);
    expect(log.at(-1)).toBe('load');
    expect(statuses[0]).toEqual({ state: 'loading', percent: 0 });
    const choices = await untilNetwork(pool);
    expect(choices.at(-1)?.evaluation).toBe('network');
    expect(statuses.at(-1)).toEqual({ state: 'ready', memory: 'shared', workers: 2, ms: 0 });
  });

  it('a search is never valued two ways: from the first network-valued search on, every part is the network’s', async () => {
    const { pool } = makePool(3, 'copies');
    const choices = await untilNetwork(pool);
    for (let i = 0; i < 5; i++) choices.push((await solve(pool, 'expectimax', OPEN, `more${i}`)).choice);
    const first = choices.findIndex((c) => c.evaluation === 'network');
    expect(first).toBeGreaterThan(0);
    expect(choices.slice(0, first).every((c) => c.evaluation === 'heuristic')).toBe(true);
    expect(choices.slice(first).every((c) => c.evaluation === 'network')).toBe(true);
  });

  it('shared memory: a loader decodes the file into it (the file transferred) and ends; every worker attaches in its own slot before the first search', async () => {
    const { pool, workers, statuses } = makePool(2, 'shared');
    const choice = (await untilNetwork(pool)).at(-1) as MoveChoice;
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
    const attaches = solvers.map((w) => w.received.find((r) => r.message.type !== 'start')?.message as WorkerRequest);
    expect(attaches.map((m) => m.type)).toEqual(['network-attach', 'network-attach']);
    expect(attaches.map((m) => ('slot' in m ? m.slot : -1)).sort()).toEqual([0, 1]);
    for (const m of attaches) if (m.type === 'network-attach') expect(m.memory).toBe(request.memory);
    // The first search before any attach (the heuristic's, at once); no search from the first attach until
    // both workers have the network; the loader gone before the first attach.
    const firstStart = log.findIndex((line) => line.endsWith('start'));
    const firstAttach = log.findIndex((line) => line.includes('network-attach'));
    const attached = log.findLastIndex((line) => line.endsWith('answered network-ready') && !line.startsWith(`${loader.index} `));
    expect(firstStart).toBeLessThan(firstAttach);
    expect(log.findIndex((line) => line === `${loader.index} terminated`)).toBeLessThan(firstAttach);
    expect(log.slice(firstAttach, attached + 1).filter((line) => line.endsWith(' start'))).toEqual([]);
    expect(choice.evaluation).toBe('network');
    expect(statuses.map((s) => (s.state === 'loading' ? s.percent : s.state))).toEqual([0, 10, 20, 60, 'ready']);
  });

  it('without shared memory: the decoded weights go from worker to worker, transferred, one at a time, and back to the loader, which ends', async () => {
    const { pool, workers, statuses } = makePool(3, 'copies');
    expect((await untilNetwork(pool)).at(-1)?.evaluation).toBe('network');
    const loader = loaderOf(workers);
    const load = loader.received[0];
    expect('memory' in load.message && load.message.memory).toBeFalsy();
    expect(load.transfer).toEqual([]); // the host keeps the file for workers that replace crashed ones
    const copies = workers.filter((w) => w !== loader).map((w) => w.received.find((r) => r.message.type !== 'start') as (typeof w.received)[number]);
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
    expect((await untilNetwork(pool, 'network')).at(-1)?.evaluation).toBe('network');
    expect(workers.some((w) => w.received.some((r) => r.message.type === 'network-copy'))).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ state: 'ready', memory: 'copies' });
  });

  it('a file that cannot be read puts the network out of use with the reason, and the heuristic plays', async () => {
    const { pool, workers, statuses } = makePool(2, () => Promise.reject(new NetworkLoadError('HTTP 404')));
    const { choice } = await solve(pool, 'expectimax');
    expect(choice.evaluation).toBe('heuristic');
    await new Promise((done) => setTimeout(done, 0)); // the load began as that search ended
    expect(statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkLoadFailed', params: ['HTTP 404'] } });
    expect(workers.every((w) => w.received.every((r) => !r.message.type.startsWith('network')))).toBe(true);
    // Out of use for the pool's lifetime: no second load.
    await solve(pool, 'expectimax', OPEN, 'again');
    expect(current?.loads).toBe(1);
  });

  it('a loader that goes on making progress is waited for past the setup limit; the heuristic plays meanwhile', async () => {
    const { pool, statuses } = makePool(2, 'shared', { loader: 'slow', setupLimitMs: 30 });
    const choices = await untilNetwork(pool);
    expect(choices[0].evaluation).toBe('heuristic');
    expect(choices.at(-1)?.evaluation).toBe('network');
    expect(statuses.at(-1)).toMatchObject({ state: 'ready' });
  });

  it('a corrupt file (the loader says so) and a loader that crashes are failures with their reason', async () => {
    const corrupt = makePool(2, 'shared', { loader: 'fail' });
    expect((await untilLoaded(corrupt)).evaluation).toBe('heuristic');
    expect(corrupt.statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkLoadFailed', params: ['the network file is corrupt (weights checksum mismatch)'] } });
    corrupt.pool.dispose();

    const crash = makePool(2, 'copies', { loader: 'crash' });
    expect((await untilLoaded(crash)).evaluation).toBe('heuristic');
    expect(crash.statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkWorkerFailed' } });
    expect(loaderOf(crash.workers).terminated).toBe(true);
  });

  it('a worker that crashes while it attaches puts the network out of use: the workers that hold it are replaced, the parts of a search are valued one way', async () => {
    const harness = makePool(2, 'shared', { crashOnAttach: true });
    const { pool, workers, statuses } = harness;
    await untilLoaded(harness);
    expect(statuses.at(-1)).toEqual({ state: 'failed', reason: { code: 'networkWorkerFailed' } });
    const { choice } = await solve(pool, 'expectimax', OPEN, 'after');
    expect(choice.evaluation).toBe('heuristic');
    const attached = workers.filter((w) => w.hasNetwork);
    expect(attached.every((w) => w.terminated)).toBe(true);
    expect(pool.stats().replaced).toBeGreaterThanOrEqual(2);
  });
});
