/**
 * The offscreen document: Chrome's solver host. It holds the worker pool, starts its workers as it loads
 * (the background creates it ahead of the first search: docs: architecture.md, "Contexts") and answers the
 * background's `offscreen/solve` and `offscreen/cancel`. It closes itself after a minute without requests;
 * the background creates it again on the next request (src/background/offscreen-host.ts). The manifest's
 * COOP/COEP keys make it cross-origin isolated: its workers share one copy of the learned network
 * (src/solver/worker-pool.ts), whose state it reports to the background (`solver/network`), the only
 * extension API it has being runtime.
 */
import type { Grid, MoveChoice } from '../engine/index';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';
import { listen, send } from '../platform/messaging';
import { OFFSCREEN_IDLE_CLOSE_MS } from '../solver/host';
import { createWorkerPool } from '../solver/worker-pool';

const pool = createWorkerPool((status) => void send('solver/network', { status }).catch(() => undefined));
// The document is made for searching (at the latest by the first one): its workers start now, each loading its core.
pool.warm();

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

/** Said in the status when a 4x4 expectimax search ran on the TypeScript engine: the WebAssembly core
 *  could not be instantiated in the solver worker (the search is slower, the moves the same). */
function fallbackNote(choice: MoveChoice, board: Grid): StatusMessage | undefined {
  if (choice.strategy !== 'expectimax' || choice.engine !== 'ts' || board.rows !== 4 || board.cols !== 4) return undefined;
  if (board.cells.some((v) => v > 32768)) return undefined; // beyond the 64-bit board: TypeScript by design
  return statusMessage('wasmUnavailable');
}

listen('offscreen', {
  'offscreen/solve': async (request) => {
    scheduleIdleClose();
    const result = await pool.solve(request);
    const note = result.note ?? fallbackNote(result.choice, request.board);
    return note === undefined ? result : { ...result, note };
  },
  'offscreen/cancel': (request) => {
    scheduleIdleClose();
    pool.cancel(request.requestId, request.channel);
    return {};
  },
});

scheduleIdleClose();
