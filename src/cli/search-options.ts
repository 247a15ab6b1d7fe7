/** Search options from the command line (--depth, --time-ms, --playouts, --reference), shared by play, solve and bench. */
import { SEARCH_LIMITS } from '../engine/limits';
import { STRATEGIES, describeStrategy } from '../engine/strategies/index';
import { EVALUATIONS } from '../engine/types';
import type { Evaluation, SearchKnob, SearchOptions, StrategyName } from '../engine/types';
import { UsageError } from './args';
import type { ParsedArgs } from './args';
import { MAX_SIDE, MIN_SIDE } from './board';

export const SEARCH_OPTION_SPECS = {
  depth: { type: 'string' },
  'time-ms': { type: 'string' },
  playouts: { type: 'string' },
  reference: { type: 'boolean' },
  eval: { type: 'string' },
  easy: { type: 'string' },
} as const;

/** --bank: a game-level setting (GameSettings.bank), read by bankFrom. */
export const BANK_OPTION_SPECS = { bank: { type: 'string' } } as const;

/** --eval's and --easy's lines of the commands' help. */
export const EVALUATION_HELP = `  --eval E       expectimax's leaves: network (default, where a network is loaded) | heuristic
  --easy on|off  expectimax: end early in easy positions (default on) | spend every move's whole budget`;

/** --bank's lines of play's and bench's help. */
export const BANK_HELP = `  --bank K       expectimax: a time bank per game: once earlier moves have left K-1 times --time-ms unspent,
                 a move the search finds hard may take K times it (default: off, every move --time-ms)`;

/** --bank's range: the most a hard move may take, in budgets. */
const BANK_RANGE = { min: 1, max: 16 } as const;

/** The command-line flag of each search option a strategy may take. */
const FLAGS: Record<SearchKnob, string> = { timeMs: '--time-ms', depth: '--depth', playouts: '--playouts', reference: '--reference', evaluation: '--eval', easyStops: '--easy' };

/** The board sides the CLI plays (--size). */
export const SIZE_RANGE = { min: MIN_SIDE, max: MAX_SIDE } as const;

/** "expectimax (--time-ms, --depth, --reference) | ... | random": the strategies and the options each takes. */
export function strategyChoices(): string {
  return STRATEGIES.map((s) => (s.takes.length > 0 ? `${s.name} (${s.takes.map((knob) => FLAGS[knob]).join(', ')})` : s.name)).join(' | ');
}

/** The search options given; with a strategy, an option that strategy does not take is a UsageError. */
export function searchOptionsFrom(args: ParsedArgs, strategy?: StrategyName): SearchOptions {
  const options: { depth?: number; timeMs?: number; playouts?: number; reference?: boolean; evaluation?: Evaluation; easyStops?: boolean } = {};
  const depth = args.int('depth', SEARCH_LIMITS.depth);
  const timeMs = args.int('time-ms', SEARCH_LIMITS.timeMs);
  const playouts = args.int('playouts', SEARCH_LIMITS.playouts);
  if (depth !== undefined) options.depth = depth;
  if (timeMs !== undefined) options.timeMs = timeMs;
  if (playouts !== undefined) options.playouts = playouts;
  if (args.flag('reference')) options.reference = true;
  if (args.has('eval')) options.evaluation = args.choice<Evaluation>('eval', EVALUATIONS, 'network');
  if (args.has('easy')) options.easyStops = args.choice('easy', ['on', 'off'], 'on') === 'on';
  if (options.reference && options.evaluation === 'network') throw new UsageError('--reference searches with the heuristic: leave out --eval network');
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
  if (options.evaluation !== undefined) parts.push(`${options.evaluation} evaluation`);
  if (options.easyStops !== undefined) parts.push(`easy stops ${options.easyStops ? 'on' : 'off'}`);
  return parts;
}

/**
 * --bank K: a time bank per game (GameSettings.bank). Only expectimax spending a time budget on the
 * WebAssembly core (4x4) extends its hard moves, so anything else is a UsageError rather than a no-op.
 */
export function bankFrom(args: ParsedArgs, strategy: StrategyName, options: SearchOptions, size: number): number | undefined {
  const text = args.string('bank');
  if (text === undefined) return undefined;
  const factor = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(factor) || factor < BANK_RANGE.min || factor > BANK_RANGE.max) {
    throw new UsageError(`--bank takes the most a hard move may take, in budgets, from ${BANK_RANGE.min} to ${BANK_RANGE.max}, not "${text}"`);
  }
  if (strategy !== 'expectimax') throw new UsageError(`--bank applies to expectimax only, not to ${strategy}`);
  if (options.depth !== undefined || options.reference) throw new UsageError('--bank needs a time budget: leave out --depth and --reference');
  if (args.string('engine') === 'ts') throw new UsageError('--bank needs the WebAssembly core (--engine wasm)');
  if (size !== 4) throw new UsageError('--bank applies to 4x4 boards (the WebAssembly core)');
  return factor;
}
