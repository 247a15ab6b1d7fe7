/** Search options from the command line (--depth, --time-ms, --playouts), shared by play, solve and bench. */
import { SEARCH_LIMITS } from '../engine/limits';
import { STRATEGIES, describeStrategy } from '../engine/strategies/index';
import type { SearchKnob, SearchOptions, StrategyName } from '../engine/types';
import { UsageError } from './args';
import type { ParsedArgs } from './args';
import { MAX_SIDE, MIN_SIDE } from './board';

export const SEARCH_OPTION_SPECS = {
  depth: { type: 'string' },
  'time-ms': { type: 'string' },
  playouts: { type: 'string' },
} as const;

/** The command-line flag of each search option a strategy may take. */
const FLAGS: Record<SearchKnob, string> = { timeMs: '--time-ms', depth: '--depth', playouts: '--playouts', reference: '--reference' };

/** The board sides the CLI plays (--size). */
export const SIZE_RANGE = { min: MIN_SIDE, max: MAX_SIDE } as const;

/** "expectimax (--time-ms, --depth, --reference) | ... | random": the strategies and the options each takes. */
export function strategyChoices(): string {
  return STRATEGIES.map((s) => (s.takes.length > 0 ? `${s.name} (${s.takes.map((knob) => FLAGS[knob]).join(', ')})` : s.name)).join(' | ');
}

/** The search options given; with a strategy, an option that strategy does not take is a UsageError. */
export function searchOptionsFrom(args: ParsedArgs, strategy?: StrategyName): SearchOptions {
  const options: { depth?: number; timeMs?: number; playouts?: number } = {};
  const depth = args.int('depth', SEARCH_LIMITS.depth);
  const timeMs = args.int('time-ms', SEARCH_LIMITS.timeMs);
  const playouts = args.int('playouts', SEARCH_LIMITS.playouts);
  if (depth !== undefined) options.depth = depth;
  if (timeMs !== undefined) options.timeMs = timeMs;
  if (playouts !== undefined) options.playouts = playouts;
  if (strategy) {
    const takes = describeStrategy(strategy).takes;
    for (const knob of Object.keys(options) as SearchKnob[]) {
      if (!takes.includes(knob)) {
        const what = takes.length > 0 ? `it takes ${takes.map((k) => FLAGS[k]).join(', ')}` : 'it takes no search option';
        throw new UsageError(`${FLAGS[knob]} does not apply to the ${strategy} strategy (${what})`);
      }
    }
  }
  return options;
}
export function describeSearchOptions(options: SearchOptions): string[] {
  const parts: string[] = [];
  if (options.depth !== undefined) parts.push(`depth ${options.depth}`);
  if (options.timeMs !== undefined) parts.push(`time ${options.timeMs} ms`);
  if (options.playouts !== undefined) parts.push(`playouts ${options.playouts}`);
  if (options.reference) parts.push('reference configuration');
  return parts;
}
