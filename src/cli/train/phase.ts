/**
 * One phase of a training run on the worker threads (the warm-up, or the training itself): hands out the
 * episodes, passes each chunk of finished games on, and stops every thread after its game on SIGINT/SIGTERM.
 */
import { Worker } from 'node:worker_threads';
import { CONTROL_REMAINING, CONTROL_STOP } from './protocol';
import type { LearningSettings, TrainWorkerData, TrainWorkerReport } from './protocol';

const WORKER_ENTRY = new URL('./worker-entry.mjs', import.meta.url);

export interface PhaseRun {
  readonly module: WebAssembly.Module;
  readonly memory: WebAssembly.Memory;
  /** The trainer's stop word (its address in the memory). */
  readonly stopWord: number;
  readonly settings: LearningSettings;
  readonly seed: number;
  /** The warm-up: TC's sums gather, the weights stay. */
  readonly frozen: boolean;
  readonly episodes: number;
  /** Threads from this one on get new random states (those before keep a checkpoint's). */
  readonly reseedFrom: number;
}

export interface PhaseReport {
  readonly records: Uint32Array;
  readonly moves: number;
}

/** Run `episodes` episodes on the threads (warm-up: `frozen`), reporting each chunk; stops on SIGINT/SIGTERM. */
export function runPhase(run: PhaseRun, onChunk: (report: PhaseReport) => void): Promise<boolean> {
  const settings: LearningSettings = { ...run.settings, frozen: run.frozen };
  const control = new Int32Array(new SharedArrayBuffer(8));
  control[CONTROL_REMAINING] = Math.min(run.episodes, 0x7fffffff);
  const workers: Worker[] = [];
  let live = settings.threads;
  let stopped = false;
  return new Promise<boolean>((resolve, reject) => {
    const onSignal = (): void => {
      if (stopped) return;
      stopped = true;
      process.stdout.write('\ntrain: stopping (finishing the current chunks, then a checkpoint)\n');
      Atomics.store(control, CONTROL_STOP, 1);
      Atomics.store(new Int32Array(run.memory.buffer), run.stopWord >> 2, 1);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const finish = (error?: Error): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (error) {
        Atomics.store(control, CONTROL_STOP, 1);
        for (const worker of workers) void worker.terminate();
        reject(error);
      } else resolve(stopped);
    };
    if (run.episodes <= 0) {
      finish();
      return;
    }
    for (let thread = 0; thread < settings.threads; thread++) {
      const data: TrainWorkerData = { module: run.module, memory: run.memory, control: control.buffer as SharedArrayBuffer, thread, seed: (run.seed + thread * 0x9e3779b9 + (run.frozen ? 0x51ed : 0)) >>> 0, reseed: thread >= run.reseedFrom, settings };
      const worker = new Worker(WORKER_ENTRY, { workerData: data });
      workers.push(worker);
      worker.on('message', (report: TrainWorkerReport) => {
        if (report.type === 'done') {
          live--;
          if (live === 0) finish();
          return;
        }
        onChunk(report);
      });
      worker.on('error', (error) => finish(error));
      worker.on('exit', (code) => {
        if (code !== 0) finish(new Error(`a trainer thread exited with code ${code}`));
      });
    }
  });
}

