/**
 * The CLI's learned evaluation (--network FILE|none): reads a network file (models/4x6.ntn, the one the
 * extension ships, by default when it is there) and installs it for the engine in this thread (each bench
 * worker thread loads its own copy). Without one, expectimax searches with the heuristic and the "network"
 * strategy cannot play.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { decodeNetwork, getStrategy, installNetwork } from '../engine/index';
import type { Network, SearchOptions, StrategyName } from '../engine/index';
import type { ParsedArgs } from './args';
import { UsageError } from './args';

/** The network the extension ships (see docs/engine.md, "The learned evaluation"). */
const DEFAULT_NETWORK_FILE = fileURLToPath(new URL('../../models/4x6.ntn', import.meta.url));

export const NETWORK_OPTION_SPECS = { network: { type: 'string' } } as const;

export const NETWORK_HELP = `  --network F    the learned network: a file written by npm run train, or none (default: models/4x6.ntn)`;

/** The network file to use: --network's, or the shipped one where it is built; null for none. */
export function networkFileFrom(args: ParsedArgs): string | null {
  const text = args.string('network');
  if (text === 'none') return null;
  if (text !== undefined) {
    if (!existsSync(text)) throw new UsageError(`--network: no such file "${text}"`);
    return text;
  }
  return existsSync(DEFAULT_NETWORK_FILE) ? DEFAULT_NETWORK_FILE : null;
}

/**
 * The network file the games of `strategy` evaluate with: `file` when the strategy reads a network (the
 * registry's usesNetwork: expectimax, network) and the options leave it on (not --reference, not --eval
 * heuristic), or when the chance meter maps its values (`chance`); else null. A command that plays without
 * it does not read and decode it (49 MB: seconds, in every thread) only to leave it unused.
 */
export function networkInUse(file: string | null, strategy: StrategyName, options: SearchOptions, chance = false): string | null {
  if (file === null) return null;
  if (chance) return file;
  const used = getStrategy(strategy).usesNetwork === true && !options.reference && options.evaluation !== 'heuristic';
  return used ? file : null;
}

/** Decode a network file with Node's native zlib (several times faster than the engine's JavaScript inflater). */
export function decodeNetworkFile(file: string): Network {
  return decodeNetwork(readFileSync(file), (bytes) => inflateSync(bytes));
}

/** Read a network file with Node's native zlib; a bad file is an error naming it. */
function readNetworkFile(file: string): Network {
  try {
    return decodeNetworkFile(file);
  } catch (error) {
    throw new Error(`cannot use the network ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

let loaded: { file: string | null; network: Network | null } | null = null;

/** Install the network of `file` (null: none) for this thread's engine; read once per thread and file. */
export function useNetwork(file: string | null): Network | null {
  if (loaded?.file !== file) loaded = { file, network: file === null ? null : readNetworkFile(file) };
  installNetwork(loaded.network);
  return loaded.network;
}
