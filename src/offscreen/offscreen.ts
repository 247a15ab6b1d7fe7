/**
 * The offscreen document: hosts the solver pool (module Web Workers, one per core, at most 4) and
 * answers the background's `offscreen/solve` and `offscreen/cancel`. It closes itself after a minute
 * without requests; the background creates it again on the next request.
 */
import { getStrategy, legalMoves, mergeChoices } from '../engine/index';
import { ACCEPTED_BY, ProtocolError, errorReply, isOwnSender, parseMessage } from '../shared/messages';
import type { Message, Reply } from '../shared/messages';
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
      return result.note === undefined ? { ok: true, choice: result.choice } : { ok: true, choice: result.choice, note: result.note };
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
