/** Number of solver workers for a machine with `cores` logical cores: one per core, at least 1, at most 4. */
const MAX_SOLVER_WORKERS = 4;
/**
 * At most this many workers where they cannot share one memory (Firefox: the host is not cross-origin isolated),
 * since each then holds a copy of the learned network: 256 MiB of weights with two stages, plus its table. Four
 * copies would take over a GiB; two took 862–915 MiB PSS in Firefox (docs/network-in-the-extension.md).
 */
const MAX_WORKERS_WITH_COPIES = 2;

export function poolSize(cores: number | undefined, sharedMemory = true): number {
  const n = typeof cores === 'number' && Number.isFinite(cores) ? Math.floor(cores) : 1;
  return Math.min(sharedMemory ? MAX_SOLVER_WORKERS : MAX_WORKERS_WITH_COPIES, Math.max(1, n));
}
