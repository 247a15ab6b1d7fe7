/**
 * The trainer's shared memory as the host sees it: every stage's f32 weights, then TC's sums (E and A per
 * weight), filled from a checkpoint or a network file, and a one-stage source split into two stages.
 */
import type { Network } from '../../engine/network/format';
import { readIntoMemory } from './checkpoint';
import type { CheckpointHeader } from './checkpoint';

/** Where the run's weights and TC's sums sit in the shared memory (every stage's, stage-major). */
export interface Layout {
  readonly memory: WebAssembly.Memory;
  readonly weightsAt: number;
  /** Weights of one stage. */
  readonly count: number;
  readonly stageCount: number;
  readonly coherence: boolean;
}

/** Duplicate stage 0 (weights and sums) into stage 1: a one-stage source split into two stages. */
export function copyStageZero(layout: Layout): void {
  const { memory, weightsAt, count, stageCount, coherence } = layout;
  if (stageCount < 2) return;
  const floats = new Float32Array(memory.buffer);
  const w = weightsAt >> 2;
  floats.copyWithin(w + count, w, w + count);
  if (coherence) {
    const sums = w + count * stageCount;
    floats.copyWithin(sums + 2 * count, sums, sums + 2 * count);
  }
}

/** A network file's weights (every stage it has) into the shared memory as f32. */
export function loadNetwork(layout: Layout, network: Network, stages: number): void {
  const target = new Float32Array(layout.memory.buffer, layout.weightsAt, layout.count * layout.stageCount);
  const n = Math.min(stages, layout.stageCount) * layout.count;
  for (let i = 0; i < n; i++) target[i] = network.weights[i] * network.scale;
}

/** A checkpoint's weights and sums (of one stage or as many as the run) into the shared memory. */
export function loadCheckpoint(layout: Layout, source: { file: string; header: CheckpointHeader; dataOffset: number }): void {
  const from = source.header.stages?.length ?? 1;
  const weightBytes = layout.count * 4 * from;
  const expected = weightBytes * (layout.coherence ? 3 : 1);
  if (source.header.regionBytes !== expected) throw new Error(`${source.file}: its weights take ${source.header.regionBytes} bytes, ${from} stage(s) of this network ${expected}`);
  readIntoMemory(source.file, source.dataOffset, { memory: layout.memory, offset: layout.weightsAt, bytes: weightBytes });
  if (layout.coherence) {
    const sumsAt = layout.weightsAt + layout.count * 4 * layout.stageCount;
    readIntoMemory(source.file, source.dataOffset + weightBytes, { memory: layout.memory, offset: sumsAt, bytes: weightBytes * 2 });
  }
}

