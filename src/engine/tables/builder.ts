/**
 * Builds an endgame table with the WebAssembly builder (src/engine/wasm/assembly/tables.ts, compiled to
 * build/tables.wasm). Pure: the host hands in the module bytes (or a compiled module), as for the core.
 */
import type { TableSpec } from './formation';
import { FORMATIONS, capsOf, layoutOf } from './formation';
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
    const directory = new Uint32Array(x.memory.buffer, x.directoryPtr(), layout.chunkCount).slice();
    const entries = new Uint8Array(x.memory.buffer, x.tablePtr(), x.allocatedEntries()).slice();
    return {
      table: { spec, directory, entries },
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

export function describeSpec(spec: TableSpec): string {
  return `${spec.formation}/goal ${2 ** spec.goal}/sum ≤ ${spec.maxSum}`;
}
