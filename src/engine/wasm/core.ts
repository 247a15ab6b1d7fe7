/**
 * Loader of the WebAssembly search core (src/engine/wasm/assembly, built by `npm run build:wasm` into
 * src/engine/wasm/build/engine.wasm with the options of asconfig.json). Pure: it instantiates the module from bytes or a compiled module that
 * the host hands in (Node reads the file, an extension worker fetches the packaged asset), so it runs the
 * same in Node, worker_threads, Web Workers and tests. The expectimax strategy uses the installed core
 * for 4x4 boards; without one (or on other sizes) it runs the TypeScript search.
 */
import asconfig from './asconfig.json';

/** Most pages of engine-shared.wasm's imported memory (its target in asconfig.json): a host's memory may not declare more. */
const SHARED_MAX_PAGES = asconfig.targets.shared.maximumMemory;
/** Regions of the shared table, one per root move of a search (REGIONS in assembly/index.ts). */
const SHARED_TABLE_REGIONS = 4;
/** Pages below the shared table: the core's row tables and data (its heap base is well within them). */
const SHARED_DATA_PAGES = 64;

/** Pages of one table slot of engine-shared.wasm (ttSlot): SLOT_BYTES in assembly/index.ts, 16 << (MAX_TT_LOG2 + 1). */
const SLOT_PAGES = 1024;
/** Pages of the largest table the core makes: 2^MAX_TT_LOG2 (21) entries of 16 bytes. */
const MAX_TABLE_PAGES = 512;

/**
 * A shared memory for engine-shared.wasm holding `reservedBytes` at the heap base (a network's weights:
 * networkReserve) and `slots` tables of their own (ttSlot), each up to the largest the core makes, allocated
 * whole so that no thread ever grows it: every thread handed it sees all of it from the start (Chromium can
 * leave a worker that is handed a shared memory which another thread grew meanwhile with a copy of its own).
 * Pages no table touches cost address space, not memory.
 */
export function createSlottedSharedMemory(reservedBytes: number, slots: number): WebAssembly.Memory {
  const pages = SHARED_DATA_PAGES + Math.ceil(reservedBytes / 65536) + 1 + (Math.max(1, slots) - 1) * SLOT_PAGES + MAX_TABLE_PAGES;
  return new WebAssembly.Memory({ initial: pages, maximum: SHARED_MAX_PAGES, shared: true });
}

/**
 * A shared memory for engine-shared.wasm, large enough for the core's data and a transposition table of
 * SHARED_TABLE_REGIONS regions of 2^bits entries of 16 bytes, so that no thread grows it (ttShare).
 */
export function createSharedMemory(bits: number): WebAssembly.Memory {
  const pages = SHARED_DATA_PAGES + Math.ceil((SHARED_TABLE_REGIONS * 16 * 2 ** bits) / 65536);
  return new WebAssembly.Memory({ initial: pages, maximum: SHARED_MAX_PAGES, shared: true });
}

/** The module's exports (see assembly/index.ts). Boards cross the boundary as two u32 halves. */
export interface WasmCore {
  /** Direction 0 up, 1 down, 2 left, 3 right; returns the score, the moved board is outLo/outHi (int32 bits). */
  move(lo: number, hi: number, dir: number): number;
  outLo(): number;
  outHi(): number;
  heuristic(lo: number, hi: number): number;
  lineHeuristicOf(row: number): number;
  ttConfigure(bits: number, exact: boolean | number): void;
  ttNewGeneration(): void;
  /** A new decision in play: entries stored before it age by one (they give way sooner in their bucket). */
  ttAgeTick(): void;
  /** Play's table: entries record how hard they were pruned (the node's cumulative probability over the
   *  cut-off) and serve only nodes they prune no more than (default); off, to compare: any node. */
  ttUseQuality(on: boolean | number): void;
  /** Tests of the table: a board's stored value for a search needing `remaining` layers and, in play's
   *  buckets, a prune quality of at least `quality` (2·log2(cprob / cut-off), 0..127) (NaN: absent). */
  ttProbe(lo: number, hi: number, remaining: number, quality: number): number;
  /** Tests of the table: store a board's value as a chance node searched to `remaining` layers with prune
   *  quality `quality` would. */
  ttStore(lo: number, hi: number, remaining: number, quality: number, value: number): void;
  ttSizeLog2(): number;
  /** Value of one root move to `limit` layers; NaN when stopped at `stopAt` (ms, the host clock); `fresh`:
   *  a new table generation; `cutoff`: the probability cut-off (0 = the reference's). */
  searchRoot(lo: number, hi: number, dir: number, limit: number, stopAt: number, fresh: boolean | number, cutoff: number): number;
  /** One child of a root move's chance node (child >> 1: the empty cell in cell order; child & 1: a 4), its
   *  unweighted value; in order on one table (the first fresh) they reproduce searchRoot exactly. */
  searchChild(lo: number, hi: number, dir: number, limit: number, child: number, stopAt: number, fresh: boolean | number, cutoff: number): number;
  lastExecutions(): number;
  /** engine-shared.wasm: this instance's own table in slot `slot` of the shared memory (then ttConfigure). */
  ttSlot(slot: number): void;
  /** engine-shared.wasm: use the table of 2^bits entries in the shared memory (`clear`: zero it now). */
  ttShare(bits: number, clear: boolean | number): void;
  /** engine-shared.wasm: the table generation the following searches use (set by the host, one per root
   *  move) and the first one of the search going on (1 <= live <= generation < 2^24; older ones are free). */
  ttSetGeneration(generation: number, live: number): void;
  /** engine-shared.wasm: search chance nodes' cells last to first (a helper thread), or first to last. */
  setReverse(on: boolean | number): void;
  /** Budget of move executions for the following searches: past it a search is abandoned (NaN), checked
   *  deterministically; Infinity = none. */
  setExecutionLimit(limit: number): void;
  /** Room for a network's weights, `stages` sets of tables, at the heap base (the table moves after it): returns their address. */
  networkReserve(shape: number, i16: boolean | number, scale: number, stages: number): number;
  /** Stage `stage` (1 .. stages - 1) values the boards whose largest rank is at least `rank`. */
  networkStageFrom(stage: number, rank: number): void;
  /** Value leaves with the network reserved and filled (or the heuristic); forgets the table's entries. */
  useNetwork(on: boolean | number): void;
  /** The network's value of a board (tests: the TypeScript evaluation agrees). */
  networkValueOf(lo: number, hi: number): number;
  /** The best of a move's score plus its afterstate's network value; 0 when no move is legal. */
  networkGreedy(lo: number, hi: number): number;
  /** The module's own memory (engine.wasm); engine-shared.wasm imports the host's instead. */
  readonly memory?: WebAssembly.Memory;
}

const EXPORTS = [
  'move',
  'outLo',
  'outHi',
  'heuristic',
  'lineHeuristicOf',
  'ttConfigure',
  'ttNewGeneration',
  'ttAgeTick',
  'ttUseQuality',
  'ttProbe',
  'ttStore',
  'ttSizeLog2',
  'searchRoot',
  'searchChild',
  'lastExecutions',
  'ttShare',
  'ttSlot',
  'ttSetGeneration',
  'setReverse',
  'setExecutionLimit',
  'networkReserve',
  'networkStageFrom',
  'useNetwork',
  'networkValueOf',
  'networkGreedy',
] as const;

function clock(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function imports(memory?: WebAssembly.Memory, now: () => number = clock): WebAssembly.Imports {
  return {
    env: {
      ...(memory ? { memory } : {}),
      now,
      abort: () => {
        throw new Error('wasm core: abort');
      },
    },
  };
}

function wrap(instance: WebAssembly.Instance): WasmCore {
  const exports = instance.exports as Record<string, unknown>;
  for (const name of [...EXPORTS, 'init']) {
    if (typeof exports[name] !== 'function') throw new Error(`wasm core: the module does not export ${name}()`);
  }
  (exports.init as () => void)();
  return exports as unknown as WasmCore;
}

/** Instantiate synchronously (Node, workers; a browser main thread limits synchronous compiles). */
export function instantiateWasmCore(source: BufferSource | WebAssembly.Module): WasmCore {
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  return wrap(new WebAssembly.Instance(module, imports()));
}

/**
 * Instantiate engine-shared.wasm on `memory` (shared, made by the host) synchronously: every thread that
 * does so with the same memory shares its tables and, after ttShare, its transposition table. `now`: the
 * clock the search polls against its deadline (a helper's returns Infinity to stop it).
 */
export function instantiateSharedWasmCore(source: BufferSource | WebAssembly.Module, memory: WebAssembly.Memory, now?: () => number): WasmCore {
  const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
  return wrap(new WebAssembly.Instance(module, imports(memory, now)));
}

/** Instantiate asynchronously (a browser worker that fetched the packaged .wasm). */
export async function instantiateWasmCoreAsync(source: BufferSource | WebAssembly.Module): Promise<WasmCore> {
  if (source instanceof WebAssembly.Module) return wrap(await WebAssembly.instantiate(source, imports()));
  const { instance } = await WebAssembly.instantiate(source, imports());
  return wrap(instance);
}

let installed: WasmCore | null = null;

/** Make `core` the one the expectimax strategy uses on 4x4 boards (null: the TypeScript search). */
export function installWasmCore(core: WasmCore | null): void {
  installed = core;
}

export function wasmCore(): WasmCore | null {
  return installed;
}
