// Compile the WebAssembly search core (src/engine/wasm/assembly, AssemblyScript) to
// src/engine/wasm/build/engine.wasm with the options of src/engine/wasm/asconfig.json ("release").
// The .wasm is build output (not committed): `npm run build`, the unit tests and the CLI run this first.
// Does nothing when the .wasm is newer than every source; `--force` rebuilds anyway.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const wasmDir = join(root, 'src/engine/wasm');
const sourceDir = join(wasmDir, 'assembly');
export const WASM_FILE = join(wasmDir, 'build/engine.wasm');
/** The same core on an imported shared memory (threads sharing one transposition table: the CLI's split). */
export const SHARED_WASM_FILE = join(wasmDir, 'build/engine-shared.wasm');
/** Maximum pages of the shared core's memory (1 GiB): the host's memory may not declare more. */
export const SHARED_MAX_PAGES = 16384;
/** The endgame-table builder (issue 15): a second entry, assembly/tables.ts. */
export const TABLES_WASM_FILE = join(wasmDir, 'build/tables.wasm');
const SHARED_OPTIONS = ['--enable', 'threads', '--importMemory', '--sharedMemory', '--zeroFilledMemory', '--maximumMemory', String(SHARED_MAX_PAGES)];
/** The network trainer (assembly/train.ts) on a shared memory of up to 4 GiB (weights and TC's sums). */
export const TRAIN_WASM_FILE = join(wasmDir, 'build/train.wasm');
export const TRAIN_MAX_PAGES = 65536;
const TRAIN_OPTIONS = ['--enable', 'threads', '--importMemory', '--sharedMemory', '--zeroFilledMemory', '--maximumMemory', String(TRAIN_MAX_PAGES)];
const ENTRIES = [
  [join(sourceDir, 'index.ts'), WASM_FILE, []],
  [join(sourceDir, 'index.ts'), SHARED_WASM_FILE, SHARED_OPTIONS],
  [join(sourceDir, 'tables.ts'), TABLES_WASM_FILE, []],
  [join(sourceDir, 'train.ts'), TRAIN_WASM_FILE, TRAIN_OPTIONS],
];

function newestSource() {
  const files = [join(wasmDir, 'asconfig.json'), fileURLToPath(import.meta.url)];
  for (const name of readdirSync(sourceDir)) if (name.endsWith('.ts')) files.push(join(sourceDir, name));
  return Math.max(...files.map((file) => statSync(file).mtimeMs));
}

export function wasmIsStale() {
  try {
    const newest = newestSource();
    return ENTRIES.some(([, out]) => statSync(out).mtimeMs < newest);
  } catch {
    return true;
  }
}

export async function buildWasm({ force = false, quiet = false } = {}) {
  if (!force && !wasmIsStale()) return WASM_FILE;
  mkdirSync(dirname(WASM_FILE), { recursive: true });
  const { default: asc } = await import('assemblyscript/asc');
  const started = performance.now();
  for (const [entry, out, options] of ENTRIES) {
    const { error, stderr } = await asc.main(
      [entry, '--config', join(wasmDir, 'asconfig.json'), '--target', 'release', '--outFile', out, ...options],
      {},
    );
    if (error) {
      process.stderr.write(stderr.toString());
      throw new Error(`build-wasm: ${error.message}`);
    }
  }
  if (!quiet) process.stdout.write(`build-wasm: ${ENTRIES.map(([, out]) => out).join(', ')} (${Math.round(performance.now() - started)} ms)\n`);
  return WASM_FILE;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWasm({ force: process.argv.includes('--force') });
}
