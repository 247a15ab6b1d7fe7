/**
 * The browser, for every extension context, and the few things that really differ between Chrome and
 * Firefox: no other file asks which browser it runs in.
 *
 * - `browser`: the promise-based `browser.*` of webextension-polyfill (Firefox's own object there; in
 *   Chrome a thin promise wrapper of `chrome.*`), typed by @types/webextension-polyfill. Extension code
 *   uses it for storage, tabs, scripting, permissions, commands and the badge.
 * - Runtime messaging: runtime and tab messages (`sendRaw`, `onRawMessage`) here, request ports and
 *   channels in ./port-transport.ts and ./channel-transport.ts; everything else goes through `send` and
 *   `listen` (./messaging.ts), which call only these.
 * - Which browser the build is for (`__EXTENSION_BROWSER__`, set by vite.config.ts; Chrome outside a
 *   build) decides the rest: where the solver's workers live (`SOLVER_HOST`: Chrome's MV3 background is
 *   a service worker, which cannot start Web Workers, so an offscreen document hosts them; Firefox has no
 *   offscreen API and its MV3 background is an event page that starts them itself) and where a user
 *   changes shortcuts (`SHORTCUTS_PAGE`). The extension's page origin is asked of the browser
 *   (`chrome-extension://<id>/`, `moz-extension://<uuid>/`), and the panel beside the page is Chrome's
 *   side panel or Firefox's sidebar (`hasPanel`, `openPanel`). MAIN-world injection, commands,
 *   storage.session and optional host permissions are the same API in both.
 *
 * Never import this from the page's main world (src/page/): the polyfill needs an extension context.
 */

// `#webextension-polyfill` (package.json "imports"): the polyfill, or in Node (the CLI, whose solver pool
// imports the protocol's schemas) the stand-in src/platform/no-browser.ts, since the polyfill refuses to load there.
import browser from '#webextension-polyfill';
import type { Runtime, Tabs } from 'webextension-polyfill';
import type { RawListener, TabTarget } from '../shared/protocol';
import { RPC_PREFIX } from './rpc';

export { browser };

declare const __EXTENSION_BROWSER__: 'chrome' | 'firefox' | undefined;

/** The browser this build is for. */
export const BROWSER: 'chrome' | 'firefox' = typeof __EXTENSION_BROWSER__ === 'string' ? __EXTENSION_BROWSER__ : 'chrome';

/** Where the solver's workers live: an offscreen document (Chrome) or the background event page (Firefox). */
export const SOLVER_HOST: 'offscreen-document' | 'background-page' = BROWSER === 'firefox' ? 'background-page' : 'offscreen-document';

/** Where a user sets or changes the extension's keyboard shortcuts. */
export const SHORTCUTS_PAGE = BROWSER === 'firefox' ? 'about:addons → ⚙ → Manage Extension Shortcuts' : 'chrome://extensions/shortcuts';

/** Whether the extension has a panel the browser can open beside the page (Chrome's side panel, Firefox's sidebar). */
export function hasPanel(): boolean {
  return BROWSER === 'firefox' ? browser.sidebarAction !== undefined : typeof chrome !== 'undefined' && chrome.sidePanel !== undefined;
}

/**
 * Open the panel beside the page in window `windowId` (Chrome: sidePanel.open; Firefox: sidebarAction.open,
 * which opens it in the current window). Both need the user's gesture: call it in the click or command
 * handler itself, before anything is awaited.
 */
export function openPanel(windowId: number): Promise<void> {
  return BROWSER === 'firefox' ? browser.sidebarAction.open() : chrome.sidePanel.open({ windowId });
}

/** Send a message to the extension's own contexts (no target) or to a tab's content script; resolves with the raw reply. */
export function sendRaw(message: unknown, target?: TabTarget): Promise<unknown> {
  if (!target) return browser.runtime.sendMessage(message);
  const options: Tabs.SendMessageOptionsType =
    target.documentId !== undefined ? { documentId: target.documentId } : { frameId: target.frameId ?? 0 };
  return browser.tabs.sendMessage(target.tabId, message, options);
}

/** Listen to runtime messages; returns a function that stops listening. */
export function onRawMessage(listener: RawListener): () => void {
  // Both browsers (and the polyfill) keep the channel open when a listener returns true and answers later.
  const wrapped = (message: unknown, sender: Runtime.MessageSender, sendResponse: (reply: unknown) => void): true =>
    listener(message, sender, sendResponse) as true;
  // The event object of this context, kept for the removal (a later script in the same world may see another).
  const onMessage = browser.runtime.onMessage;
  onMessage.addListener(wrapped);
  return () => onMessage.removeListener(wrapped);
}

/** This extension's id. */
export function extensionId(): string {
  return browser.runtime.id;
}

/** The origin of this extension's own pages, with a trailing slash (`chrome-extension://<id>/`, `moz-extension://<uuid>/`). */
export function extensionOrigin(): string {
  return browser.runtime.getURL('');
}

/**
 * The URL a message from the background context carries as its sender (Chrome: the service worker's
 * script; a background page or Firefox's generated event page otherwise); undefined when there is none
 * or when this context cannot read the manifest.
 */
export function backgroundUrl(): string | undefined {
  // An offscreen document has only part of chrome.runtime (no getManifest).
  if (typeof chrome.runtime.getManifest !== 'function') return undefined;
  const background = chrome.runtime.getManifest().background as
    | { service_worker?: string; page?: string; scripts?: string[] }
    | undefined;
  if (!background) return undefined;
  if (background.service_worker) return chrome.runtime.getURL(background.service_worker);
  if (background.page) return chrome.runtime.getURL(background.page);
  if (background.scripts) return chrome.runtime.getURL('_generated_background_page.html');
  return undefined;
}

/**
 * Is this context still connected to its extension? An extension that was reloaded or updated leaves
 * its old content scripts running with no runtime (`chrome.runtime.id` gone): they must stand down.
 */
function runtimeAlive(): boolean {
  try {
    return typeof chrome.runtime?.id === 'string';
  } catch {
    return false;
  }
}

/**
 * A check of this very context's runtime, captured now: if a later script in the same world were handed
 * a new `chrome` object, this one still answers for the runtime it started with.
 */
export function runtimeLiveness(): () => boolean {
  let runtime: typeof chrome.runtime | undefined;
  try {
    runtime = chrome.runtime;
  } catch {
    runtime = undefined;
  }
  return () => {
    try {
      return typeof runtime?.id === 'string';
    } catch {
      return false;
    }
  };
}

/** The name of the port a content script holds open to the background to learn that it was orphaned. */
const LIFELINE = 'content-lifeline';

/** When to look again whether the extension is gone after the lifeline dropped (ms after the drop). */
const ORPHAN_CHECKS_MS = [250, 1_000, 3_000, 10_000] as const;

/**
 * Open a lifeline to the background: `onOrphaned` runs once when the port drops and this context has
 * lost its extension (a reload or an update). The port may drop a moment before the extension is seen to
 * be gone (Chromium drops it first), so it is looked at again a few times (ORPHAN_CHECKS_MS); a port that
 * drops because the service worker stopped is let go then (the worker wakes again with the next message).
 * Returns a function that closes it.
 */
export function openLifeline(onOrphaned: () => void): () => void {
  let port: chrome.runtime.Port | null = null;
  const timers: ReturnType<typeof setTimeout>[] = [];
  let orphaned = false;
  const check = (): void => {
    if (orphaned || runtimeAlive()) return;
    orphaned = true;
    for (const timer of timers) clearTimeout(timer);
    onOrphaned();
  };
  try {
    port = chrome.runtime.connect({ name: LIFELINE });
  } catch {
    onOrphaned();
    return () => undefined;
  }
  port.onDisconnect.addListener(() => {
    void chrome.runtime?.lastError; // read, so that Chrome does not log it as unchecked
    port = null;
    check();
    if (!orphaned) for (const ms of ORPHAN_CHECKS_MS) timers.push(setTimeout(check, ms));
  });
  return () => {
    for (const timer of timers) clearTimeout(timer);
    port?.disconnect();
    port = null;
  };
}

/** In the background: keep the content scripts' lifelines open (nothing travels on them). */
export function acceptLifelines(): void {
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name.startsWith(RPC_PREFIX)) return; // a request port: onRawPort's
    if (port.name !== LIFELINE || port.sender?.id !== chrome.runtime.id || port.sender.tab === undefined) port.disconnect();
  });
}
