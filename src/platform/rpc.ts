/**
 * Requests and answers over a carrier that has none of its own (a port, a BroadcastChannel): each request
 * carries an id, its answer the same id; the requests sent and not answered yet wait in a `Waiting`.
 * Used by ./port-transport.ts and ./channel-transport.ts.
 */
import type { RawListener, SenderInfo } from '../shared/protocol';

/** The prefix of a request port's or channel's name: `rpc:<context>`. */
export const RPC_PREFIX = 'rpc:';

/** What answers a request carried by a port or a channel (below): its id, and the reply or an error. */
export interface Answer<Id> {
  readonly rpc: Id;
  readonly ack?: true;
  readonly reply?: unknown;
  readonly error?: string;
}

/** Said when nobody received a request: the browser's words for it, which isTransientFailure knows. */
const NO_RECEIVER = 'Could not establish connection. Receiving end does not exist.';
export const PORT_CLOSED = 'The message port closed before a response was received.';

/** Said when a receiver that acknowledged a request went silent before answering (it crashed or closed). */
const RECEIVER_SILENT = 'The message channel closed before a response was received: the receiving context stopped answering.';

/** The requests sent and not answered yet, by id: settled by their answer, or failed all at once. */
export class Waiting<Id> {
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
export function serve<Id>(context: string, listener: RawListener, rpc: Id, message: unknown, sender: SenderInfo, post: (answer: Answer<Id>) => void): void {
  let later: boolean;
  try {
    later = listener(message, sender, (reply) => post({ rpc, reply }));
  } catch (err) {
    post({ rpc, error: `The ${context} failed on this message: ${err instanceof Error ? err.message : String(err)}` });
    return;
  }
  if (!later) post({ rpc, error: `Nothing in the ${context} answers this message.` });
}

export function hasRpc(data: unknown, type: 'number' | 'string'): data is { readonly rpc: number | string; readonly message?: unknown } {
  return typeof data === 'object' && data !== null && typeof (data as { rpc?: unknown }).rpc === type;
}
