/** Search options from the command line (--depth, --time-ms, --playouts), shared by play, solve and bench. */
import type { SearchOptions } from '../engine/types';
import type { ParsedArgs } from './args';

export const SEARCH_OPTION_SPECS = {
  depth: { type: 'string' },
  'time-ms': { type: 'string' },
  playouts: { type: 'string' },
} as const;

export function searchOptionsFrom(args: ParsedArgs): SearchOptions {
  const options: { depth?: number; timeMs?: number; playouts?: number } = {};
  const depth = args.int('depth', { min: 1, max: 12 });
  const timeMs = args.int('time-ms', { min: 1, max: 600_000 });
  const playouts = args.int('playouts', { min: 1, max: 100_000 });
  if (depth !== undefined) options.depth = depth;
  if (timeMs !== undefined) options.timeMs = timeMs;
  if (playouts !== undefined) options.playouts = playouts;
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
