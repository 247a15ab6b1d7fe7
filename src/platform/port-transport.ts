/**
 * Requests to one extension context (the background) ride on a port named `rpc:<context>`, opened on first
 * use and kept: runtime.sendMessage offers every message to every extension page that is open (the popup,
 * the side panel), and a run sends several per move, so an open page would tax each move. A port reaches
 * only the context that kept it.
 */
import type { Runtime } from 'webextension-polyfill';
import type { RawListener, SenderInfo } from '../shared/protocol';
import { browser } from './runtime';
import { PORT_CLOSED, RPC_PREFIX, Waiting, hasRpc, serve } from './rpc';
import type { Answer } from './rpc';

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
