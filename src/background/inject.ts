/**
 * Injecting the autopilot into a tab (called by the background: Chrome's service worker, Firefox's event page): a fresh secret and channel name for
 * the main-world bridge, handed to each world through the injection call itself — never through the DOM
 * (threat model: src/page/main-world.ts).
 *
 * 1. ISOLATED world: a one-line function stores the keys on the isolated world's global, which the page
 *    cannot see; the content script takes them (and deletes them) as it starts.
 * 2. ISOLATED world: the content script file.
 * 3. MAIN world: the agent function itself, with the keys as its arguments.
 */
import { mainWorldAgent } from '../page/main-world';
import { KEYS_GLOBAL, makeToken } from '../shared/bridge-protocol';
import { browser } from '../platform/runtime';

function handOverKeys(global: string, secret: string, channel: string): void {
  (globalThis as unknown as Record<string, unknown>)[global] = { secret, channel };
}

/** Into the tab's top document, or, given its id, into that one document only (never a later page of the tab). */
export async function injectAutopilot(tabId: number, contentScriptFile: string, documentId?: string): Promise<void> {
  const target = documentId !== undefined ? { tabId, documentIds: [documentId] } : { tabId, frameIds: [0] };
  const secret = makeToken(43);
  const channel = makeToken(22);
  await browser.scripting.executeScript({ target, world: 'ISOLATED', func: handOverKeys, args: [KEYS_GLOBAL, secret, channel] });
  await browser.scripting.executeScript({ target, files: [contentScriptFile] });
  await browser.scripting.executeScript({ target, world: 'MAIN', func: mainWorldAgent, args: [secret, channel] });
}
