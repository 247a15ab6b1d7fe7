// Compile the WebAssembly modules from src/engine/wasm/assembly (AssemblyScript) into src/engine/wasm/build/,
// one per target of src/engine/wasm/asconfig.json (which holds every compiler option, the shared
// memories' maximum sizes included): engine.wasm (the search core), engine-shared.wasm (the same core on an
// imported shared memory: threads sharing one transposition table), tables.wasm (the endgame-table
// builder) and train.wasm (the network trainer's hot loop).
// The .wasm files are build output (never committed): `npm run build:wasm`; npm's pre-hooks run it before
// `build` (and so `build:e2e`), `test:unit`, the CLI commands and `train`. Does nothing when every .wasm is newer
// than every source; `--force` rebuilds anyway.
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const wasmDir = join(root, 'src/engine/wasm');
const sourceDir = join(wasmDir, 'assembly');
const configFile = join(wasmDir, 'asconfig.json');
const ENTRY_OF_TARGET = { release: 'index.ts', shared: 'index.ts', tables: 'tables.ts', train: 'train.ts' };
const targets = JSON.parse(readFileSync(configFile, 'utf8')).targets;
const ENTRIES = Object.entries(targets).map(([target, { outFile }]) => ({
  target,
  entry: join(sourceDir, ENTRY_OF_TARGET[target]),
  out: join(wasmDir, outFile),
}));

function newestSource() {
  const files = [configFile, fileURLToPath(import.meta.url)];
  for (const name of readdirSync(sourceDir)) if (name.endsWith('.ts')) files.push(join(sourceDir, name));
  return Math.max(...files.map((file) => statSync(file).mtimeMs));
}

function wasmIsStale() {
  try {
    const newest = newestSource();
    return ENTRIES.some(({ out }) => statSync(out).mtimeMs < newest);
  } catch {
    return true;
  }
}

async function buildWasm({ force = false } = {}) {
  if (!force && !wasmIsStale()) return;
  mkdirSync(join(wasmDir, 'build'), { recursive: true });
  const { default: asc } = await import('assemblyscript/asc');
  const started = performance.now();
  for (const { target, entry, out } of ENTRIES) {
    const { error, stderr } = await asc.main([entry, '--config', configFile, '--target', target, '--outFile', out], {});
    if (error) {
      process.stderr.write(stderr.toString());
      throw new Error(`build-wasm: ${error.message}`);
    }
  }
  process.stderr.write(`build-wasm: ${ENTRIES.map(({ out }) => out).join(', ')} (${Math.round(performance.now() - started)} ms)\n`);
}

await buildWasm({ force: process.argv.includes('--force') });
