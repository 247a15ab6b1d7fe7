/**
 * Builds an endgame table with the WebAssembly builder (src/engine/wasm/assembly/tables.ts, compiled to
 * build/tables.wasm). Pure: the host hands in the module bytes (or a compiled module), as for the core.
 */
import type { TableSpec } from './formation';
import { FORMATIONS, capsOf, layoutOf } from './formation';
import { ABSENT_CHUNK } from './table';
import type { EndgameTable } from './table';

interface TablesExports {
  init(): void;
  setCell(i: number, pos: number, cap: number): void;
  plan(cells: number, fixedMask: number, goalMask: number, goal: number, sumBound: number, chunkDigits: number): number;
  buildLayers(layers: number): number;
  solvedStates(): number;
  workValue(chunk: number, offset: number): number;
  directoryPtr(): number;
  tablePtr(): number;
  chunkTotal(): number;
  chunkEntries(): number;
  allocatedEntries(): number;
  memoryBytes(): number;
  memory: WebAssembly.Memory;
}

const EXPORTS = ['init', 'setCell', 'plan', 'buildLayers', 'solvedStates', 'workValue', 'directoryPtr', 'tablePtr',
  'chunkTotal', 'chunkEntries', 'allocatedEntries', 'memoryBytes'] as const;

export interface BuildProgress {
  /** 0..1 of the sum layers solved. */
  readonly fraction: number;
  readonly states: number;
}

export interface BuildReport {
  readonly table: EndgameTable;
  /** Positions solved (reachable under the bound). */
  readonly states: number;
  /** Peak linear memory of the builder, bytes. */
  readonly memoryBytes: number;
  readonly ms: number;
}

/** A builder instance: the exact (f32) values stay readable until the next build (tests compare them). */
export class TableBuilder {
  readonly #exports: TablesExports;

  constructor(source: BufferSource | WebAssembly.Module) {
    const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
    const instance = new WebAssembly.Instance(module, {
      env: {
        abort: () => {
          throw new Error('tables wasm: abort');
        },
      },
    });
    const exports = instance.exports as Record<string, unknown>;
    for (const name of EXPORTS) {
      if (typeof exports[name] !== 'function') throw new Error(`tables wasm: the module does not export ${name}()`);
    }
    this.#exports = exports as unknown as TablesExports;
    this.#exports.init();
  }

  /** Build the table of `spec`; `onProgress` is called between batches of sum layers. */
  build(spec: TableSpec, onProgress?: (progress: BuildProgress) => void): BuildReport {
    const started = performance.now();
    const x = this.#exports;
    const formation = FORMATIONS[spec.formation];
    const caps = capsOf(spec);
    formation.free.forEach((cell, i) => x.setCell(i, cell, caps[i]!));
    const mask = (cells: readonly number[]): number => cells.reduce((m, cell) => m | (1 << cell), 0);
    const planned = x.plan(formation.free.length, mask(formation.fixed), mask(formation.goalCells), spec.goal, spec.maxSum, formation.chunkCells);
    if (planned === -1) throw new Error(`endgame table ${describeSpec(spec)}: invalid formation`);
    if (planned === -2) throw new Error(`endgame table ${describeSpec(spec)}: out of memory`);
    const layers = Math.floor(spec.maxSum / 2) + 1;
    let left = layers;
    const batch = Math.max(1, Math.ceil(layers / 100));
    while (left > 0) {
      left = x.buildLayers(batch);
      onProgress?.({ fraction: 1 - left / layers, states: x.solvedStates() });
    }
    const layout = layoutOf(spec);
    if (x.chunkTotal() !== layout.chunkCount || x.chunkEntries() !== layout.chunkSize) {
      throw new Error(`endgame table ${describeSpec(spec)}: layout mismatch between the builder and the lookup`);
    }
    const built = new Uint32Array(x.memory.buffer, x.directoryPtr(), layout.chunkCount);
    const pool = new Uint8Array(x.memory.buffer, x.tablePtr(), x.allocatedEntries());
    return {
      table: compact(spec, built, pool, layout.chunkSize),
      states: x.solvedStates(),
      memoryBytes: x.memoryBytes(),
      ms: performance.now() - started,
    };
  }

  /** The exact success probability the last build computed for (chunk, offset). */
  exactValue(chunk: number, offset: number): number {
    return this.#exports.workValue(chunk, offset);
  }
}

/**
 * Keep only the chunks holding a non-zero entry (success probability ≥ 1/126): most positions of a table
 * are lost (a free cell over its cap soon), and a whole chunk of them reads as 0 when absent.
 */
function compact(spec: TableSpec, directory: Uint32Array, pool: Uint8Array, chunkSize: number): EndgameTable {
  const kept = new Uint32Array(directory.length).fill(ABSENT_CHUNK);
  let count = 0;
  for (let c = 0; c < directory.length; c++) {
    const base = directory[c]!;
    if (base === ABSENT_CHUNK) continue;
    const start = base * chunkSize;
    for (let i = start; i < start + chunkSize; i++) {
      if ((pool[i]! & 63) !== 0) {
        kept[c] = count++;
        break;
      }
    }
  }
  const entries = new Uint8Array(count * chunkSize);
  for (let c = 0; c < directory.length; c++) {
    if (kept[c] === ABSENT_CHUNK) continue;
    const start = directory[c]! * chunkSize;
    entries.set(pool.subarray(start, start + chunkSize), kept[c]! * chunkSize);
  }
  return { spec, directory: kept, entries };
}

export function describeSpec(spec: TableSpec): string {
  return `${spec.formation}/goal ${2 ** spec.goal}/sum ≤ ${spec.maxSum}`;
}
