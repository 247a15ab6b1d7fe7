/**
 * Split sessions (src/engine/split-session.ts): expectimax's decisions searched by several threads on one
 * table. On a host of one thread in this thread the session reproduces the reference exactly (values and
 * move executions); a search stopped at its deadline keeps only the moves it completed; on two real threads
 * (the CLI's split pool) a timed decision is a legal move whose values are close to one thread's.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIRECTIONS,
  SplitSession,
  createSharedMemory,
  createSplitBuffer,
  installWasmCore,
  instantiateSharedWasmCore,
  instantiateWasmCore,
  legalMoves,
  mergeSearched,
  mergeSplit,
  resetSplit,
  sequentialPlan,
  splitSearchable,
  workSplit,
} from '../../../src/engine/index';
import type { Grid, MoveValues, SplitHost, SplitSearch, WasmCore } from '../../../src/engine/index';
import { cheapPositions, expectReferenceValues, limitOf } from '../../support/reference-positions';
import { SHARED_WASM_FILE, WASM_FILE } from '../../../src/cli/wasm-files';
import { SplitPool } from '../../../src/cli/split-pool';

const BITS = 16;
let core: WasmCore;
let generation = 1;

beforeAll(() => {
  installWasmCore(instantiateWasmCore(readFileSync(WASM_FILE)));
  core = instantiateSharedWasmCore(readFileSync(SHARED_WASM_FILE), createSharedMemory(BITS));
  core.ttShare(BITS, false);
});
afterAll(() => installWasmCore(null));

/** A host of one thread: this one, searching each job to its end with workSplit. */
function oneThread(): SplitHost & { jobs: SplitSearch[]; answers: MoveValues[] } {
  const jobs: SplitSearch[] = [];
  const answers: MoveValues[] = [];
  return {
    threads: 1,
    hasNetwork: false,
    jobs,
    answers,
    search: (job) => {
      jobs.push(job);
      const buffer = createSplitBuffer();
      resetSplit(buffer, job.plan);
      const table = { core, generation, stopWhen: () => undefined };
      generation += job.plan.dirs.length;
      const executions = workSplit(job.grid, job.plan, buffer, 0, job.limit, table, { stopAt: job.deadline, cutoff: job.cutoff });
      const values = mergeSearched(job.plan, buffer);
      answers.push(values);
      return Promise.resolve({ values, executions });
    },
  };
}

const cheap = cheapPositions(4);
const rootsOf = (grid: Grid): number[] => legalMoves(grid).map((d) => DIRECTIONS.indexOf(d));

describe('a split session on one thread', () => {
  it.each(cheap.map((p, i) => [i, p] as const))('reproduces reference position %i at its depth exactly (values and move executions)', async (_i, p) => {
    const host = oneThread();
    const choice = await new SplitSession(host).chooseMove(p.board, { depth: limitOf(p.board), evaluation: 'heuristic' });
    expect(host.jobs).toHaveLength(1);
    expect(host.jobs[0].plan.dirs).toEqual(rootsOf(p.board));
    expectReferenceValues(choice, p);
    expect(choice.move).toBe(p.best);
    expect(choice).toMatchObject({ depth: limitOf(p.board), engine: 'wasm', evaluation: 'heuristic' });
  });

  it('deepens under a time budget, best move first, and answers a legal move', async () => {
    const host = oneThread();
    const grid = cheap[1].board;
    // 200 ms: depth 2 takes a millisecond or two, yet a test runner beside two browsers on 2 cores was once
    // given no CPU for the whole of a 30 ms budget (depth 1 only).
    const choice = await new SplitSession(host).chooseMove(grid, { timeMs: 200, evaluation: 'heuristic' });
    expect(legalMoves(grid)).toContain(choice.move);
    expect(choice.depth).toBeGreaterThanOrEqual(2);
    // Iteration after iteration one layer deeper (or finer), each on the moves best first by the one before.
    const depths = host.jobs.map((job) => job.limit);
    expect(depths[0]).toBe(1);
    expect(depths.every((depth, i) => i === 0 || depth >= depths[i - 1])).toBe(true);
    const first = host.answers[0];
    const best = legalMoves(grid).reduce((a, b) => ((first[b] as number) > (first[a] as number) ? b : a));
    expect(host.jobs[1].plan.dirs[0]).toBe(DIRECTIONS.indexOf(best));
    expect(host.jobs[0].deadline).toBe(Infinity);
    expect(Number.isFinite(host.jobs[1].deadline)).toBe(true);
  });

  it('refuses boards beyond the 64-bit board and the reference configuration', () => {
    expect(splitSearchable({ rows: 4, cols: 4, cells: [65536, ...new Array<number>(15).fill(0)] }, {})).toBe(false);
    expect(splitSearchable(cheap[0].board, { reference: true })).toBe(false);
    expect(splitSearchable(cheap[0].board, { timeMs: 100 })).toBe(true);
  });
});

describe('a split search stopped at its deadline', () => {
  it('keeps the moves it completed, a prefix of the plan, and never merges a half-searched one', () => {
    const grid = cheap[2].board;
    const plan = sequentialPlan(grid, rootsOf(grid));
    const buffer = createSplitBuffer();
    resetSplit(buffer, plan);
    const table = { core, generation, stopWhen: () => undefined };
    generation += plan.dirs.length;
    // Already past its deadline: depth 1 completes nothing (the core polls the clock from its first node).
    workSplit(grid, plan, buffer, 0, limitOf(grid) + 2, table, { stopAt: performance.now() - 1, cutoff: 0 });
    expect(mergeSearched(plan, buffer)).toEqual({});
    expect(() => mergeSplit(plan, buffer)).toThrow(/not all searched/);
  });
});

describe('two threads (the CLI split pool)', () => {
  it('give a legal move whose values are close to one thread\'s, at a fixed depth and under a time budget', async () => {
    const pool = new SplitPool(2, 'wasm', BITS, null);
    try {
      await pool.ready();
      const session = new SplitSession(pool);
      for (const p of cheap.slice(0, 3)) {
        const depth = limitOf(p.board);
        const one = await new SplitSession(oneThread()).chooseMove(p.board, { depth, evaluation: 'heuristic' });
        const two = await session.chooseMove(p.board, { depth, evaluation: 'heuristic' });
        expect(two.move).toBe(one.move);
        for (const d of legalMoves(p.board)) expect(Math.abs((two.values[d] as number) - (one.values[d] as number)) / (one.values[d] as number)).toBeLessThan(1e-3);
        const timed = await session.chooseMove(p.board, { timeMs: 40, evaluation: 'heuristic' });
        expect(legalMoves(p.board)).toContain(timed.move);
        expect(timed.depth).toBeGreaterThanOrEqual(1);
      }
    } finally {
      await pool.close();
    }
  }, 60_000);
});
