/**
 * A trainer thread: trains on the shared weights in its own block, claiming episodes from the shared counter a
 * chunk at a time (about a second's worth) and reporting each chunk's finished games.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CONTROL_REMAINING, CONTROL_STOP, instantiateTrainer } from './protocol';
import type { TrainWorkerData, TrainWorkerReport } from './protocol';

const CHUNK_MS = 1000;
const MAX_CHUNK = 4096;

const port = parentPort;
if (!port) throw new Error('the trainer worker must run in a worker thread');
const data = workerData as TrainWorkerData;
const { settings } = data;
const trainer = instantiateTrainer(data.module, data.memory);
trainer.setStages(settings.stageCount, settings.lateRank);
trainer.setLateRestarts(settings.lateRestarts);
trainer.setFrozen(settings.frozen ? 1 : 0);
trainer.setup(settings.shapeId, settings.threads, settings.coherence ? 1 : 0, settings.initial, 0);
trainer.useThread(data.thread, data.seed >>> 0, (data.seed * 0x9e3779b1 + data.thread) >>> 0, data.reseed ? 1 : 0);
trainer.configure(settings.alpha, settings.lambda, settings.steps, settings.restarts ? 1 : 0, 1);

const control = new Int32Array(data.control);
const report = (message: TrainWorkerReport): void => port.postMessage(message);

let chunk = 4;
for (;;) {
  if (Atomics.load(control, CONTROL_STOP) !== 0) break;
  const before = Atomics.sub(control, CONTROL_REMAINING, chunk);
  const claimed = Math.min(chunk, before);
  if (claimed <= 0) break;
  const started = performance.now();
  const movesBefore = trainer.movesPlayed();
  const written = trainer.train(claimed);
  const elapsed = performance.now() - started;
  const records = new Uint32Array(data.memory.buffer, trainer.resultsOf(data.thread), written * 4).slice();
  report({ type: 'chunk', thread: data.thread, records, moves: trainer.movesPlayed() - movesBefore });
  // About a second's worth next time, growing at most twofold (games lengthen as the network learns).
  chunk = Math.max(1, Math.min(MAX_CHUNK, 2 * claimed, Math.round((claimed * CHUNK_MS) / Math.max(1, elapsed))));
}
report({ type: 'done', thread: data.thread });
