/**
 * The protocol's machinery, pure (no browser): parsing a message and its reply against PROTOCOL's schemas
 * (./messages.ts), the errors a delivery ends in, a typed `send` over any transport, the sender check, and
 * `dispatch`, which answers one incoming message for a context. src/platform/messaging.ts puts them on the
 * browser's transports; tests put them on fakes.
 *
 * On the wire a request is `{kind, ...request}` and a reply `{ok: true, ...reply}` or `{ok: false, error}`.
 */
import { z } from 'zod';
import { PROTOCOL } from './messages';
import type { Context, KindOf, Message, MessageKind, ReplyOf, RequestOf, SenderRole } from './messages';
import { StatusMessageSchema, describeStatus } from './status-message';
import type { StatusMessage } from './status-message';

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

// A reply on the wire: `{ok: true, ...reply}` or `{ok: false, error}`.
const ErrorReplySchema = z.object({ ok: z.literal(false), error: z.string(), status: StatusMessageSchema.optional() });
const OkReplySchema = z.object({ ok: z.literal(true) });
/** The answer of a receiver that failed: its error, and the status message the pages word, when it has one. */
export type ErrorReply = z.infer<typeof ErrorReplySchema>;

/** A failure the user reads: its status message travels in the error reply (the pages word it). */
export class StatusError extends Error {
  override name = 'StatusError';
  constructor(readonly status: StatusMessage) {
    super(describeStatus(status));
  }
}

/** A message that does not fit the protocol (unknown kind, wrong shape). */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/**
 * A message that could not be answered. `transient` says the failure goes away by itself (the receiver
 * was not there yet, or went away before answering): the sender may try again shortly. `remote` says the
 * receiver answered with an error of its own (its text is the message, its status message `status` when
 * it sent one).
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly transient: boolean,
    readonly remote = false,
    readonly status?: StatusMessage,
  ) {
    super(message);
  }
}

/** The `kind` field of anything (undefined when there is none). */
function kindOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null && 'kind' in data ? data.kind : undefined;
}

function isKind(kind: unknown): kind is MessageKind {
  return typeof kind === 'string' && Object.hasOwn(PROTOCOL, kind);
}

function describeIssue(what: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return `${what}${where}: ${issue ? issue.message : 'unknown problem'}`;
}

/** Parse an incoming message; throws a ProtocolError naming the first problem. */
export function parseMessage(data: unknown): Message {
  if (typeof data !== 'object' || data === null) throw new ProtocolError('Malformed message: not an object');
  const kind = kindOf(data);
  if (!isKind(kind)) throw new ProtocolError(`Malformed message at kind: unknown kind ${JSON.stringify(kind) ?? 'undefined'}`);
  const result = PROTOCOL[kind].request.safeParse(data);
  if (!result.success) throw new ProtocolError(describeIssue('Malformed message', result.error));
  return { ...result.data, kind } as Message;
}

/** Parse the reply to a message of `kind`: the reply itself, or a DeliveryError saying what went wrong. */
export function parseReply<K extends MessageKind>(kind: K, raw: unknown): ReplyOf<K> {
  // No answer at all: the receiver went away before it answered (a service worker restart, a closed document).
  if (raw === undefined) throw new DeliveryError(`No answer to ${kind} (the receiver went away)`, true);
  const failed = ErrorReplySchema.safeParse(raw);
  if (failed.success) throw new DeliveryError(failed.data.error, false, true, failed.data.status);
  if (!OkReplySchema.safeParse(raw).success) throw new DeliveryError(`The answer to ${kind} was not understood`, false);
  // The schema of PROTOCOL[kind] is the one ReplyOf<K> is inferred from (TypeScript cannot follow the index).
  const schema = PROTOCOL[kind].reply as unknown as z.ZodType<ReplyOf<K>>;
  const result = schema.safeParse(raw);
  if (!result.success) throw new DeliveryError(describeIssue(`The answer to ${kind} was not understood`, result.error), false);
  return result.data;
}

/** Delivers a message and resolves with the raw reply (runtime.ts in the extension, a fake in tests). */
export type Transport = (message: Message, target?: TabTarget) => Promise<unknown>;
export type Send = <K extends MessageKind>(kind: K, request: RequestOf<K>, target?: TabTarget) => Promise<ReplyOf<K>>;

/** A typed, validated `send` over a transport. A delivery failure becomes a DeliveryError (transient or not). */
export function createSend(transport: Transport): Send {
  return async (kind, request, target) => {
    const message = { ...request, kind } as Message;
    let raw: unknown;
    try {
      raw = await transport(message, target);
    } catch (err) {
      throw new DeliveryError(err instanceof Error ? err.message : String(err), isTransientFailure(err));
    }
    return parseReply(kind, raw);
  };
}

/** Who we are: the extension's id, the origin of its pages, and the URL of its background context. */
export interface OwnIdentity {
  readonly id: string;
  readonly origin: string;
  /** The background's script or page URL; undefined where the manifest cannot be read (see senderFits). */
  readonly background?: string;
}

/** Does `sender` fit `role`? Everything must carry our extension id. */
export function senderFits(role: SenderRole, sender: SenderInfo, own: OwnIdentity): boolean {
  if (sender.id !== own.id) return false;
  const fromExtensionPage = typeof sender.url === 'string' && sender.url.startsWith(own.origin);
  switch (role) {
    case 'background':
      if (sender.tab !== undefined || typeof sender.url !== 'string') return false;
      // A context that cannot read the manifest (Chrome's offscreen document) knows the background as
      // our one script-only sender: an extension URL of a script (pages are HTML), with no tab.
      return own.background !== undefined ? sender.url === own.background : fromExtensionPage && /\.m?js$/.test(new URL(sender.url).pathname);
    case 'extension-page':
      return fromExtensionPage;
    case 'content-script':
      return !fromExtensionPage && typeof sender.tab?.id === 'number' && (sender.frameId === undefined || sender.frameId === 0);
  }
}

export type Handlers<C extends Context> = {
  readonly [K in KindOf<C>]: (request: RequestOf<K>, sender: SenderInfo) => ReplyOf<K> | Promise<ReplyOf<K>>;
};

export function errorReply(err: unknown): ErrorReply {
  const error = err instanceof Error ? err.message : String(err);
  // A status passed on (the background answering with a tab's error) keeps its status.
  const status = err instanceof StatusError ? err.status : err instanceof DeliveryError ? err.status : undefined;
  return status ? { ok: false, error, status } : { ok: false, error };
}

/**
 * What context `context` does with one incoming message: null when it is not addressed to it (another
 * context's kind, or not from this extension: stay silent, someone else answers), else a promise of the
 * wire reply — an error reply when the sender may not send that kind or the message is malformed.
 */
export function dispatch<C extends Context>(
  context: C,
  handlers: Handlers<C>,
  data: unknown,
  sender: SenderInfo,
  own: OwnIdentity,
): Promise<{ ok: true } | ErrorReply> | null {
  if (sender.id !== own.id) return null;
  const kind = kindOf(data);
  if (!isKind(kind) || PROTOCOL[kind].to !== context) return null;
  if (!senderFits(PROTOCOL[kind].from, sender, own)) {
    return Promise.resolve(errorReply(new Error(`Refused: ${kind} is not accepted from this sender`)));
  }
  let message: Message;
  try {
    message = parseMessage(data);
  } catch (err) {
    return Promise.resolve(errorReply(err));
  }
  // The handler table is keyed by kind, so this handler takes this message (TypeScript cannot follow that).
  const handler = handlers[kind as KindOf<C>] as unknown as (request: Message, sender: SenderInfo) => object | Promise<object>;
  return Promise.resolve()
    .then(() => handler(message, sender))
    .then(
      (reply) => ({ ...reply, ok: true as const }),
      (err: unknown) => errorReply(err),
    );
}

/** The browser's words for a failure that goes away by itself. */
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
