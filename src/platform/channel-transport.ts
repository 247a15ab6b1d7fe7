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
import type { RawListener } from '../shared/protocol';
import { extensionId } from './runtime';
import { RPC_PREFIX, Waiting, hasRpc, serve } from './rpc';
import type { Answer } from './rpc';

/**
 * Timing of channel requests: a request not acknowledged within `ackMs` fails as a missing receiver; while
 * a receiver works on a request it acknowledges it again every `beatMs`, and a request whose receiver stays
 * silent for `silentMs` (the document crashed or was closed mid-search) fails as transient, so that the
 * sender's retry takes over instead of waiting forever. Mutable for tests only.
 *
 * @public (the tests change it on a freshly loaded module)
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
