/** Messages between the trainer (src/cli/train.ts) and its worker threads (./worker.ts). */

/** The trainer module's exports (src/engine/wasm/assembly/train.ts). */
export interface TrainerExports {
  /** Before setup(), in every instance: 1 stage, or 2 with the second from largest rank `lateRank`. */
  setStages(count: number, lateRank: number): void;
  setLateRestarts(n: number): void;
  /** 1: the warm-up (TC's sums gather, the weights stay). */
  setFrozen(on: number): void;
  setup(shape: number, threads: number, coherence: number, initial: number, owner: number): number;
  weightBytes(): number;
  /** Address of the word that stops train() after the game under way (set it with Atomics). */
  stopWord(): number;
  threadBlock(thread: number): number;
  resultsOf(thread: number): number;
  useThread(thread: number, seedLo: number, seedHi: number, reseed: number): void;
  configure(alpha: number, lambda: number, steps: number, restarts: number, learn: number): void;
  train(episodes: number): number;
  movesPlayed(): number;
  value(lo: number, hi: number): number;
}

export interface LearningSettings {
  /** 0: 4x6, 1: 4x4 (the WebAssembly core's shape ids). */
  readonly shapeId: number;
  readonly threads: number;
  readonly coherence: boolean;
  readonly initial: number;
  readonly alpha: number;
  readonly lambda: number;
  readonly steps: number;
  readonly restarts: boolean;
  /** 1, or 2 (the second stage for boards whose largest rank is at least lateRank). */
  readonly stageCount: number;
  readonly lateRank: number;
  /** Games restarted from late boards after a fresh game reached the late stage. */
  readonly lateRestarts: number;
  /** The warm-up: gather TC's sums, keep the weights. */
  readonly frozen: boolean;
}

export interface TrainWorkerData {
  readonly module: WebAssembly.Module;
  readonly memory: WebAssembly.Memory;
  /** Int32Array over it: [0] episodes not yet handed out, [1] 1 = stop. */
  readonly control: SharedArrayBuffer;
  readonly thread: number;
  readonly seed: number;
  /** false when resuming: the thread's random state and restart board come from the checkpoint. */
  readonly reseed: boolean;
  readonly settings: LearningSettings;
}

export const CONTROL_REMAINING = 0;
export const CONTROL_STOP = 1;

/** A worker's finished games since its last report: 4 u32 per game (score, moves, largest rank, 0). */
interface ChunkReport {
  readonly type: 'chunk';
  readonly thread: number;
  readonly records: Uint32Array;
  readonly moves: number;
}

interface DoneReport {
  readonly type: 'done';
  readonly thread: number;
}

export type TrainWorkerReport = ChunkReport | DoneReport;

export function instantiateTrainer(module: WebAssembly.Module, memory: WebAssembly.Memory): TrainerExports {
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  return instance.exports as unknown as TrainerExports;
}
