/**
 * How the solver pool (./pool.ts) cuts one search into parts (pure): the split each strategy declares (`split`
 * of its descriptor in src/engine/strategies/), and the time a part may take before its worker counts as stuck.
 */
import { describeStrategy } from '../engine/strategies/index';
import { DEFAULT_PLAYOUTS } from '../engine/strategies/montecarlo';
import type { Direction, SearchOptions, StrategyName } from '../engine/types';
import type { PoolConfig } from './pool-api';

/**
 * The options of each part of one search (pure). Empty when there is nothing to search (no legal
 * root move). `seedBase` seeds Monte-Carlo parts when the request has no seed.
 */
export function planParts(
  strategy: StrategyName,
  options: SearchOptions,
  legal: readonly Direction[],
  workers: number,
  seedBase = 1,
): SearchOptions[] {
  const roots = options.rootMoves ? legal.filter((move) => options.rootMoves?.includes(move)) : [...legal];
  if (roots.length === 0) return [];
  const size = Math.max(1, Math.floor(workers));
  const split = describeStrategy(strategy).split;
  if (split === 'root-moves') {
    const count = Math.min(size, roots.length);
    return Array.from({ length: count }, (_, part) => ({
      ...options,
      rootMoves: roots.filter((_move, index) => index % count === part),
    }));
  }
  if (split === 'playouts') {
    const playouts = options.playouts ?? DEFAULT_PLAYOUTS;
    const count = Math.min(size, playouts);
    const seed = options.seed ?? seedBase;
    return Array.from({ length: count }, (_, part) => ({
      ...options,
      ...(options.rootMoves ? { rootMoves: roots } : {}),
      playouts: Math.floor(playouts / count) + (part < playouts % count ? 1 : 0),
      seed: (seed + Math.imul(part, 0x9e3779b1)) | 0,
    }));
  }
  return [{ ...options }];
}

/** How long a part may run before its worker is considered stuck (pure). */
export function partLimitMs(
  strategy: StrategyName,
  options: SearchOptions,
  config: Pick<PoolConfig, 'overrunFactor' | 'overrunGraceMs' | 'untimedLimitMs'> = {},
): number {
  const factor = config.overrunFactor ?? 4;
  const grace = config.overrunGraceMs ?? 1_500;
  const untimed = config.untimedLimitMs ?? 30_000;
  // A part is timed when its strategy works to a time budget; a fixed amount of work (depth, the
  // reference search, a number of playouts) gets the untimed limit.
  const fixedWork = options.depth !== undefined || options.reference === true || describeStrategy(strategy).takes.includes('playouts');
  const timed = options.timeMs !== undefined && !fixedWork;
  return timed ? (options.timeMs as number) * factor + grace : untimed;
}
