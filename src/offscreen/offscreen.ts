/**
 * The offscreen document: hosts the solver pool (module Web Workers, one per core, at most 4) and
 * answers the background's `offscreen/solve` and `offscreen/cancel`. It closes itself after a minute
 * without requests; the background creates it again on the next request.
 */
import { getStrategy, legalMoves, mergeChoices } from '../engine/index';
import { ACCEPTED_BY, ProtocolError, errorReply, isOwnSender, parseMessage } from '../shared/messages';
import type { Message, Reply } from '../shared/messages';
import type { Grid, MoveChoice } from '../engine/index';
import { SolverPool } from '../solver/pool';
import type { SolverWorker } from '../solver/pool';
import { poolSize } from '../solver/size';

export const OFFSCREEN_IDLE_CLOSE_MS = 60_000;

const pool = new SolverPool({
  size: poolSize(navigator.hardwareConcurrency),
  createWorker: () => new Worker(new URL('../solver/worker.ts', import.meta.url), { type: 'module' }) as unknown as SolverWorker,
  engine: {
    legalMoves,
    mergeChoices,
    fallback: (grid) => getStrategy('priority').chooseMove(grid, {}),
  },
});

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
function fallbackNote(choice: MoveChoice, board: Grid): string | undefined {
  if (choice.strategy !== 'expectimax' || choice.engine !== 'ts' || board.rows !== 4 || board.cols !== 4) return undefined;
  if (board.cells.some((v) => v > 32768)) return undefined; // beyond the 64-bit board: TypeScript by design
  return 'The WebAssembly solver is unavailable here: searching with the slower TypeScript engine';
}

type OffscreenMessage = Extract<Message, { kind: (typeof ACCEPTED_BY.offscreen)[number] }>;

async function handle(message: OffscreenMessage): Promise<Reply<OffscreenMessage['kind']>> {
  switch (message.kind) {
    case 'offscreen/ping':
      return { ok: true };
    case 'offscreen/cancel':
      pool.cancel(message.requestId, message.channel);
      return { ok: true };
    case 'offscreen/solve': {
      const result = await pool.solve({
        requestId: message.requestId,
        channel: message.channel,
        strategy: message.strategy,
        board: message.board,
        options: message.options,
      });
      const note = result.note ?? fallbackNote(result.choice, message.board);
      return note === undefined ? { ok: true, choice: result.choice } : { ok: true, choice: result.choice, note };
    }
  }
}

function isForOffscreen(message: Message): message is OffscreenMessage {
  return (ACCEPTED_BY.offscreen as readonly string[]).includes(message.kind);
}

chrome.runtime.onMessage.addListener((data: unknown, sender, sendResponse) => {
  // Every extension page hears every runtime message: answer only what is addressed to this document,
  // and stay silent otherwise (the background answers those).
  if (!isOwnSender(sender, chrome.runtime.id)) return false;
  let message: Message;
  try {
    message = parseMessage(data);
  } catch (err) {
    if (err instanceof ProtocolError && typeof data === 'object' && data !== null && String((data as { kind?: unknown }).kind).startsWith('offscreen/')) {
      sendResponse(errorReply(err));
    }
    return false;
  }
  if (!isForOffscreen(message)) return false;
  scheduleIdleClose();
  handle(message).then(sendResponse, (err: unknown) => sendResponse(errorReply(err)));
  return true;
});

scheduleIdleClose();
