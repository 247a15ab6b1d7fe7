/**
 * A split-search worker thread. In a pool with a shared table it takes its share of each split search
 * posted on the job board (workSplit on the shared-memory core); otherwise it runs the parts of timed
 * searches it is sent (chooseMove on its own core).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { getStrategy, workSplit } from '../engine/index';
import { sharedCore, useEngine } from './engine';
import { useNetwork } from './network';
import { finishJob, waitForJob } from './split-protocol';
import type { ChooseRequest, SplitReply, SplitWorkerData } from './split-protocol';

const port = parentPort;
if (!port) throw new Error('split-worker must run in a worker thread');

const data = workerData as SplitWorkerData;
const engine = data.engine === 'ts' ? 'ts' : 'wasm';
const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

if (data.split) {
  const split = data.split;
  let stop: (() => boolean) | null = null;
  const core = sharedCore(split.memory, split.bits, () => (stop?.() ? Infinity : performance.now()), split.descriptor);
  let network = split.descriptor !== undefined;
  const table = {
    core,
    stopWhen: (next: (() => boolean) | null): void => {
      stop = next;
    },
  };
  port.postMessage({ type: 'ready' } satisfies SplitReply);
  // Blocks between jobs (Atomics.wait): this thread does nothing else.
  for (let next = waitForJob(split.jobs, 0); next; next = waitForJob(split.jobs, next.seq)) {
    const { job } = next;
    let executions = [NaN, NaN, NaN, NaN];
    try {
      if (job.clear && split.worker === 0) core.ttShare(split.bits, true);
      const wanted = job.network && split.descriptor !== undefined;
      if (wanted !== network) core.useNetwork(wanted ? 1 : 0);
      network = wanted;
      const bounds = { stopAt: job.deadline - performance.timeOrigin, cutoff: job.cutoff };
      executions = workSplit(job.grid, job.plan, split.buffer, split.worker, job.limit, { ...table, generation: job.generation }, bounds);
    } catch (error) {
      port.postMessage({ type: 'split-error', message: errorMessage(error) } satisfies SplitReply);
    }
    finishJob(split.jobs, split.worker, executions);
  }
  port.close();
} else {
  const ready = useEngine(engine).then(() => {
    useNetwork(data.network ?? null);
  });
  ready.then(
    () => port.postMessage({ type: 'ready' } satisfies SplitReply),
    () => undefined,
  );
  port.on('message', (request: ChooseRequest) => {
    if (request.type !== 'choose') return;
    ready
      .then(() => getStrategy(request.strategy).chooseMove(request.grid, request.options))
      .then(
        (choice): SplitReply => ({ type: 'chosen', id: request.id, choice }),
        (error: unknown): SplitReply => ({ type: 'error', id: request.id, message: errorMessage(error) }),
      )
      .then((reply) => port.postMessage(reply));
  });
}
