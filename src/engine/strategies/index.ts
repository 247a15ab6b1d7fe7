/**
 * The registry of the strategies, in the order the popup lists them. Each strategy file declares
 * what it is (label, description, the options it takes, how a search splits over workers); everything
 * above the engine reads that here instead of naming strategies.
 */
import type { Strategy, StrategyDescriptor, StrategyName } from '../types';
import { expectimax } from './expectimax';
import { network } from './network';
import { montecarlo } from './montecarlo';
import { minimax } from './minimax';
import { greedy } from './greedy';
import { priority } from './priority';
import { random } from './random';

export const STRATEGIES: readonly Strategy[] = [expectimax, network, montecarlo, minimax, greedy, priority, random];

export function getStrategy(name: StrategyName): Strategy {
  const found = STRATEGIES.find((s) => s.name === name);
  if (!found) throw new RangeError(`unknown strategy: ${String(name)}`);
  return found;
}

/** What a strategy says about itself (no search code needed to read it). */
export function describeStrategy(name: StrategyName): StrategyDescriptor {
  const { label, description, takes, split, usesNetwork } = getStrategy(name);
  return { name, label, description, takes, split, ...(usesNetwork ? { usesNetwork } : {}) };
}
