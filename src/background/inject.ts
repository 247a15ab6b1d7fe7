/**
 * Injecting the autopilot into a tab (called by the background: Chrome's service worker, Firefox's event page): a fresh secret and channel name for
 * the main-world bridge, handed to each world through the injection call itself — never through the DOM
 * (threat model: src/page/main-world.ts).
 *
 * 1. ISOLATED world: a one-line function stores the keys on the isolated world's global, which the page
 *    cannot see; the content script takes them (and deletes them) as it starts. With them goes the
 *    installation's handover key (src/content/handover.ts).
 * 2. ISOLATED world: the content script file.
 * 3. MAIN world: the agent function itself, with the keys as its arguments — only when the content
 *    script that runs there now took these keys: one that was already there (two commands injected at
 *    once) keeps its own agent, and no second agent is left listening in the page. A content script that
 *    stood down sent its agent away before this (src/content/index.ts): one agent per page at any time.
 */
import { mainWorldAgent } from '../page/main-world';
import { KEYS_GLOBAL, makeToken } from '../shared/bridge-protocol';
import { browser } from '../platform/runtime';

function handOverKeys(global: string, secret: string, channel: string, handover: string): void {
  (globalThis as unknown as Record<string, unknown>)[global] = { secret, channel, handover };
}

/** storage.local key of the handover key (src/content/handover.ts): one per installation, kept across updates. */
const HANDOVER_KEY = 'handoverKey';

/** The installation's handover key, made on first use. */
async function handoverKey(): Promise<string> {
  const stored: unknown = (await browser.storage.local.get(HANDOVER_KEY))[HANDOVER_KEY];
  if (typeof stored === 'string' && /^[A-Za-z0-9_-]{43}$/.test(stored)) return stored;
  const key = makeToken(43);
  await browser.storage.local.set({ [HANDOVER_KEY]: key });
  return key;
}

/** Runs in the isolated world: does the live content script there use this channel (it took these keys)? */
function tookKeys(mark: string, channel: string): boolean {
  const instance = (globalThis as unknown as Record<string, unknown>)[mark] as { channel?: unknown; alive?: unknown } | undefined;
  return typeof instance === 'object' && instance !== null && instance.channel === channel && typeof instance.alive === 'function' && instance.alive() === true;
}

/** Into the tab's top document, or, given its id, into that one document only (never a later page of the tab). */
export async function injectAutopilot(tabId: number, contentScriptFile: string, contentMark: string, documentId?: string): Promise<void> {
  const target = documentId !== undefined ? { tabId, documentIds: [documentId] } : { tabId, frameIds: [0] };
  const secret = makeToken(43);
  const channel = makeToken(22);
  await browser.scripting.executeScript({ target, world: 'ISOLATED', func: handOverKeys, args: [KEYS_GLOBAL, secret, channel, await handoverKey()] });
  await browser.scripting.executeScript({ target, files: [contentScriptFile] });
  const [taken] = await browser.scripting.executeScript({ target, func: tookKeys, args: [contentMark, channel] });
  if (taken?.result !== true) return;
  await browser.scripting.executeScript({ target, world: 'MAIN', func: mainWorldAgent, args: [secret, channel] });
}
