/**
 * The solver pool's split sessions (src/solver/split-host.ts, src/solver/pool-split.ts): with a split, an
 * expectimax decision on a 4x4 board is one task of every worker, each iteration a `split-search` per worker,
 * answered here by fake workers that run the workers' real side (src/solver/worker-split.ts) in this thread,
 * one after the other (so the first takes every child and the second finds nothing left: the values and move
 * executions are the reference's exactly). Other strategies, and a pool without a split, go by root move.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { getStrategy, legalMoves, mergeChoices } from '../../../src/engine/index';
import type { Grid } from '../../../src/engine/index';
import { cheapPositions, expectReferenceValues, limitOf } from '../../support/reference-positions';
import { SHARED_WASM_FILE } from '../../../src/cli/wasm-files';
import { SolverPool } from '../../../src/solver/pool';
import { SearchCancelledError } from '../../../src/solver/pool-api';
import type { SolverWorker } from '../../../src/solver/pool-api';
import type { WorkerRequest, WorkerResponse } from '../../../src/solver/protocol';
import { PoolSplit, canSplit } from '../../../src/solver/split-host';
import { attachSplit, runSplit } from '../../../src/solver/worker-split';

const module = new WebAssembly.Module(readFileSync(SHARED_WASM_FILE));

/** A worker whose split searches run the worker side in this thread (a macrotask each); `start` answers at once. */
class SplitWorker implements SolverWorker {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly received: WorkerRequest[] = [];

  constructor(private readonly crash: boolean) {}

  postMessage(message: WorkerRequest): void {
    this.received.push(message);
    const answer = (data: WorkerResponse): void => this.onmessage?.({ data });
    if (message.type === 'split-attach') attachSplit(module, message);
    else if (message.type === 'split-search') {
      if (this.crash) setTimeout(() => this.onerror?.(new Error('boom')), 1);
      else setTimeout(() => runSplit(message, answer), 0);
    } else if (message.type === 'start') {
      setTimeout(() => answer({ type: 'result', id: message.id, choice: { strategy: message.strategy, move: message.options.rootMoves?.[0] ?? 'up', values: {}, depth: 1, nodes: 1, ms: 1 } }), 0);
    }
  }

  terminate(): void {}
}

let current: SolverPool | null = null;

function makePool(split: boolean, crash: boolean[] = []): { pool: SolverPool; workers: SplitWorker[] } {
  const workers: SplitWorker[] = [];
  const pool = new SolverPool({
    size: 2,
    createWorker: () => {
      const worker = new SplitWorker(crash[workers.length] ?? false);
      workers.push(worker);
      return worker;
    },
    engine: { legalMoves, mergeChoices, fallback: (grid) => getStrategy('priority').chooseMove(grid, {}) },
    cancelGraceMs: 200,
    startupGraceMs: 0,
    ...(split ? { split: new PoolSplit(16) } : {}),
  });
  current = pool;
  return { pool, workers };
}

afterEach(() => {
  current?.dispose();
  current = null;
});

const sent = (workers: SplitWorker[], type: WorkerRequest['type']): WorkerRequest[] => workers.flatMap((w) => w.received.filter((m) => m.type === type));

const cheap = cheapPositions(2);
/** A 2 in the middle of a 4x4 board: all four moves are legal. */
const OPEN: Grid = { rows: 4, cols: 4, cells: [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };

describe('canSplit', () => {
  it('needs a cross-origin-isolated context', () => {
    expect(canSplit({ crossOriginIsolated: true })).toBe(true);
    expect(canSplit({ crossOriginIsolated: false })).toBe(false);
    expect(canSplit({})).toBe(false);
  });
});

describe('SolverPool with a split', () => {
  it.each(cheap.map((p, i) => [i, p] as const))('searches reference position %i as one split session, its values and move executions the reference\'s', async (_i, p) => {
    const { pool, workers } = makePool(true);
    const { choice } = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: p.board, options: { depth: limitOf(p.board), evaluation: 'heuristic' } });
    expect(pool.stats().split).toBe('shared');
    expect(workers).toHaveLength(2);
    expect(sent(workers, 'split-attach')).toHaveLength(2);
    expect(sent(workers, 'start')).toHaveLength(0);
    expect(sent(workers, 'split-search').map((m) => (m.type === 'split-search' ? m.thread : -1)).sort()).toEqual([0, 1]);
    expectReferenceValues(choice, p);
    expect(choice.engine).toBe('wasm');
    expect(choice.evaluation).toBe('heuristic');
  });

  it('deepens a timed decision with the time manager, one split search per iteration', async () => {
    const { pool, workers } = makePool(true);
    const { choice } = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: OPEN, options: { timeMs: 40 } });
    expect(legalMoves(OPEN)).toContain(choice.move);
    expect(choice.depth).toBeGreaterThanOrEqual(1);
    expect(sent(workers, 'split-search').length).toBeGreaterThanOrEqual(2);
    expect(pool.busy).toBe(false);
  });

  it('stops a cancelled session and frees the workers for the next request', async () => {
    const { pool } = makePool(true);
    const first = pool.solve({ requestId: 'a', channel: 't', strategy: 'expectimax', board: OPEN, options: { timeMs: 5_000 } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const started = performance.now();
    const second = pool.solve({ requestId: 'b', channel: 't', strategy: 'expectimax', board: OPEN, options: { depth: 2 } });
    await expect(first).rejects.toBeInstanceOf(SearchCancelledError);
    const { choice } = await second;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(choice.depth).toBe(2);
    expect(pool.stats().replaced).toBe(0);
  });

  it('gives a fallback move with a note when a worker crashes in a session, and replaces it', async () => {
    const { pool, workers } = makePool(true, [false, true]);
    const result = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: OPEN, options: { timeMs: 40 } });
    expect(result.note).toBeDefined();
    expect(legalMoves(OPEN)).toContain(result.choice.move);
    expect(pool.stats().replaced).toBe(1);
    expect(workers).toHaveLength(3);
    expect(sent([workers[2]], 'split-attach')).toHaveLength(1);
  });

  it('goes back to the split by root move once a worker cannot search its share', async () => {
    const { pool, workers } = makePool(true);
    await pool.solve({ requestId: 'warm', strategy: 'expectimax', board: OPEN, options: { depth: 1 } });
    // A worker whose split core never loaded answers split-failed.
    const broken = workers[1];
    broken.postMessage = (message: WorkerRequest): void => {
      broken.received.push(message);
      if (message.type === 'split-search') setTimeout(() => broken.onmessage?.({ data: { type: 'split-failed', id: message.id, error: 'no split core' } }), 0);
      else if (message.type === 'start') setTimeout(() => broken.onmessage?.({ data: { type: 'result', id: message.id, choice: { strategy: 'expectimax', move: 'up', values: {}, depth: 1, nodes: 1, ms: 1 } } }), 0);
    };
    const failed = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: OPEN, options: { timeMs: 40 } });
    expect(failed.note).toBeDefined();
    const next = await pool.solve({ requestId: 'b', strategy: 'expectimax', board: OPEN, options: { timeMs: 20 } });
    expect(next.split).toBe('roots');
    expect(next.note).toBeUndefined();
  });

  it('splits other strategies by root move', async () => {
    const { pool, workers } = makePool(true);
    await pool.solve({ requestId: 'a', strategy: 'minimax', board: OPEN, options: { timeMs: 20 } });
    expect(sent(workers, 'start')).toHaveLength(2);
    expect(sent(workers, 'split-search')).toHaveLength(0);
  });
});

describe('SolverPool without a split', () => {
  it('splits expectimax by root move and says so', async () => {
    const { pool, workers } = makePool(false);
    await pool.solve({ requestId: 'a', strategy: 'expectimax', board: OPEN, options: { timeMs: 20 } });
    expect(pool.stats().split).toBe('roots');
    expect(sent(workers, 'start')).toHaveLength(2);
    expect(sent(workers, 'split-attach')).toHaveLength(0);
  });
});
