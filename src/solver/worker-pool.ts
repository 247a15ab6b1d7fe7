/**
 * The solver pool of a context with a DOM (the offscreen document; Firefox's event page): module Web
 * Workers, one per core (at most 4), with the priority strategy as the in-thread fallback.
 */
import { getStrategy, legalMoves, mergeChoices } from '../engine/index';
import { SolverPool } from './pool';
import type { SolverWorker } from './pool';
import { poolSize } from './size';

export function createWorkerPool(): SolverPool {
  return new SolverPool({
    size: poolSize(navigator.hardwareConcurrency),
    createWorker: () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }) as unknown as SolverWorker,
    engine: {
      legalMoves,
      mergeChoices,
      fallback: (grid) => getStrategy('priority').chooseMove(grid, {}),
    },
  });
}
