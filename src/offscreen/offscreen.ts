/**
 * The offscreen document: Chrome's solver host. It holds the worker pool and answers the background's
 * `offscreen/solve` and `offscreen/cancel`. It closes itself after a minute without requests; the
 * background creates it again on the next request (src/background/offscreen-host.ts).
 */
import { listen } from '../shared/messages';
import { createWorkerPool } from '../solver/worker-pool';

const OFFSCREEN_IDLE_CLOSE_MS = 60_000;

const pool = createWorkerPool();

let idleTimer: ReturnType<typeof setTimeout> | null = null;

function scheduleIdleClose(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (pool.busy) scheduleIdleClose();
    else {
      pool.dispose();
      window.close();
    }
  }, OFFSCREEN_IDLE_CLOSE_MS);
}

listen('offscreen', {
  'offscreen/solve': (request) => {
    scheduleIdleClose();
    return pool.solve(request);
  },
  'offscreen/cancel': (request) => {
    scheduleIdleClose();
    pool.cancel(request.requestId, request.channel);
    return {};
  },
});

scheduleIdleClose();
