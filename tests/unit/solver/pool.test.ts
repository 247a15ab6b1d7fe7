import { afterEach, describe, expect, it } from 'vitest';
import { getStrategy, legalMoves, mergeChoices } from '../../../src/engine/index';
import type { Direction, Grid, MoveChoice, SearchOptions, StrategyName } from '../../../src/engine/types';
import { SolverPool } from '../../../src/solver/pool';
import { SearchCancelledError } from '../../../src/solver/pool-api';
import { partLimitMs, planParts } from '../../../src/solver/pool-plan';
import type { PoolConfig, SolverWorker } from '../../../src/solver/pool-api';
import type { WorkerRequest } from '../../../src/solver/protocol';
import { poolSize } from '../../../src/solver/size';

/** A 2 in the middle of a 4x4 board: all four moves are legal. */
const OPEN: Grid = { rows: 4, cols: 4, cells: [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
/** A 2 in the top-left corner: only down and right are legal. */
const CORNER: Grid = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };
/** A full board without merges: no legal move. */
const DEAD: Grid = { rows: 2, cols: 2, cells: [2, 4, 4, 2] };

/** Values a fake search gives each move: right is best. */
const VALUE: Record<Direction, number> = { up: 10, down: 30, left: 20, right: 40 };

type Behaviour = 'answer' | 'silent' | 'crash' | 'ignore-cancel';

class FakeWorker implements SolverWorker {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly received: WorkerRequest[] = [];
  terminated = false;
  private readonly running = new Set<number>();

  constructor(private readonly behaviour: () => Behaviour) {}

  postMessage(message: WorkerRequest): void {
    this.received.push(message);
    if (message.type === 'cancel') {
      if (this.behaviour() === 'ignore-cancel' || !this.running.has(message.id)) return;
      this.running.delete(message.id);
      queueMicrotask(() => this.onmessage?.({ data: { type: 'error', id: message.id, error: 'cancelled', aborted: true } }));
      return;
    }
    if (message.type !== 'start') return;
    const mode = this.behaviour();
    this.running.add(message.id);
    if (mode === 'crash') {
      queueMicrotask(() => this.onerror?.(new Error('boom')));
    } else if (mode === 'answer') {
      setTimeout(() => {
        if (!this.running.delete(message.id) || this.terminated) return;
        this.onmessage?.({ data: { type: 'result', id: message.id, choice: fakeSearch(message.strategy, message.options) } });
      }, 1);
    }
  }

  terminate(): void {
    this.terminated = true;
  }
}

function fakeSearch(strategy: StrategyName, options: SearchOptions): MoveChoice {
  const moves = options.rootMoves ?? (['up', 'down', 'left', 'right'] as const);
  const values: Partial<Record<Direction, number>> = {};
  for (const move of moves) values[move] = VALUE[move] + (strategy === 'montecarlo' ? (options.seed ?? 0) % 3 : 0);
  const best = [...moves].sort((a, b) => VALUE[b] - VALUE[a])[0] ?? null;
  return {
    strategy,
    move: best,
    values,
    depth: 3,
    nodes: 100,
    ms: 1,
    ...(strategy === 'montecarlo' ? { samples: options.playouts ?? 100 } : {}),
  };
}

interface Harness {
  pool: SolverPool;
  workers: FakeWorker[];
  fallbacks: number;
}

let current: Harness | null = null;

function makePool(size: number, behaviours: Behaviour[] = [], config: Partial<PoolConfig> = {}): Harness {
  const workers: FakeWorker[] = [];
  const harness: Harness = { pool: undefined as unknown as SolverPool, workers, fallbacks: 0 };
  harness.pool = new SolverPool({
    size,
    createWorker: () => {
      const index = workers.length;
      const worker = new FakeWorker(() => behaviours[index] ?? 'answer');
      workers.push(worker);
      return worker;
    },
    engine: {
      legalMoves,
      mergeChoices,
      fallback: (grid) => {
        harness.fallbacks++;
        return getStrategy('priority').chooseMove(grid, {});
      },
    },
    overrunFactor: 1,
    overrunGraceMs: 40,
    untimedLimitMs: 200,
    cancelGraceMs: 40,
    startupGraceMs: 0,
    ...config,
  });
  current = harness;
  return harness;
}

afterEach(() => {
  current?.pool.dispose();
  current = null;
});

function starts(workers: FakeWorker[]): Extract<WorkerRequest, { type: 'start' }>[] {
  return workers.flatMap((w) => w.received.filter((m): m is Extract<WorkerRequest, { type: 'start' }> => m.type === 'start'));
}

describe('planParts', () => {
  it('gives each worker its own root moves, round-robin when there are fewer workers', () => {
    const four = planParts('expectimax', { timeMs: 50 }, ['up', 'down', 'left', 'right'], 4);
    expect(four.map((p) => p.rootMoves)).toEqual([['up'], ['down'], ['left'], ['right']]);
    const two = planParts('minimax', { timeMs: 50 }, ['up', 'down', 'left', 'right'], 2);
    expect(two.map((p) => p.rootMoves)).toEqual([
      ['up', 'left'],
      ['down', 'right'],
    ]);
    expect(two.every((p) => p.timeMs === 50)).toBe(true);
  });

  it('never uses more parts than legal root moves, and honours a requested subset', () => {
    expect(planParts('greedy', {}, ['down', 'right'], 4).map((p) => p.rootMoves)).toEqual([['down'], ['right']]);
    expect(planParts('expectimax', { rootMoves: ['left', 'right'] }, ['down', 'right'], 4).map((p) => p.rootMoves)).toEqual([['right']]);
    expect(planParts('expectimax', {}, [], 4)).toEqual([]);
  });

  it('splits Monte-Carlo playouts over workers with distinct seeds and the same total', () => {
    const parts = planParts('montecarlo', { playouts: 10, seed: 7 }, ['up', 'down'], 4);
    expect(parts).toHaveLength(4);
    expect(parts.reduce((sum, p) => sum + (p.playouts ?? 0), 0)).toBe(10);
    expect(new Set(parts.map((p) => p.seed)).size).toBe(4);
    expect(planParts('montecarlo', { playouts: 2 }, ['up'], 4)).toHaveLength(2);
  });

  it('runs the instant strategies as one part', () => {
    expect(planParts('priority', {}, ['up', 'down'], 4)).toEqual([{}]);
    expect(planParts('random', { seed: 3 }, ['up'], 4)).toEqual([{ seed: 3 }]);
  });
});

describe('partLimitMs', () => {
  it('gives timed parts a wide margin and untimed searches the long limit', () => {
    expect(partLimitMs('expectimax', { timeMs: 100 })).toBeGreaterThanOrEqual(400);
    expect(partLimitMs('expectimax', { timeMs: 100, depth: 3 }, { untimedLimitMs: 9_000 })).toBe(9_000);
    expect(partLimitMs('expectimax', { reference: true }, { untimedLimitMs: 9_000 })).toBe(9_000);
    expect(partLimitMs('montecarlo', { timeMs: 100 }, { untimedLimitMs: 9_000 })).toBe(9_000);
  });
});

describe('poolSize', () => {
  it('uses one worker per core, at least 1 and at most 4', () => {
    expect(poolSize(1)).toBe(1);
    expect(poolSize(2)).toBe(2);
    expect(poolSize(16)).toBe(4);
    expect(poolSize(0)).toBe(1);
    expect(poolSize(undefined)).toBe(1);
    expect(poolSize(Number.NaN)).toBe(1);
  });

  it('keeps to two workers where each would hold its own copy of the network (no shared memory)', () => {
    expect(poolSize(16, false)).toBe(2);
    expect(poolSize(2, false)).toBe(2);
    expect(poolSize(1, false)).toBe(1);
    expect(poolSize(16, true)).toBe(4);
  });
});

describe('SolverPool', () => {
  it('warm() starts every worker ahead of the first search, which then runs on them', async () => {
    const { pool, workers } = makePool(3);
    pool.warm();
    expect(workers).toHaveLength(3);
    expect(workers.every((w) => w.received.length === 0)).toBe(true);
    pool.warm(); // once
    expect(workers).toHaveLength(3);
    await pool.solve({ requestId: 'r', strategy: 'expectimax', board: OPEN, options: { timeMs: 20 } });
    expect(workers).toHaveLength(3);
    expect(workers.every((w) => w.received.some((m) => m.type === 'start'))).toBe(true);
    pool.dispose();
    pool.warm(); // a pool that was shut down starts nothing
    expect(workers).toHaveLength(3);
  });

  it('splits an expectimax search by root move and merges the parts', async () => {
    const { pool, workers } = makePool(4);
    const result = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: OPEN, options: { timeMs: 20 } });
    expect(workers).toHaveLength(4);
    expect(starts(workers).map((m) => m.options.rootMoves)).toEqual([['up'], ['down'], ['left'], ['right']]);
    expect(result.choice.move).toBe('right');
    expect(result.choice.values).toEqual(VALUE);
    expect(result.choice.nodes).toBe(400);
    expect(result.note).toBeUndefined();
  });

  it('searches only the legal root moves', async () => {
    const { pool, workers } = makePool(4);
    const result = await pool.solve({ requestId: 'a', strategy: 'minimax', board: CORNER, options: { timeMs: 20 } });
    expect(starts(workers).map((m) => m.options.rootMoves)).toEqual([['down'], ['right']]);
    expect(Object.keys(result.choice.values).sort()).toEqual(['down', 'right']);
    expect(result.choice.move).toBe('right');
  });

  it('answers a board without a legal move at once, without a worker', async () => {
    const { pool, workers } = makePool(4);
    const result = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: DEAD, options: {} });
    expect(result.choice.move).toBeNull();
    expect(workers).toHaveLength(0);
  });

  it('queues parts when there are fewer workers than parts from several channels', async () => {
    const { pool, workers } = makePool(2);
    const [a, b] = await Promise.all([
      pool.solve({ requestId: '1', channel: 'tab:1', strategy: 'greedy', board: OPEN, options: { timeMs: 20 } }),
      pool.solve({ requestId: '1', channel: 'tab:2', strategy: 'greedy', board: OPEN, options: { timeMs: 20 } }),
    ]);
    expect(workers).toHaveLength(2);
    expect(a.choice.move).toBe('right');
    expect(b.choice.move).toBe('right');
    expect(pool.stats()).toMatchObject({ busy: 0, queued: 0, searches: 0 });
  });

  it('splits Monte-Carlo playouts and weights the parts by samples', async () => {
    const { pool, workers } = makePool(3);
    const result = await pool.solve({ requestId: 'a', strategy: 'montecarlo', board: OPEN, options: { playouts: 90, seed: 1 } });
    const parts = starts(workers);
    expect(parts).toHaveLength(3);
    expect(parts.map((m) => m.options.playouts)).toEqual([30, 30, 30]);
    expect(new Set(parts.map((m) => m.options.seed)).size).toBe(3);
    expect(result.choice.samples).toBe(90);
    expect(result.choice.move).toBe('right');
  });

  it('a newer request on the same channel cancels the older one', async () => {
    const { pool, workers } = makePool(4, ['silent', 'silent', 'silent', 'silent']);
    const older = pool.solve({ requestId: 'old', channel: 'tab:1', strategy: 'expectimax', board: OPEN, options: { timeMs: 1_000 } });
    const rejected = expect(older).rejects.toBeInstanceOf(SearchCancelledError);
    void pool.solve({ requestId: 'new', channel: 'tab:1', strategy: 'expectimax', board: OPEN, options: { timeMs: 1_000 } }).catch(() => undefined);
    await rejected;
    const cancels = workers.flatMap((w) => w.received.filter((m) => m.type === 'cancel'));
    expect(cancels).toHaveLength(4);
  });

  it('cancel rejects the search and tells its workers; a late answer is dropped', async () => {
    const { pool, workers } = makePool(2);
    const search = pool.solve({ requestId: 'x', strategy: 'expectimax', board: OPEN, options: { timeMs: 20 } });
    expect(pool.cancel('x')).toBe(true);
    await expect(search).rejects.toThrow(/cancelled/);
    expect(workers.every((w) => w.received.some((m) => m.type === 'cancel'))).toBe(true);
    expect(pool.cancel('x')).toBe(false);
    // The workers are free again for the next search.
    const next = await pool.solve({ requestId: 'y', strategy: 'expectimax', board: OPEN, options: { timeMs: 20 } });
    expect(next.choice.move).toBe('right');
  });

  it('replaces a crashed worker and answers from the surviving parts with a note', async () => {
    const { pool, workers } = makePool(4, ['answer', 'answer', 'answer', 'crash']);
    const result = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: OPEN, options: { timeMs: 20 } });
    expect(workers[3].terminated).toBe(true);
    expect(workers).toHaveLength(5); // the replacement
    expect(result.choice.values.right).toBeUndefined();
    expect(result.choice.move).toBe('down');
    expect(result.note?.code).toBe('partsFailedMoves');
    expect(result.note?.params?.slice(0, 2)).toEqual(['1', '4']);
    expect(result.note?.params?.[2]).toMatch(/crashed/);
    expect(pool.stats().replaced).toBe(1);
  });

  it('falls back to a cheap strategy when every part fails', async () => {
    const harness = makePool(2, ['crash', 'crash']);
    const result = await harness.pool.solve({ requestId: 'a', strategy: 'expectimax', board: CORNER, options: { timeMs: 20 } });
    expect(harness.fallbacks).toBe(1);
    expect(result.choice.strategy).toBe('priority');
    expect(result.choice.move).toBe('down');
    expect(result.note).toMatchObject({ code: 'solverFallback' });
    expect(result.note?.params?.[1]).toBe('priority');
  });

  it('terminates a worker that overruns its budget by a wide margin and replaces it', async () => {
    const { pool, workers } = makePool(2, ['answer', 'silent']);
    const result = await pool.solve({ requestId: 'a', strategy: 'expectimax', board: CORNER, options: { timeMs: 10 } });
    expect(workers[1].terminated).toBe(true);
    expect(result.choice.move).toBe('down');
    expect(result.note?.params?.[2]).toMatch(/overran/);
    // The replacement serves the next search.
    const again = await pool.solve({ requestId: 'b', strategy: 'expectimax', board: CORNER, options: { timeMs: 10 } });
    expect(again.note).toBeUndefined();
    expect(again.choice.move).toBe('right');
  });

  it("a new worker's first part has the startup grace (its core loads first); later parts do not", async () => {
    const { pool, workers } = makePool(1, [], { startupGraceMs: 150 });
    // The first part answers after 100 ms: within its budget (10 + 40) plus the grace, so the worker stays.
    const slow = (): void => {
      const worker = workers[0];
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message) => {
        if (message.type !== 'start') return post(message);
        worker.received.push(message);
        setTimeout(() => worker.onmessage?.({ data: { type: 'result', id: message.id, choice: fakeSearch('expectimax', message.options) } }), 100);
      };
    };
    const first = pool.solve({ requestId: 'a', strategy: 'expectimax', board: CORNER, options: { timeMs: 10 } });
    slow();
    expect((await first).note).toBeUndefined();
    expect(workers[0].terminated).toBe(false);
    // The same slowness on the warm worker is an overrun.
    const second = await pool.solve({ requestId: 'b', strategy: 'expectimax', board: CORNER, options: { timeMs: 10 } });
    expect(JSON.stringify(second.note)).toMatch(/overran/);
    expect(workers[0].terminated).toBe(true);
  });

  it('replaces a worker that ignores a cancel', async () => {
    const { pool, workers } = makePool(1, ['ignore-cancel']);
    const search = pool.solve({ requestId: 'a', strategy: 'priority', board: OPEN, options: {} });
    pool.cancel('a');
    await expect(search).rejects.toBeInstanceOf(SearchCancelledError);
    const next = await pool.solve({ requestId: 'b', strategy: 'priority', board: OPEN, options: {} });
    expect(workers[0].terminated).toBe(true);
    expect(next.choice.strategy).toBe('priority');
  });

  it('ignores malformed and foreign worker messages', async () => {
    const { pool, workers } = makePool(1, ['silent']);
    const search = pool.solve({ requestId: 'a', strategy: 'random', board: OPEN, options: {} });
    const worker = workers[0];
    const id = starts(workers)[0].id;
    worker.onmessage?.({ data: { type: 'result', id: id + 99, choice: fakeSearch('random', {}) } });
    worker.onmessage?.({ data: { type: 'result', id, choice: { nonsense: true } } });
    worker.onmessage?.({ data: 'hello' });
    expect(pool.stats().busy).toBe(1);
    worker.onmessage?.({ data: { type: 'result', id, choice: fakeSearch('random', {}) } });
    await expect(search).resolves.toMatchObject({ choice: { strategy: 'random' } });
  });
});
