import { describe, expect, it } from 'vitest';
import { localSolverHost } from '../../../src/solver/host';
import type { SolveRequest, SolveResult } from '../../../src/solver/pool-api';

const BOARD = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] };

describe('localSolverHost (the host of a background with a DOM)', () => {
  it('hands searches, cancels and the warm-up to its pool, channel and all', async () => {
    const solved: SolveRequest[] = [];
    const cancelled: [string, string | undefined][] = [];
    let warmed = 0;
    const result: SolveResult = { choice: { strategy: 'priority', move: 'down', values: { down: 1 }, depth: 0, nodes: 1, ms: 0 }, note: { code: 'solverFallback', params: ['a worker crashed', 'priority'] } };
    const host = localSolverHost({
      solve: (request) => {
        solved.push(request);
        return Promise.resolve(result);
      },
      cancel: (requestId, channel) => {
        cancelled.push([requestId, channel]);
        return true;
      },
      warm: () => {
        warmed++;
      },
    });
    const request = { requestId: 'r1', channel: 'tab:3', strategy: 'priority' as const, board: BOARD, options: { timeMs: 10 } };
    await expect(host.solve(request)).resolves.toEqual(result);
    await expect(host.cancel('r1', 'tab:3')).resolves.toBeUndefined();
    expect(solved).toEqual([request]);
    expect(cancelled).toEqual([['r1', 'tab:3']]);
    await expect(host.warm()).resolves.toBeUndefined();
    expect(warmed).toBe(1);
  });
});
