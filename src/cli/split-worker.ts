/** A split-search worker thread: runs the cell tasks it is handed on its own WebAssembly core. */
import { parentPort } from 'node:worker_threads';
import { runCellTask } from '../engine/index';
import { useEngine } from './engine';
import type { CellTaskReply, CellTaskRequest } from './split-protocol';

const port = parentPort;
if (!port) throw new Error('split-worker must run in a worker thread');

const ready = useEngine('wasm');
ready.then(
  () => port.postMessage({ type: 'ready' } satisfies CellTaskReply),
  () => undefined,
);

port.on('message', (request: CellTaskRequest) => {
  if (request.type !== 'task') return;
  ready
    .then(() => runCellTask(request.grid, request.task, request.limit))
    .then(
      ({ sum, executions }): CellTaskReply => ({ type: 'done', id: request.id, sum, executions }),
      (error: unknown): CellTaskReply => ({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) }),
    )
    .then((reply) => port.postMessage(reply));
});
