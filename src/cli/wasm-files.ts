/**
 * The WebAssembly modules the CLI loads, as `npm run build:wasm` writes them (src/engine/wasm/build/, build
 * output, never committed). The CLI never compiles them itself: npm's pre-hooks build them before `play`,
 * `solve`, `bench` and `train`, and a command run otherwise says what to run when one is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BUILD_DIR = new URL('../engine/wasm/build/', import.meta.url);

/** The search core (its own memory). */
export const WASM_FILE = fileURLToPath(new URL('engine.wasm', BUILD_DIR));
/** The same core on an imported shared memory (threads sharing one transposition table). */
export const SHARED_WASM_FILE = fileURLToPath(new URL('engine-shared.wasm', BUILD_DIR));
/** The network trainer's hot loop (an imported shared memory of up to 4 GiB). */
export const TRAIN_WASM_FILE = fileURLToPath(new URL('train.wasm', BUILD_DIR));
/** The endgame-table builder. */
export const TABLES_WASM_FILE = fileURLToPath(new URL('tables.wasm', BUILD_DIR));

/** The bytes of a built module; a missing one is an error that says how to build it. */
export function readWasm(file: string): Buffer {
  if (!existsSync(file)) throw new Error(`${file} is not built: run npm run build:wasm`);
  return readFileSync(file);
}
