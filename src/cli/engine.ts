/**
 * The CLI's search-core switch (--engine wasm|ts, default wasm): loads the WebAssembly core that
 * `npm run build:wasm` built from src/engine/wasm/assembly and installs it for the expectimax strategy, or
 * leaves the TypeScript engine in charge.
 */
import { attachNetwork, installWasmCore, instantiateSharedWasmCore, instantiateWasmCore } from '../engine/index';
import type { NetworkDescriptor, SearchEngine, WasmCore } from '../engine/index';
import { SHARED_WASM_FILE, WASM_FILE, readWasm } from './wasm-files';
import type { ParsedArgs } from './args';
import { UsageError } from './args';

const ENGINES: readonly SearchEngine[] = ['wasm', 'ts'];
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
  installWasmCore(instantiateWasmCore(readWasm(WASM_FILE)));
}

/**
 * The shared-memory core (engine-shared.wasm) on `memory`, its transposition table of 2^bits entries set up:
 * every thread that calls this with the same memory searches on one table (src/engine/split.ts). `now`: the
 * clock its searches poll (see instantiateSharedWasmCore). `network`: the learned network whose weights sit
 * at the memory's heap base (createNetworkMemory; the table comes after them), valued with from now on.
 */
export function sharedCore(memory: WebAssembly.Memory, bits: number, now?: () => number, network?: NetworkDescriptor): WasmCore {
  const core = instantiateSharedWasmCore(readWasm(SHARED_WASM_FILE), memory, now);
  if (network) attachNetwork(core, memory, network);
  core.ttShare(bits, false);
  return core;
}
