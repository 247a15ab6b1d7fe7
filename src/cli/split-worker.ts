/** A split-search worker thread: runs the cell tasks it is handed on its own WebAssembly core. */
import { parentPort, workerData } from 'node:worker_threads';
import { getStrategy, runCellTask } from '../engine/index';
import type { SearchEngine } from '../engine/index';
import { useEngine } from './engine';
import type { CellTaskReply, CellTaskRequest, ChooseRequest } from './split-protocol';

const port = parentPort;
if (!port) throw new Error('split-worker must run in a worker thread');

const engine = (workerData as { engine?: SearchEngine } | null)?.engine === 'ts' ? 'ts' : 'wasm';
const ready = useEngine(engine);
ready.then(
  () => port.postMessage({ type: 'ready' } satisfies CellTaskReply),
  () => undefined,
);

port.on('message', (request: CellTaskRequest | ChooseRequest) => {
  if (request.type === 'choose') {
    ready
      .then(() => getStrategy(request.strategy).chooseMove(request.grid, request.options))
      .then(
        (choice): CellTaskReply => ({ type: 'chosen', id: request.id, choice }),
        (error: unknown): CellTaskReply => ({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) }),
      )
      .then((reply) => port.postMessage(reply));
    return;
  }
  if (request.type !== 'task') return;
  ready
    .then(() => runCellTask(request.grid, request.task, request.limit))
    .then(
      ({ sum, executions }): CellTaskReply => ({ type: 'done', id: request.id, sum, executions }),
      (error: unknown): CellTaskReply => ({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) }),
    )
    .then((reply) => port.postMessage(reply));
});
