/** Number of solver workers for a machine with `cores` logical cores: one per core, at least 1, at most 4. */
const MAX_SOLVER_WORKERS = 4;

export function poolSize(cores: number | undefined): number {
  const n = typeof cores === 'number' && Number.isFinite(cores) ? Math.floor(cores) : 1;
  return Math.min(MAX_SOLVER_WORKERS, Math.max(1, n));
}
