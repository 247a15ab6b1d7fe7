/**
 * Firefox's solver host: its MV3 background is an event page, a document that can start Web Workers, so
 * the pool runs right here (the same pool and worker protocol as Chrome's offscreen document, without the
 * message hop). The pool and its workers start when the popup or the panel opens, or with a command, ahead
 * of the first request (`warm`); when Firefox unloads the idle event page the workers go with it, and the
 * next request starts them again (nothing else lives in memory only); so does the learned network, loaded
 * again at the next search that uses it. `report` hears the network's state.
 */
import type { SolverPool } from '../solver/pool';
import { localSolverHost } from '../solver/host';
import type { SolverHost } from '../solver/host';
import { createWorkerPool } from '../solver/worker-pool';
import type { NetworkStatus } from '../shared/network-status';

export function backgroundPageSolverHost(report: (status: NetworkStatus) => void): SolverHost {
  let pool: SolverPool | null = null;
  return localSolverHost({
    solve: (request) => (pool ??= createWorkerPool(report)).solve(request),
    cancel: (requestId, channel) => pool?.cancel(requestId, channel) ?? false,
    warm: () => (pool ??= createWorkerPool(report)).warm(),
  });
}
