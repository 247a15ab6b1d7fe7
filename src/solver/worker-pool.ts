/**
 * The solver pool of a context with a DOM (the offscreen document; Firefox's event page): module Web
 * Workers, one per core (at most 4), with the priority strategy as the in-thread fallback, and the learned
 * network packaged with the extension (models/4x6.ntn), loaded at the first search that uses it.
 *
 * Where this context is cross-origin isolated (Chrome's offscreen document: the manifest's COOP/COEP keys) the
 * network goes once into a shared WebAssembly memory that every worker uses; elsewhere (Firefox's event page is
 * not isolated) each worker holds its own copy. docs/network-in-the-extension.md has the memory each way takes.
 *
 * Where it is isolated, expectimax's decisions are also split sessions (./split-host.ts): every worker on each
 * iteration, on one shared table (table slot 0 of the network's memory, the workers' own tables after it);
 * elsewhere each decision is split by root move, a table per worker (docs/engine.md, "Two threads").
 */
import { createNetworkMemory, describeNetworkFile, getStrategy, legalMoves, mergeChoices } from '../engine/index';
import type { NetworkDescriptor } from '../engine/index';
import networkUrl from '../../models/4x6.ntn?url';
import type { NetworkStatus } from '../shared/network-status';
import { SolverPool } from './pool';
import type { SolverWorker } from './pool-api';
import { NetworkMemoryError, fetchNetworkFile, networkFits } from './network-loader';
import type { NetworkSource } from './network-supply';
import { poolSize } from './size';
import { PoolSplit, canSplit } from './split-host';

/** The packaged network file's size in bytes, known to the build (extension resources carry no Content-Length). */
declare const __NETWORK_FILE_BYTES__: number;

/**
 * One shared memory for the network and the `workers` tables, where this context may share one (it is
 * cross-origin isolated: checked here, where the memory is made, and by each worker it reaches); null otherwise.
 */
function sharedMemoryHere(network: NetworkDescriptor, workers: number): WebAssembly.Memory | null {
  if (!self.crossOriginIsolated) return null;
  try {
    return createNetworkMemory(network, workers);
  } catch {
    return null; // no room for it in one piece: each worker holds its own copy
  }
}

/** Fetch the packaged network and make the memory to share it in (a worker decodes it); `workers`: its table slots. */
async function loadPackagedNetwork(workers: number, onProgress: (fraction: number) => void): Promise<NetworkSource> {
  const device = (navigator as { deviceMemory?: number }).deviceMemory;
  if (!networkFits(device)) throw new NetworkMemoryError(`the device reports ${device} GiB`);
  const file = await fetchNetworkFile(networkUrl, __NETWORK_FILE_BYTES__, (read, expected) => onProgress(read / expected));
  return { file, memory: sharedMemoryHere(describeNetworkFile(file), workers) };
}

/** The pool, telling `report` every change of the network's state. */
export function createWorkerPool(report: (status: NetworkStatus) => void): SolverPool {
  const size = poolSize(navigator.hardwareConcurrency, self.crossOriginIsolated);
  const split = canSplit(self) ? new PoolSplit() : null;
  return new SolverPool({
    size,
    ...(split ? { split } : {}),
    createWorker: () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }) as unknown as SolverWorker,
    engine: {
      legalMoves,
      mergeChoices,
      fallback: (grid) => getStrategy('priority').chooseMove(grid, {}),
    },
    network: { load: (onProgress) => loadPackagedNetwork(split ? size + 1 : size, onProgress), report, now: () => performance.now() },
  });
}
