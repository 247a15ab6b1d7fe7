/** Random: a uniformly random legal move (seeded by options.seed). */
import type { Grid, MoveChoice, MoveValues, SearchOptions, Strategy } from '../types';
import { DIRECTIONS } from '../types';
import { createRng } from '../rng';
import { now, prepare, seedOf } from './common';

export const random: Strategy = {
  name: 'random',
  label: 'Random',
  description: 'Plays a uniformly random legal move. The baseline every other strategy must beat.',
  takes: [],
  split: 'single',
  chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
    const started = now();
    try {
      const { roots } = prepare(grid, options, signal);
      const values: MoveValues = {};
      let move = null;
      if (roots.length > 0) {
        const pick = roots[createRng(seedOf(options)).int(roots.length)];
        for (const d of roots) values[DIRECTIONS[d]] = d === pick ? 1 : 0;
        move = DIRECTIONS[pick];
      }
      return Promise.resolve({ strategy: 'random', move, values, depth: 0, nodes: roots.length, ms: now() - started });
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
