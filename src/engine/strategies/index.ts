/** The registry of the six strategies, in the order the popup lists them. */
import type { Strategy, StrategyName } from '../types';
import { expectimax } from './expectimax';
import { montecarlo } from './montecarlo';
import { minimax } from './minimax';
import { greedy } from './greedy';
import { priority } from './priority';
import { random } from './random';

export const STRATEGIES: readonly Strategy[] = [expectimax, montecarlo, minimax, greedy, priority, random];

export function getStrategy(name: StrategyName): Strategy {
  const found = STRATEGIES.find((s) => s.name === name);
  if (!found) throw new RangeError(`unknown strategy: ${String(name)}`);
  return found;
}
