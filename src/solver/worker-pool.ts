/**
 * The solver pool of a context with a DOM (the offscreen document; Firefox's event page): module Web
 * Workers, one per core (at most 4), with the priority strategy as the in-thread fallback.
 */
import { getStrategy, legalMoves, mergeChoices } from '../engine/index';
import { SolverPool } from './pool';
import type { SolverWorker } from './pool';
import { poolSize } from './size';
import { EXTENSION_TABLE_SPECS, EndgameTables, TEST_TABLE_SPECS } from './endgame';
import type { BuilderWorker } from './endgame';
import { TableStore } from './table-store';

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

/**
 * The endgame tables of this context (issue 15): stored in its IndexedDB, built in a worker of their own.
 * The test build (dist-e2e) uses a smaller set, built in seconds.
 */
export function createEndgameTables(): EndgameTables {
  return new EndgameTables({
    specs: import.meta.env.MODE === 'e2e' ? TEST_TABLE_SPECS : EXTENSION_TABLE_SPECS,
    openStore: () => TableStore.open(indexedDB),
    createBuilder: () => new Worker(new URL('./tables-worker.ts', import.meta.url), { type: 'module' }) as unknown as BuilderWorker,
    log: (text) => console.info(`2048 Autopilot: ${text}`),
  });
}
