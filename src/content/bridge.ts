/**
 * The content script's end of the main-world bridge (protocol and channel: src/page/bridge-protocol.ts;
 * threat model: src/page/main-world.ts).
 *
 * `createPageBridge(win, keys)` takes the secret and channel name the background handed to this world
 * with the injection (nothing is written into the page), sends requests as `id:type:argument` and
 * accepts a reply or push only when its HMAC under the secret is right, its sequence number is newer
 * than the last one and its shape is one of the protocol's. Everything else is ignored. `dispose()` tells
 * the agent to leave (a request tagged with the HMAC of its id under the secret, which only this side can
 * make) and stops listening.
 */
import type { PageBridge } from './adapters/types';
import { ContentMessageSchema, PAGE_REQUEST_TYPES, isChannel, isSecret, makeToken } from '../shared/bridge-protocol';
import type { BridgeDirection, BridgeKeys, ContentMessage, PageRequestType } from '../shared/bridge-protocol';
import { derivedEventName, hmacSha256Hex, sameText } from './hmac';
import { StatusError } from '../shared/protocol';
import { statusMessage } from '../shared/status-message';

/** Detail text of a message from the agent: `<json>~<64 hex digits>`, at most this long. */
const MAX_DETAIL = 100_000;

/** The verified message in a `detail`, or null (not a string, wrong tag, not JSON, not of the schema). */
export function verifyDetail(detail: unknown, secret: string): ContentMessage | null {
  if (typeof detail !== 'string' || detail.length > MAX_DETAIL) return null;
  const cut = detail.lastIndexOf('~');
  if (cut < 0 || detail.length - cut - 1 !== 64) return null;
  const body = detail.slice(0, cut);
  if (!sameText(hmacSha256Hex(secret, body), detail.slice(cut + 1))) return null;
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return null;
  }
  const parsed = ContentMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** The name of the bridge's events one way on a page of `origin` (the agent derives the same). */
export function bridgeEventName(secret: string, direction: BridgeDirection, origin: string): string {
  return derivedEventName(secret, direction, origin);
}

/** Random keys, for a bridge no agent will answer (no keys were handed over). */
export function unusedKeys(): BridgeKeys {
  return { secret: makeToken(43), channel: makeToken(22) };
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * A request the agent did not carry out, with the status the pages word: the page's script failed (the
 * agent says only which of its fixed codes), or did not answer. Nothing the page wrote is in it.
 */
class BridgeError extends StatusError {
  override name = 'BridgeError';
}

const PAGE_FAILED = statusMessage('pageScriptFailed');
const NO_ANSWER = statusMessage('pageScriptNoAnswer');

/** The one argument a request carries: a direction (`{direction}` payloads), else nothing. */
function requestArgument(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const direction = (payload as { direction?: unknown }).direction;
  return typeof direction === 'string' && /^(left|right|up|down)$/.test(direction) ? direction : '';
}

export interface ContentBridge extends PageBridge {
  readonly channel: string;
  /** True once the main-world script has answered (a `hello` round trip or any reply). */
  readonly connected: boolean;
  /** Resolves true when the main world answers `hello` within `timeoutMs`. */
  connect(timeoutMs?: number): Promise<boolean>;
  /** The agent leaves (its listener and store subscription go) and this side stops listening. */
  dispose(): void;
}

export function createPageBridge(win: Window, keys: BridgeKeys): ContentBridge {
  if (!isSecret(keys.secret) || !isChannel(keys.channel)) throw new BridgeError(statusMessage('failed', 'BridgeError'));
  const { secret, channel } = keys;
  const toPage = bridgeEventName(secret, 'to-page', win.location.origin);
  const toContent = bridgeEventName(secret, 'to-content', win.location.origin);
  let lastSeq = 0;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let connected = false;
  const connectWaiters = new Set<() => void>();

  const onMessage = (event: Event): void => {
    const message = verifyDetail((event as CustomEvent<unknown>).detail, secret);
    if (!message || message.seq <= lastSeq) return; // forged, malformed, or replayed
    lastSeq = message.seq;
    if (!connected) {
      connected = true;
      for (const wake of [...connectWaiters]) wake();
    }
    if (message.kind === 'push') {
      for (const listener of listeners.get(message.type) ?? []) {
        try {
          listener(message.payload);
        } catch {
          // A listener's failure is its own.
        }
      }
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(new BridgeError(PAGE_FAILED));
  };
  win.addEventListener(toContent, onMessage);

  const bridge: ContentBridge = {
    channel,
    get connected() {
      return connected;
    },
    request<T = unknown>(type: string, payload?: unknown, timeoutMs = 1_000): Promise<T> {
      if (!(PAGE_REQUEST_TYPES as readonly string[]).includes(type as PageRequestType)) {
        return Promise.reject(new BridgeError(statusMessage('failed', 'BridgeError')));
      }
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new BridgeError(NO_ANSWER));
        }, timeoutMs);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        win.dispatchEvent(new (win as Window & typeof globalThis).CustomEvent(toPage, { detail: `${id}:${type}:${requestArgument(payload)}` }));
      });
    },
    on(type: string, listener: (payload: unknown) => void): () => void {
      const set = listeners.get(type) ?? new Set();
      set.add(listener);
      listeners.set(type, set);
      return () => set.delete(listener);
    },
    connect(timeoutMs = 300): Promise<boolean> {
      if (connected) return Promise.resolve(true);
      // Ask now and every 100 ms (the main-world script may not be injected yet); it also announces itself.
      return new Promise<boolean>((resolve) => {
        const started = Date.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const done = (value: boolean): void => {
          if (timer !== undefined) clearTimeout(timer);
          connectWaiters.delete(wake);
          resolve(value);
        };
        const wake = (): void => done(true);
        connectWaiters.add(wake);
        const ask = (): void => {
          if (connected) return done(true);
          const left = timeoutMs - (Date.now() - started);
          if (left <= 0) return done(false);
          bridge.request('hello', undefined, Math.min(left, 100)).catch(() => undefined);
          timer = setTimeout(ask, Math.min(left, 100));
        };
        ask();
      });
    },
    dispose(): void {
      // Dispatched synchronously: the agent has left when this returns.
      const id = nextId++;
      try {
        win.dispatchEvent(new (win as Window & typeof globalThis).CustomEvent(toPage, { detail: `${id}:dispose:${hmacSha256Hex(secret, `dispose:${id}`)}` }));
      } catch {
        // A page that broke dispatching: the agent cannot hear anything else either.
      }
      win.removeEventListener(toContent, onMessage);
      for (const [, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new BridgeError(NO_ANSWER));
      }
      pending.clear();
    },
  };
  return bridge;
}
