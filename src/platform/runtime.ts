/**
 * The one module that touches the browser's runtime messaging (`chrome.runtime.*`, `chrome.tabs.sendMessage`).
 * Everything else sends and listens through src/shared/messages.ts, which calls only these functions; to
 * run on `webextension-polyfill`'s `browser.*`, this file is the one to change.
 *
 * It also owns the browser's wording of a failed delivery: `isTransientFailure` is the single place that
 * knows which errors mean "try again shortly" (no receiver yet, channel closed, worker restarting).
 */

/** The part of a runtime.MessageSender the protocol checks (structural, so tests need no chrome.* types). */
export interface SenderInfo {
  readonly id?: string;
  readonly url?: string;
  readonly tab?: { readonly id?: number };
  readonly frameId?: number;
  readonly documentId?: string;
}

/** Where a message to a tab goes: its top frame unless told otherwise, or one document. */
export interface TabTarget {
  readonly tabId: number;
  readonly frameId?: number;
  readonly documentId?: string;
}

/** Answer a message: `respond` once, and return true when the answer comes later (asynchronously). */
export type RawListener = (message: unknown, sender: SenderInfo, respond: (reply: unknown) => void) => boolean;

/** Send a message to the extension's own contexts (no target) or to a tab's content script; resolves with the raw reply. */
export function sendRaw(message: unknown, target?: TabTarget): Promise<unknown> {
  if (!target) return chrome.runtime.sendMessage(message);
  const options: chrome.tabs.MessageSendOptions =
    target.documentId !== undefined ? { documentId: target.documentId } : { frameId: target.frameId ?? 0 };
  return chrome.tabs.sendMessage(target.tabId, message, options);
}

/** Listen to runtime messages; returns a function that stops listening. */
export function onRawMessage(listener: RawListener): () => void {
  const wrapped = (message: unknown, sender: chrome.runtime.MessageSender, sendResponse: (reply: unknown) => void): boolean =>
    listener(message, sender, sendResponse);
  // The event object of this context, kept for the removal (a later script in the same world may see another).
  const onMessage = chrome.runtime.onMessage;
  onMessage.addListener(wrapped);
  return () => onMessage.removeListener(wrapped);
}

/** This extension's id. */
export function extensionId(): string {
  return chrome.runtime.id;
}

/** The origin of this extension's own pages, with a trailing slash (`chrome-extension://<id>/`). */
export function extensionOrigin(): string {
  return chrome.runtime.getURL('');
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
export function runtimeAlive(): boolean {
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

/**
 * Open a lifeline to the background: `onOrphaned` runs once when the port drops and this context has
 * lost its extension (a reload or an update). A port that drops because the service worker stopped is
 * simply let go (the worker wakes again with the next message). Returns a function that closes it.
 */
export function openLifeline(onOrphaned: () => void): () => void {
  let port: chrome.runtime.Port | null = null;
  try {
    port = chrome.runtime.connect({ name: LIFELINE });
  } catch {
    onOrphaned();
    return () => undefined;
  }
  port.onDisconnect.addListener(() => {
    void chrome.runtime?.lastError; // read, so that Chrome does not log it as unchecked
    port = null;
    if (!runtimeAlive()) onOrphaned();
  });
  return () => {
    port?.disconnect();
    port = null;
  };
}

/** In the background: keep the content scripts' lifelines open (nothing travels on them). */
export function acceptLifelines(): void {
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== LIFELINE || port.sender?.id !== chrome.runtime.id || port.sender.tab === undefined) port.disconnect();
  });
}

const TRANSIENT =
  /message port closed|message channel closed|receiving end does not exist|could not establish connection|no sw|service worker/i;

/**
 * A delivery failed for a reason that goes away by itself: nothing listens yet (the offscreen document
 * or the content script is starting), the channel closed before the answer (the receiver went away), or
 * the service worker is restarting. Retrying shortly is right; any other failure is final.
 */
export function isTransientFailure(err: unknown): boolean {
  return TRANSIENT.test(err instanceof Error ? err.message : String(err));
}
