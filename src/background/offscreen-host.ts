/**
 * Chrome's solver host: the offscreen document (src/offscreen/), created on demand (reason WORKERS) when
 * the popup or the panel opens, when a command comes and at a search, found again through
 * runtime.getContexts after a service-worker restart (the document outlives this worker), created again
 * when it closed itself after idling.
 *
 * A search right after the document's last answer skips the look (a round trip to the browser each move of a
 * run): the document closes itself only after OFFSCREEN_IDLE_CLOSE_MS without requests, so it is still there.
 * After a longer quiet, or when a request finds nobody (it crashed), the document is looked for again first.
 */
import { browser } from '../platform/runtime';
import { DeliveryError } from '../shared/protocol';
import { send } from '../platform/messaging';
import { OFFSCREEN_IDLE_CLOSE_MS } from '../solver/host';
import type { SolverHost } from '../solver/host';

const OFFSCREEN_PATH = 'src/offscreen/offscreen.html';

let creating: Promise<void> | null = null;
/** When the document last answered a search (ms, Date.now()); null: not since this worker started, or it went away. */
let answeredAt: number | null = null;
/** A search this soon after the last answer finds the document without looking (half its idle time: a margin). */
const KNOWN_ALIVE_MS = OFFSCREEN_IDLE_CLOSE_MS / 2;

async function offscreenExists(): Promise<boolean> {
  const contexts = await browser.runtime.getContexts({
    contextTypes: ['OFFSCREEN_DOCUMENT' as never],
    documentUrls: [browser.runtime.getURL(OFFSCREEN_PATH)],
  });
  return contexts.length > 0;
}

async function ensureOffscreenDocument(): Promise<void> {
  if (creating) return creating;
  if (await offscreenExists()) return;
  if (!creating) {
    // An API only Chrome has (and only this host uses): the Firefox build never includes this file.
    creating = chrome.offscreen
      .createDocument({
        url: OFFSCREEN_PATH,
        reasons: ['WORKERS'],
        justification: 'Runs the 2048 solver in Web Workers (a service worker cannot start workers).',
      })
      .catch((err: unknown) => {
        // Created meanwhile by another call: that is what we wanted.
        if (!/single offscreen|already/i.test(err instanceof Error ? err.message : String(err))) throw err;
      })
      .finally(() => {
        creating = null;
      });
  }
  return creating;
}

export const offscreenSolverHost: SolverHost = {
  async solve(request) {
    for (let attempt = 0; ; attempt++) {
      if (answeredAt === null || Date.now() - answeredAt > KNOWN_ALIVE_MS) await ensureOffscreenDocument();
      try {
        const reply = await send('offscreen/solve', request);
        answeredAt = Date.now();
        return reply;
      } catch (err) {
        if (err instanceof DeliveryError && err.transient) {
          // Nobody answered: the document closed itself (idle) between the check and the message, or crashed.
          // Look for it (create it) again, once.
          answeredAt = null;
          if (attempt === 0) continue;
        }
        throw err;
      }
    }
  },
  // The document starts its workers as it loads (src/offscreen/offscreen.ts): creating it is warming it.
  warm: ensureOffscreenDocument,
  async cancel(requestId, channel) {
    try {
      await send('offscreen/cancel', { requestId, channel });
    } catch {
      // No solver document: nothing to cancel.
    }
  },
};
