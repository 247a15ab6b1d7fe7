/**
 * The browser, for every extension context, and the few things that really differ between Chrome and
 * Firefox: no other file asks which browser it runs in.
 *
 * - `browser`: the promise-based `browser.*` of webextension-polyfill (Firefox's own object there; in
 *   Chrome a thin promise wrapper of `chrome.*`), typed by @types/webextension-polyfill. Extension code
 *   uses it for storage, tabs, scripting, permissions, commands and the badge.
 * - Runtime messaging: the only place that sends and listens (`sendRaw`, `sendOverPort`, `sendOverChannel`,
 *   `onRawMessage`, `onRawPort`, `onRawChannel`); everything else goes through src/shared/messages.ts,
 *   which calls only these functions.
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
 *
 * It also owns the browser's wording of a failed delivery: `isTransientFailure` is the single place that
 * knows which errors mean "try again shortly" (no receiver yet, channel closed, worker restarting).
 */

// `#webextension-polyfill` (package.json "imports"): the polyfill, or in Node (the CLI, whose solver pool
// imports the protocol's schemas) the stand-in src/platform/no-browser.ts, since the polyfill refuses to load there.
import browser from '#webextension-polyfill';
import type { Runtime, Tabs } from 'webextension-polyfill';

export { browser };
export type { Runtime, Storage, Tabs } from 'webextension-polyfill';

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

// ------------------------------------------------------------------------------- requests and answers

/** What answers a request carried by a port or a channel (below): its id, and the reply or an error. */
interface Answer<Id> {
  readonly rpc: Id;
  readonly ack?: true;
  readonly reply?: unknown;
  readonly error?: string;
}

/** Said when nobody received a request: the browser's words for it, which isTransientFailure knows. */
const NO_RECEIVER = 'Could not establish connection. Receiving end does not exist.';
const PORT_CLOSED = 'The message port closed before a response was received.';

/** Said when a receiver that acknowledged a request went silent before answering (it crashed or closed). */
const RECEIVER_SILENT = 'The message channel closed before a response was received: the receiving context stopped answering.';

/** The requests sent and not answered yet, by id: settled by their answer, or failed all at once. */
class Waiting<Id> {
  private readonly waiters = new Map<
    Id,
    { resolve: (reply: unknown) => void; reject: (err: Error) => void; timer?: ReturnType<typeof setTimeout>; silentMs?: number }
  >();

  /**
   * The answer to request `rpc`; with `ackMs`, a failure as a missing receiver unless acknowledged by then;
   * with `silentMs`, after an acknowledgement, a failure as a silent receiver unless acknowledged again
   * (the receiver's heartbeat) or answered within that time.
   */
  wait(rpc: Id, ackMs?: number, silentMs?: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = ackMs === undefined ? undefined : this.failLater(rpc, NO_RECEIVER, ackMs);
      this.waiters.set(rpc, { resolve, reject, timer, silentMs });
    });
  }

  private failLater(rpc: Id, reason: string, ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      const waiter = this.waiters.get(rpc);
      this.waiters.delete(rpc);
      waiter?.reject(new Error(reason));
    }, ms);
  }

  /** An answer came (maybe for another sender's request: then nothing happens). */
  settle(answer: Answer<Id>): void {
    const waiter = this.waiters.get(answer.rpc);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    if (answer.ack) {
      waiter.timer = waiter.silentMs === undefined ? undefined : this.failLater(answer.rpc, RECEIVER_SILENT, waiter.silentMs);
      return;
    }
    this.waiters.delete(answer.rpc);
    if (typeof answer.error === 'string') waiter.reject(new Error(answer.error));
    else waiter.resolve(answer.reply);
  }

  failAll(reason: string): void {
    const waiters = [...this.waiters.values()];
    this.waiters.clear();
    for (const { reject, timer } of waiters) {
      clearTimeout(timer);
      reject(new Error(reason));
    }
  }
}

/** Hand one request to `listener` and `post` its answer, or an error when nothing in `context` answers it. */
function serve<Id>(context: string, listener: RawListener, rpc: Id, message: unknown, sender: SenderInfo, post: (answer: Answer<Id>) => void): void {
  let later: boolean;
  try {
    later = listener(message, sender, (reply) => post({ rpc, reply }));
  } catch (err) {
    post({ rpc, error: `The ${context} failed on this message: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  if (!later) post({ rpc, error: `Nothing in the ${context} answers this message.` });
}

function hasRpc(data: unknown, type: 'number' | 'string'): data is { readonly rpc: number | string; readonly message?: unknown } {
  return typeof data === 'object' && data !== null && typeof (data as { rpc?: unknown }).rpc === type;
}

// ------------------------------------------------------------------------------------ request ports

/**
 * Requests to one extension context ride on a port named `rpc:<context>`, opened on first use and kept:
 * runtime.sendMessage offers every message to every extension page that is open (the popup, the side
 * panel), and a run sends several per move, so an open page would tax each move. A port reaches only
 * the context that kept it.
 */
const RPC_PREFIX = 'rpc:';

/** Why a port closed, in the browser's words (Chrome: runtime.lastError; Firefox: port.error). */
function closedReason(port: Runtime.Port): string {
  const own = (port as { error?: { message?: string } }).error?.message;
  let last: string | undefined;
  try {
    last = typeof chrome !== 'undefined' ? chrome.runtime?.lastError?.message : undefined;
  } catch {
    last = undefined;
  }
  return own ?? last ?? PORT_CLOSED;
}

class RequestPort {
  private port: Runtime.Port | null = null;
  private nextId = 1;
  private readonly waiting = new Waiting<number>();

  constructor(private readonly name: string) {}

  request(message: unknown): Promise<unknown> {
    let port: Runtime.Port;
    try {
      port = this.open();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const rpc = this.nextId++;
    const answer = this.waiting.wait(rpc);
    try {
      port.postMessage({ rpc, message });
    } catch (err) {
      // Posting on a port that just closed: the next request opens a new one.
      this.close(port, err instanceof Error ? err.message : String(err));
    }
    return answer;
  }

  private open(): Runtime.Port {
    if (this.port) return this.port;
    const port = browser.runtime.connect({ name: this.name });
    port.onMessage.addListener((data: unknown) => {
      if (hasRpc(data, 'number') && !('message' in data)) this.waiting.settle(data as Answer<number>);
    });
    port.onDisconnect.addListener(() => this.close(port, closedReason(port)));
    this.port = port;
    return port;
  }

  /** Let the port go (it may be dead without having said so): open requests fail, the next one reconnects. */
  reset(): void {
    const port = this.port;
    if (!port) return;
    try {
      port.disconnect();
    } catch {
      // Already gone.
    }
    this.close(port, PORT_CLOSED);
  }

  /** The port closed (the receiver went away, or never was): every open request fails with the reason. */
  private close(port: Runtime.Port, reason: string): void {
    if (this.port !== port) return;
    this.port = null;
    this.waiting.failAll(reason);
  }
}

const requestPorts = new Map<string, RequestPort>();

/** Send a message to extension context `context` (the background) over its port; resolves with the raw reply. */
export function sendOverPort(context: string, message: unknown): Promise<unknown> {
  let port = requestPorts.get(context);
  if (!port) requestPorts.set(context, (port = new RequestPort(RPC_PREFIX + context)));
  return port.request(message);
}

/**
 * Let every request port go: a page restored from the back-forward cache may hold ports the browser closed
 * while it was frozen, without an onDisconnect; the next request opens a new port.
 */
export function resetRequestPorts(): void {
  for (const port of requestPorts.values()) port.reset();
}

/**
 * Answer the requests that come over `context`'s ports (see sendOverPort) with `listener`, as onRawMessage
 * does for runtime messages; ports named otherwise are left alone. Returns a function that stops listening.
 */
export function onRawPort(context: string, listener: RawListener): () => void {
  const name = RPC_PREFIX + context;
  const onConnect = (port: Runtime.Port): void => {
    // Another context's port (or a lifeline): not ours to answer, nor to close (in Chrome, one receiver's
    // disconnect closes the port for the others too).
    if (port.name !== name) return;
    const sender: SenderInfo = port.sender ?? {};
    const post = (answer: Answer<number>): void => {
      try {
        port.postMessage(answer);
      } catch {
        // The requester went away meanwhile: nobody waits for this answer.
      }
    };
    port.onMessage.addListener((data: unknown) => {
      if (hasRpc(data, 'number') && 'message' in data) serve(context, listener, data.rpc as number, data.message, sender, post);
    });
  };
  browser.runtime.onConnect.addListener(onConnect);
  return () => browser.runtime.onConnect.removeListener(onConnect);
}

// --------------------------------------------------------------------------------- request channels

/**
 * Requests from the background to the offscreen document ride on a BroadcastChannel named `rpc:<context>`:
 * not runtime.sendMessage, which would offer each (one a move) to every open extension page too, and not a
 * port, since a second context listening for ports would keep the content scripts' ports to the
 * background open past the service worker's end. A channel reaches only this extension's own contexts
 * (same origin); the receiver acknowledges each request at once, so a request that nobody hears (the
 * document closed itself) fails after CHANNEL_TIMING.ackMs in the words of a missing receiver (transient),
 * and acknowledges it again while it works, so a request whose receiver died fails too (CHANNEL_TIMING).
 * A request carries the sending context's URL (the service worker's script) for the receiver's sender check.
 */
/**
 * Timing of channel requests: a request not acknowledged within `ackMs` fails as a missing receiver; while
 * a receiver works on a request it acknowledges it again every `beatMs`, and a request whose receiver stays
 * silent for `silentMs` (the document crashed or was closed mid-search) fails as transient, so that the
 * sender's retry takes over instead of waiting forever. Mutable for tests only.
 */
export const CHANNEL_TIMING = { ackMs: 2_000, beatMs: 1_000, silentMs: 10_000 };

const channelInstance = Math.random().toString(36).slice(2);
let channelSeq = 0;
const requestChannels = new Map<string, { channel: BroadcastChannel; waiting: Waiting<string> }>();

function ownUrl(): string {
  return (globalThis as { location?: { href?: string } }).location?.href ?? '';
}

/** Send a message to extension context `context` (the offscreen document) over its channel; resolves with the raw reply. */
export function sendOverChannel(context: string, message: unknown): Promise<unknown> {
  let entry = requestChannels.get(context);
  if (!entry) {
    const channel = new BroadcastChannel(RPC_PREFIX + context);
    const waiting = new Waiting<string>();
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (hasRpc(event.data, 'string') && !('message' in event.data)) waiting.settle(event.data as Answer<string>);
    };
    requestChannels.set(context, (entry = { channel, waiting }));
  }
  const rpc = `${channelInstance}-${++channelSeq}`;
  const answer = entry.waiting.wait(rpc, CHANNEL_TIMING.ackMs, CHANNEL_TIMING.silentMs);
  entry.channel.postMessage({ rpc, message, url: ownUrl() });
  return answer;
}

/**
 * Answer the requests that come over `context`'s channel (see sendOverChannel) with `listener`. The sender
 * is this extension (a channel is same-origin: no web page and no content script can post on it) at the URL
 * the request names. Returns a function that stops listening.
 */
export function onRawChannel(context: string, listener: RawListener): () => void {
  const channel = new BroadcastChannel(RPC_PREFIX + context);
  // The requests being worked on, acknowledged again every beatMs (the sender's proof of life).
  const working = new Set<string>();
  let beat: ReturnType<typeof setInterval> | undefined;
  const post = (answer: Answer<string>): void => {
    if (!answer.ack) {
      working.delete(answer.rpc);
      if (working.size === 0 && beat !== undefined) {
        clearInterval(beat);
        beat = undefined;
      }
    }
    channel.postMessage(answer);
  };
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (!hasRpc(data, 'string') || !('message' in data)) return;
    const rpc = data.rpc as string;
    working.add(rpc);
    beat ??= setInterval(() => working.forEach((id) => channel.postMessage({ rpc: id, ack: true } satisfies Answer<string>)), CHANNEL_TIMING.beatMs);
    post({ rpc, ack: true });
    const url = (data as { url?: unknown }).url;
    serve(context, listener, rpc, data.message, { id: extensionId(), url: typeof url === 'string' ? url : undefined }, post);
  };
  return () => {
    clearInterval(beat);
    channel.close();
  };
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
    if (port.name.startsWith(RPC_PREFIX)) return; // a request port: onRawPort's
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
