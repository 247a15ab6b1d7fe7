/** A bench worker thread: plays the games the main thread hands it, one at a time. */
import { parentPort } from 'node:worker_threads';
import { maxTile } from '../engine/index';
import type { PlayGameRequest, WorkerReply } from './bench-protocol';
import { DEFAULT_ENGINE, useEngine } from './engine';
import { playGame } from './game';
import { useTables } from './tables';
import { useNetwork } from './network';

const PROGRESS_INTERVAL_MS = 1000;

const port = parentPort;
if (!port) throw new Error('bench-worker must run in a worker thread');

function reply(message: WorkerReply): void {
  port?.postMessage(message);
}

let engineReady: Promise<void> | null = null;

port.on('message', (request: PlayGameRequest) => {
  if (request.type !== 'play') return;
  let lastProgress = performance.now();
  engineReady ??= Promise.all([useEngine(request.settings.engine ?? DEFAULT_ENGINE), useTables(request.settings.tables)]).then(() => {
    useNetwork(request.settings.network ?? null);
  });
  engineReady.then(() => playGame(request.index, request.seed, request.settings, {
    onState: (state) => {
      const now = performance.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
      lastProgress = now;
      reply({ type: 'progress', index: request.index, moves: state.moves, maxTile: maxTile(state.grid) });
    },
  })).then(
    ({ grid: _grid, ...result }) => reply({ type: 'result', result }),
    (error: unknown) =>
      reply({ type: 'error', index: request.index, message: error instanceof Error ? error.message : String(error) }),
  );
});
