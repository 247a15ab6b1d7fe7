/**
 * The CLI's search-core switch (--engine wasm|ts, default wasm): loads the WebAssembly core built from
 * src/engine/wasm/assembly (building it first when it is missing or older than its sources) and installs
 * it for the expectimax strategy, or leaves the TypeScript engine in charge.
 */
import { readFileSync } from 'node:fs';
import { installWasmCore, instantiateSharedWasmCore, instantiateWasmCore } from '../engine/index';
import type { SearchEngine, WasmCore } from '../engine/index';
import { SHARED_MAX_PAGES, SHARED_WASM_FILE, WASM_FILE, buildWasm } from '../../scripts/build-wasm.mjs';
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
  installWasmCore(instantiateWasmCore(await coreBytes(WASM_FILE)));
}

async function coreBytes(file: string): Promise<Buffer> {
  await buildWasm({ quiet: true });
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`cannot read the WebAssembly core ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Regions of the shared table (assembly/index.ts: REGIONS), one per root move of a search. */
const SHARED_TABLE_REGIONS = 4;

/** A shared memory for `sharedCore`: the core's tables and data and a table of 4 regions of 2^bits entries. */
export function createSharedMemory(bits: number): WebAssembly.Memory {
  const pages = 64 + Math.ceil((SHARED_TABLE_REGIONS * 16 * 2 ** bits) / 65536);
  return new WebAssembly.Memory({ initial: pages, maximum: SHARED_MAX_PAGES, shared: true });
}

/**
 * The shared-memory core (engine-shared.wasm) on `memory`, its transposition table of 2^bits entries set up:
 * every thread that calls this with the same memory searches on one table (src/engine/split.ts). `now`: the
 * clock its searches poll (see instantiateSharedWasmCore).
 */
export async function sharedCore(memory: WebAssembly.Memory, bits: number, now?: () => number): Promise<WasmCore> {
  const core = instantiateSharedWasmCore(await coreBytes(SHARED_WASM_FILE), memory, now);
  core.ttShare(bits, false);
  return core;
}
