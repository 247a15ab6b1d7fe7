/** Priority: the first legal move in the order down, right, up, left. */
import type { Grid, MoveChoice, MoveValues, SearchOptions, Strategy } from '../types';
import { DIRECTIONS } from '../types';
import { now, prepare } from './common';

const ORDER = [1, 3, 0, 2]; // down, right, up, left

export const priority: Strategy = {
  name: 'priority',
  label: 'Corner priority (down, right, up, left)',
  description: 'Plays the first legal move of down, right, up, left. Fast and weak: a baseline.',
  takes: [],
  split: 'single',
  chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
    const started = now();
    try {
      const { roots } = prepare(grid, options, signal);
      const values: MoveValues = {};
      for (const d of roots) values[DIRECTIONS[d]] = 4 - ORDER.indexOf(d);
      let move = null;
      for (const d of ORDER) {
        if (roots.includes(d)) {
          move = DIRECTIONS[d];
          break;
        }
      }
      return Promise.resolve({ strategy: 'priority', move, values, depth: 0, nodes: roots.length, ms: now() - started });
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
