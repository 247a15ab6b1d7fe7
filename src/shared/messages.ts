/**
 * The one typed protocol between the extension's contexts:
 *
 *   popup ──► background ──► content script (tab)     commands, hints
 *   content ──► background ──► solver host            solver requests (Chrome: the offscreen document)
 *   content ──► background                             status, finished games
 *
 * `PROTOCOL` maps every message kind to the schema of its request, the schema of its reply, the context
 * that accepts it and the sender it must come from; the types below are inferred from those schemas.
 * `send` is the one way to send (its reply is validated before the caller sees it) and `listen` the one
 * way to answer (sender check, shape check and "is this kind mine" in one place). Both reach the browser
 * only through src/platform/runtime.ts. The main-world bridge (page ⇄ content) has its own small
 * protocol in src/page/bridge-protocol.ts because it crosses into untrusted page code.
 *
 * On the wire a request is `{kind, ...request}` and a reply `{ok: true, ...reply}` or `{ok: false, error}`.
 */
import { z } from 'zod';
import { DIRECTIONS, STRATEGY_NAMES } from '../engine/types';
import type { Grid, MoveChoice, SearchOptions } from '../engine/types';
import { BOARD_LIMITS, SEARCH_LIMITS } from '../engine/limits';
import { backgroundUrl, extensionId, extensionOrigin, isTransientFailure, onRawChannel, onRawMessage, onRawPort, sendOverChannel, sendOverPort, sendRaw } from '../platform/runtime';
import type { RawListener, SenderInfo, TabTarget } from '../platform/runtime';
import { SettingsSchema } from './settings';
import { ReplaySchema } from './history';
import { CoachStatusSchema, CoachSummarySchema } from './coach';

export type { SenderInfo, TabTarget } from '../platform/runtime';

export const DirectionSchema = z.enum(DIRECTIONS);
export const StrategyNameSchema = z.enum(STRATEGY_NAMES);

const side = z.number().int().min(BOARD_LIMITS.minSize).max(BOARD_LIMITS.maxSize);

/** Annotated with the engine's types, so that what a schema infers is exactly what the engine speaks. */
export const GridSchema: z.ZodType<Grid> = z
  .object({
    rows: side,
    cols: side,
    cells: z.array(z.number().int().min(0).max(BOARD_LIMITS.maxTile)),
  })
  .refine((g) => g.cells.length === g.rows * g.cols, { message: 'cells must hold rows × cols values' });

export const SearchOptionsSchema: z.ZodType<SearchOptions> = z.object({
  timeMs: z.number().min(SEARCH_LIMITS.timeMs.min).max(SEARCH_LIMITS.timeMs.max).optional(),
  depth: z.number().int().min(SEARCH_LIMITS.depth.min).max(SEARCH_LIMITS.depth.max).optional(),
  playouts: z.number().int().min(SEARCH_LIMITS.playouts.min).max(SEARCH_LIMITS.playouts.max).optional(),
  seed: z.number().int().optional(),
  rootMoves: z.array(DirectionSchema).optional(),
  reference: z.boolean().optional(),
  ttSizeLog2: z.number().int().min(10).max(26).optional(),
});

/**
 * The search options a content script may ask for: what the popup's settings can set, in the settings'
 * own bounds (time, depth, playouts), and nothing else — no table size, no root-move split, no reference
 * mode. Unknown fields are refused. The background builds the solver's options from these
 * (src/background/routing.ts) instead of passing what a tab sent through.
 */
export const TabSearchOptionsSchema = z.strictObject({
  timeMs: z.number().int().min(10).max(10_000).optional(),
  depth: z.number().int().min(1).max(8).optional(),
  playouts: z.number().int().min(1).max(SEARCH_LIMITS.playouts.max).optional(),
  seed: z.number().int().min(0).max(0x7fffffff).optional(),
});
export type TabSearchOptions = z.infer<typeof TabSearchOptionsSchema>;

/** The longest status text (message, note) the protocol carries; longer text is cut by its writer. */
export const STATUS_TEXT_MAX = 300;

/** `text` cut to `max` characters (an ellipsis marks the cut). */
export function boundText(text: string, max = STATUS_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const statusText = z.string().max(STATUS_TEXT_MAX);
/** A game's identity across its runs (Stop, then Solve again, is the same game): one record per game. */
const gameId = z.string().regex(/^[a-z0-9-]{1,64}$/);

const MoveValuesSchema = z.partialRecord(DirectionSchema, z.number());

export const MoveChoiceSchema: z.ZodType<MoveChoice> = z.object({
  strategy: StrategyNameSchema,
  move: DirectionSchema.nullable(),
  values: MoveValuesSchema,
  depth: z.number(),
  nodes: z.number(),
  ms: z.number(),
  valuesByDepth: z.array(MoveValuesSchema).optional(),
  samples: z.number().optional(),
  engine: z.enum(['wasm', 'ts']).optional(),
  table: z.boolean().optional(),
});

export const RUN_STATES = ['idle', 'thinking', 'moving', 'won', 'over', 'paused', 'error'] as const;
export const RunStateSchema = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunStateSchema>;

/** Most move points one stored status carries (see RunStatus.recent). */
export const STATUS_RECENT_CAP = 640;

/** One move as the panel's live charts keep it. */
export const MovePointSchema = z.object({
  moves: z.number().int().min(1),
  score: z.number().nullable(),
  thinkMs: z.number().min(0).optional(),
  depth: z.number().min(0),
  bestTile: z.number(),
});
export type MovePoint = z.infer<typeof MovePointSchema>;

/** What the popup shows; written by the content script, kept by the background in storage.session. */
export const RunStatusSchema = z.object({
  state: RunStateSchema,
  message: statusText.optional(),
  /** The adapter in use ("classic", "store", "geometry", ...) and the site's host (with its port). */
  adapter: z.string().regex(/^[a-z0-9-]{1,40}$/).optional(),
  site: z.string().regex(/^[a-z0-9.:[\]-]{0,260}$/i).optional(),
  /** The game being played (see GameRecordSchema.gameId). */
  gameId: gameId.optional(),
  strategy: StrategyNameSchema,
  score: z.number().nullable(),
  bestTile: z.number(),
  moves: z.number().int().min(0),
  movesPerSecond: z.number().min(0),
  depth: z.number().min(0),
  desyncs: z.number().int().min(0),
  lastMove: DirectionSchema.nullable(),
  /** The last search's move values, for the popup's hint display. */
  values: MoveValuesSchema.optional(),
  board: GridSchema.optional(),
  /** The last solver note (e.g. a worker failed and the move came from a fallback), shown by the popup. */
  note: statusText.optional(),
  /** How long the last move's search took (ms), for the panel's live charts. */
  thinkMs: z.number().min(0).optional(),
  /**
   * The moves played since the previous stored status (the background stores a fast run's statuses at
   * most every STATUS_WRITE_INTERVAL_MS: src/background/status-throttle.ts), so the charts miss none.
   */
  recent: z.array(MovePointSchema).max(STATUS_RECENT_CAP).optional(),
  /** Coach mode (src/content/coach.ts): suggestion, grades and accuracy of the person's game. */
  coach: CoachStatusSchema.optional(),
  running: z.boolean(),
  updatedAt: z.number(),
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** The move a status reports, as a chart point (null when it reports none yet). */
export function movePointOf(status: RunStatus): MovePoint | null {
  if (status.moves === 0 || status.lastMove === null) return null;
  return {
    moves: status.moves,
    score: status.score,
    ...(status.thinkMs !== undefined ? { thinkMs: status.thinkMs } : {}),
    depth: status.depth,
    bestTile: status.bestTile,
  };
}

/** The status of a tab before anything has happened there: idle, nothing played yet. */
export function initialStatus(strategy: RunStatus['strategy'], now: number): RunStatus {
  return {
    state: 'idle',
    strategy,
    score: null,
    bestTile: 0,
    moves: 0,
    movesPerSecond: 0,
    depth: 0,
    desyncs: 0,
    lastMove: null,
    running: false,
    updatedAt: now,
  };
}

/** `coach` turns coach mode on in the tab (the person plays, the extension grades), `coach-stop` off. */
export const COMMANDS = ['solve', 'stop', 'step', 'hint', 'coach', 'coach-stop'] as const;
export const CommandSchema = z.enum(COMMANDS);
export type Command = z.infer<typeof CommandSchema>;

export const GameRecordSchema = z.object({
  /** The same game reported again (stopped, then finished; the page left) replaces its earlier record. */
  gameId: gameId.optional(),
  site: z.string(),
  adapter: z.string(),
  strategy: StrategyNameSchema,
  score: z.number().nullable(),
  bestTile: z.number(),
  moves: z.number().int(),
  ms: z.number(),
  desyncs: z.number().int(),
  endedAt: z.number(),
  outcome: z.enum(['over', 'won', 'stopped']),
  /** Every move and spawn, to replay the game (src/shared/history.ts); absent in records of older versions. */
  replay: ReplaySchema.optional(),
  /** A game the person played with the coach on: its grades (then `strategy` is the coach's). */
  coach: CoachSummarySchema.optional(),
});
export type GameRecord = z.infer<typeof GameRecordSchema>;

const tabId = z.number().int().min(0);
const requestId = z.string().min(1).max(100);
const solveRequest = z.object({ requestId, strategy: StrategyNameSchema, board: GridSchema, options: SearchOptionsSchema });
/** What a tab asks the background for: the same, with only the options a tab may set. */
const tabSolveRequest = z.object({ requestId, strategy: StrategyNameSchema, board: GridSchema, options: TabSearchOptionsSchema });
/** Requests on one channel (the background uses one per tab) replace each other. */
const channel = z.string().max(100);

/** The answer to a command: the hint asked for, and the status after the command. */
const CommandReplySchema = z.object({ hint: MoveChoiceSchema.optional(), status: RunStatusSchema.optional() });
/** The answer to a search: the move, and a note when it did not come from the full search. */
const SolveReplySchema = z.object({ choice: MoveChoiceSchema, note: z.string().optional() });
const Done = z.object({});

/** The contexts that answer messages. */
export type Context = 'background' | 'content' | 'offscreen';

/**
 * Who may send a kind: `extension-page` = one of our pages (the popup), `content-script` = our content
 * script in a tab's top frame, `background` = our background context alone (its script's URL, no tab):
 * a content script carries our extension id too, so "ours" is not enough for the solver host or for
 * commands to a tab.
 */
export type SenderRole = 'extension-page' | 'content-script' | 'background';

interface Route {
  readonly to: Context;
  readonly from: SenderRole;
  readonly request: z.ZodObject;
  readonly reply: z.ZodObject;
}

/** Every message kind: request → reply, who answers it, who may send it. */
export const PROTOCOL = {
  'popup/command': { to: 'background', from: 'extension-page', request: z.object({ tabId, command: CommandSchema }), reply: CommandReplySchema },
  'content/command': { to: 'content', from: 'background', request: z.object({ command: CommandSchema, settings: SettingsSchema }), reply: CommandReplySchema },
  'content/ping': { to: 'content', from: 'background', request: z.object({}), reply: z.object({ version: z.number().int() }) },
  'content/status': { to: 'background', from: 'content-script', request: z.object({ status: RunStatusSchema }), reply: Done },
  'content/game-finished': { to: 'background', from: 'content-script', request: z.object({ record: GameRecordSchema }), reply: Done },
  'solver/request': { to: 'background', from: 'content-script', request: tabSolveRequest, reply: SolveReplySchema },
  'solver/cancel': { to: 'background', from: 'content-script', request: z.object({ requestId }), reply: Done },
  'offscreen/solve': { to: 'offscreen', from: 'background', request: solveRequest.extend({ channel }), reply: SolveReplySchema },
  'offscreen/cancel': { to: 'offscreen', from: 'background', request: z.object({ requestId, channel }), reply: Done },
} as const satisfies Record<string, Route>;

type Protocol = typeof PROTOCOL;
export type MessageKind = keyof Protocol;
/** zod infers `z.object({})` as Record<string, never>, which no object with fields extends: say `object`. */
type Plain<T> = string extends keyof T ? object : T;
export type RequestOf<K extends MessageKind> = Plain<z.infer<Protocol[K]['request']>>;
export type ReplyOf<K extends MessageKind> = Plain<z.infer<Protocol[K]['reply']>>;
export type MessageOf<K extends MessageKind> = { kind: K } & RequestOf<K>;
export type Message = { [K in MessageKind]: MessageOf<K> }[MessageKind];
/** The kinds a context answers. */
export type KindOf<C extends Context> = { [K in MessageKind]: Protocol[K]['to'] extends C ? K : never }[MessageKind];

// A reply on the wire: `{ok: true, ...reply}` or `{ok: false, error}`.
const ErrorReplySchema = z.object({ ok: z.literal(false), error: z.string() });
const OkReplySchema = z.object({ ok: z.literal(true) });
/** The answer of a receiver that failed: its error, in words. */
export type ErrorReply = z.infer<typeof ErrorReplySchema>;

/** A message that does not fit the protocol (unknown kind, wrong shape). */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/**
 * A message that could not be answered. `transient` says the failure goes away by itself (the receiver
 * was not there yet, or went away before answering): the sender may try again shortly. `remote` says the
 * receiver answered with an error of its own (its text is the message).
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly transient: boolean,
    readonly remote = false,
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
  if (failed.success) throw new DeliveryError(failed.data.error, false, true);
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

/**
 * How each context is reached (src/platform/runtime.ts), so that no other open extension page (the popup,
 * the side panel) is offered the several messages a run sends per move, as runtime.sendMessage would:
 * - `port`: the background, over a kept request port. Only the background listens for ports: a port is
 *   offered to every context that does and stays open while any of them keeps it, so a second listener (the
 *   offscreen document) would keep a content script's port open after the service worker stopped, and
 *   nothing would tell the content script that its request died with the worker.
 * - `channel`: Chrome's offscreen document, over a same-origin request channel.
 * - `tab`: a content script, by tabs.sendMessage to its tab (a send without a target falls back to
 *   runtime.sendMessage).
 */
const ROUTES: Readonly<Record<Context, 'port' | 'channel' | 'tab'>> = { background: 'port', offscreen: 'channel', content: 'tab' };

/** How this extension delivers a message: by its kind's context's route (ROUTES), or to `target`'s tab. */
export const extensionTransport: Transport = (message, target) => {
  const to = PROTOCOL[message.kind].to;
  if (target || ROUTES[to] === 'tab') return sendRaw(message, target);
  return ROUTES[to] === 'port' ? sendOverPort(to, message) : sendOverChannel(to, message);
};

/** Send a message to the extension (background, solver host) or, with a target, to a tab's content script. */
export const send: Send = createSend(extensionTransport);

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
  return { ok: false, error: err instanceof Error ? err.message : String(err) };
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

/** Where a context hears its messages: runtime messages, and the request ports or channel of its route. */
function extensionSource(context: Context): (listener: RawListener) => () => void {
  return (listener) => {
    const route = ROUTES[context];
    const stops = [onRawMessage(listener), ...(route === 'port' ? [onRawPort(context, listener)] : route === 'channel' ? [onRawChannel(context, listener)] : [])];
    return () => stops.forEach((stop) => stop());
  };
}

/** Answer the messages addressed to `context` with `handlers` (the one way to listen); returns a function that stops. */
export function listen<C extends Context>(context: C, handlers: Handlers<C>, source: (listener: RawListener) => () => void = extensionSource(context)): () => void {
  return source((data, sender, respond) => {
    const reply = dispatch(context, handlers, data, sender, { id: extensionId(), origin: extensionOrigin(), background: backgroundUrl() });
    if (!reply) return false;
    void reply.then(respond);
    return true;
  });
}
