/**
 * The CLI's search-core switch (--engine wasm|ts, default wasm): loads the WebAssembly core built from
 * src/engine/wasm/assembly (building it first when it is missing or older than its sources) and installs
 * it for the expectimax strategy, or leaves the TypeScript engine in charge.
 */
import { readFileSync } from 'node:fs';
import { installWasmCore, instantiateWasmCore } from '../engine/index';
import type { SearchEngine } from '../engine/index';
import { WASM_FILE, buildWasm } from '../../scripts/build-wasm.mjs';
import type { ParsedArgs } from './args';
import { UsageError } from './args';

export const ENGINES: readonly SearchEngine[] = ['wasm', 'ts'];
export const DEFAULT_ENGINE: SearchEngine = 'wasm';

export const ENGINE_OPTION_SPECS = {
  engine: { type: 'string' },
} as const;

export function engineFrom(args: ParsedArgs): SearchEngine {
  const text = args.string('engine');
  if (text === undefined) return DEFAULT_ENGINE;
  const found = ENGINES.find((name) => name === text);
  if (!found) throw new UsageError(`--engine must be one of ${ENGINES.join(', ')}, got "${text}"`);
  return found;
}

/** Install the chosen core in this thread (each bench worker thread calls it too). */
export async function useEngine(engine: SearchEngine): Promise<void> {
  if (engine === 'ts') {
    installWasmCore(null);
    return;
  }
  await buildWasm({ quiet: true });
  let bytes: Buffer;
  try {
    bytes = readFileSync(WASM_FILE);
  } catch (error) {
    throw new Error(`cannot read the WebAssembly core ${WASM_FILE}: ${error instanceof Error ? error.message : String(error)}`);
  }
  installWasmCore(instantiateWasmCore(bytes));
}
