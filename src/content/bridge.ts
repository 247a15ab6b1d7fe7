/**
 * The content script's end of the main-world bridge (protocol: src/page/bridge-protocol.ts).
 *
 * `createPageBridge` makes the nonce, hands it to the main-world script through an attribute on <html>
 * (the background injects that script right after this one) and then talks over namespaced CustomEvents.
 * Replies and pushes are validated and must carry the nonce; anything else is ignored.
 */
import type { PageBridge } from './adapters/types';
import {
  ContentMessageSchema,
  NONCE_ATTRIBUTE,
  PAGE_REQUEST_TYPES,
  channelName,
  makeNonce,
  parseBridgeDetail,
} from '../page/bridge-protocol';
import type { PageRequestType } from '../page/bridge-protocol';

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class BridgeError extends Error {
  override name = 'BridgeError';
}

export interface ContentBridge extends PageBridge {
  readonly nonce: string;
  /** True once the main-world script has answered (a `hello` round trip or any reply). */
  readonly connected: boolean;
  /** Resolves true when the main world answers `hello` within `timeoutMs`. */
  connect(timeoutMs?: number): Promise<boolean>;
  dispose(): void;
}

export function createPageBridge(win: Window, nonce: string = makeNonce()): ContentBridge {
  const doc = win.document;
  doc.documentElement.setAttribute(NONCE_ATTRIBUTE, nonce);
  const toPage = channelName(nonce, 'to-page');
  const toContent = channelName(nonce, 'to-content');
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let connected = false;
  const connectWaiters = new Set<() => void>();

  const onMessage = (event: Event): void => {
    const message = parseBridgeDetail((event as CustomEvent<unknown>).detail, ContentMessageSchema, nonce);
    if (!message) return;
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
    else waiting.reject(new BridgeError(message.error));
  };
  win.addEventListener(toContent, onMessage);

  const bridge: ContentBridge = {
    nonce,
    get connected() {
      return connected;
    },
    request<T = unknown>(type: string, payload?: unknown, timeoutMs = 1_000): Promise<T> {
      if (!(PAGE_REQUEST_TYPES as readonly string[]).includes(type)) {
        return Promise.reject(new BridgeError(`Unknown bridge request "${type}"`));
      }
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new BridgeError(`The page script did not answer "${type}" within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
        const body: { nonce: string; id: number; type: PageRequestType; payload?: unknown } = { nonce, id, type: type as PageRequestType };
        if (payload !== undefined) body.payload = payload;
        win.dispatchEvent(new (win as Window & typeof globalThis).CustomEvent(toPage, { detail: JSON.stringify(body) }));
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
      win.removeEventListener(toContent, onMessage);
      for (const [, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new BridgeError('The bridge was closed'));
      }
      pending.clear();
    },
  };
  return bridge;
}
