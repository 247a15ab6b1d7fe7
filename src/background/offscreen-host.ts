/**
 * The offscreen document that hosts the solver workers: created on demand (reason WORKERS), found again
 * through chrome.runtime.getContexts after a service-worker restart (the document outlives this worker),
 * created again when it closed itself after idling.
 */
export const OFFSCREEN_PATH = 'src/offscreen/offscreen.html';

let creating: Promise<void> | null = null;

async function offscreenExists(): Promise<boolean> {
  const contexts = await chrome.runtime.getContexts({
    contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType],
    documentUrls: [chrome.runtime.getURL(OFFSCREEN_PATH)],
  });
  return contexts.length > 0;
}

export async function ensureOffscreenDocument(): Promise<void> {
  if (creating) return creating;
  if (await offscreenExists()) return;
  if (!creating) {
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

/** The message had no receiver (no offscreen document, or it closed before answering). */
export function isNoReceiver(err: unknown): boolean {
  return /Receiving end does not exist|message port closed|Could not establish connection/i.test(err instanceof Error ? err.message : String(err));
}
