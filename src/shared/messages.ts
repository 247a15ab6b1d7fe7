/**
 * The one typed protocol between the extension's contexts:
 *
 *   popup ──► background ──► content script (tab)     commands, hints
 *   content ──► background ──► offscreen (worker pool) solver requests
 *   content ──► background                             status, finished games
 *
 * Every message that crosses a context boundary is validated here with zod; a message that does not
 * parse is rejected with a clear error naming what is wrong. The main-world bridge (page ⇄ content)
 * has its own small protocol in src/page/bridge-protocol.ts because it crosses into untrusted page code.
 */
import { z } from 'zod';
import { DIRECTIONS, STRATEGY_NAMES } from '../engine/types';
import type { Grid, MoveChoice } from '../engine/types';
import { SettingsSchema } from './settings';

export const DirectionSchema = z.enum(DIRECTIONS);
export const StrategyNameSchema = z.enum(STRATEGY_NAMES);

const TILE_MAX = 1 << 17; // boards larger than 4x4 can hold tiles above 32768

export const GridSchema = z
  .object({
    rows: z.number().int().min(2).max(8),
    cols: z.number().int().min(2).max(8),
    cells: z.array(z.number().int().min(0).max(TILE_MAX)),
  })
  .refine((g) => g.cells.length === g.rows * g.cols, { message: 'cells must hold rows × cols values' }) satisfies z.ZodType<Grid>;

export const SearchOptionsSchema = z.object({
  timeMs: z.number().min(1).max(60_000).optional(),
  depth: z.number().int().min(1).max(12).optional(),
  playouts: z.number().int().min(1).max(100_000).optional(),
  seed: z.number().int().optional(),
  rootMoves: z.array(DirectionSchema).optional(),
  reference: z.boolean().optional(),
  ttSizeLog2: z.number().int().min(10).max(26).optional(),
});

const MoveValuesSchema = z.partialRecord(DirectionSchema, z.number());

export const MoveChoiceSchema = z.object({
  strategy: StrategyNameSchema,
  move: DirectionSchema.nullable(),
  values: MoveValuesSchema,
  depth: z.number(),
  nodes: z.number(),
  ms: z.number(),
  valuesByDepth: z.array(MoveValuesSchema).optional(),
  samples: z.number().optional(),
  engine: z.enum(['wasm', 'ts']).optional(),
}) satisfies z.ZodType<MoveChoice>;

export const RUN_STATES = ['idle', 'thinking', 'moving', 'won', 'over', 'paused', 'error'] as const;
export const RunStateSchema = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunStateSchema>;

/** What the popup shows; written by the content script, kept by the background in storage.session. */
export const RunStatusSchema = z.object({
  state: RunStateSchema,
  message: z.string().optional(),
  /** The adapter in use ("classic", "store", "geometry", ...) and the site's host. */
  adapter: z.string().optional(),
  site: z.string().optional(),
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
  note: z.string().optional(),
  running: z.boolean(),
  updatedAt: z.number(),
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

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

export const COMMANDS = ['solve', 'stop', 'step', 'hint'] as const;
export const CommandSchema = z.enum(COMMANDS);
export type Command = z.infer<typeof CommandSchema>;

export const GameRecordSchema = z.object({
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
});
export type GameRecord = z.infer<typeof GameRecordSchema>;

const tabId = z.number().int().min(0);

/** Every runtime message of the extension, discriminated by `kind`. */
export const MessageSchema = z.discriminatedUnion('kind', [
  // popup → background
  z.object({ kind: z.literal('popup/command'), tabId, command: CommandSchema }),
  z.object({ kind: z.literal('popup/get-status'), tabId }),
  // background → content
  z.object({ kind: z.literal('content/command'), command: CommandSchema, settings: SettingsSchema }),
  z.object({ kind: z.literal('content/ping') }),
  // content → background
  z.object({ kind: z.literal('content/status'), status: RunStatusSchema }),
  z.object({ kind: z.literal('content/game-finished'), record: GameRecordSchema }),
  z.object({
    kind: z.literal('solver/request'),
    requestId: z.string().min(1).max(100),
    strategy: StrategyNameSchema,
    board: GridSchema,
    options: SearchOptionsSchema,
  }),
  z.object({ kind: z.literal('solver/cancel'), requestId: z.string().min(1).max(100) }),
  // background → offscreen (same shapes, addressed to the offscreen document)
  z.object({
    kind: z.literal('offscreen/solve'),
    requestId: z.string().min(1).max(100),
    strategy: StrategyNameSchema,
    board: GridSchema,
    options: SearchOptionsSchema,
    /** Requests on one channel (the background uses one per tab) replace each other. */
    channel: z.string().max(100).optional(),
  }),
  z.object({ kind: z.literal('offscreen/cancel'), requestId: z.string().min(1).max(100), channel: z.string().max(100).optional() }),
  z.object({ kind: z.literal('offscreen/ping') }),
]);
export type Message = z.infer<typeof MessageSchema>;
export type MessageKind = Message['kind'];
export type MessageOf<K extends MessageKind> = Extract<Message, { kind: K }>;

/** Replies: every request is answered with `{ok: true, ...}` or `{ok: false, error}`. */
export interface ReplyMap {
  'popup/command': { ok: true; hint?: MoveChoice; status?: RunStatus };
  'popup/get-status': { ok: true; status: RunStatus | null };
  'content/command': { ok: true; hint?: MoveChoice; status?: RunStatus };
  'content/ping': { ok: true; version: number };
  'content/status': { ok: true };
  'content/game-finished': { ok: true };
  'solver/request': { ok: true; choice: MoveChoice; note?: string };
  'solver/cancel': { ok: true };
  'offscreen/solve': { ok: true; choice: MoveChoice; note?: string };
  'offscreen/cancel': { ok: true };
  'offscreen/ping': { ok: true };
}
export interface ErrorReply {
  ok: false;
  error: string;
}
export type Reply<K extends MessageKind> = ReplyMap[K] | ErrorReply;

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

/** Parse an incoming message; throws a ProtocolError naming the first problem. */
export function parseMessage(data: unknown): Message {
  const result = MessageSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ProtocolError(`Malformed message${where}: ${issue ? issue.message : 'unknown problem'}`);
  }
  return result.data;
}

/** Minimal structural view of chrome.runtime.MessageSender, so tests need no chrome.* types. */
export interface SenderLike {
  id?: string;
  url?: string;
  tab?: { id?: number };
}

/**
 * A message is accepted only from this extension's own contexts: the sender's extension id must be ours.
 * (Content scripts we injected carry our id too; web pages cannot send runtime messages without
 * externally_connectable, which the manifest does not declare.)
 */
export function isOwnSender(sender: SenderLike, ownId: string): boolean {
  return sender.id === ownId;
}

/** Which kinds each context accepts; a message of another kind is rejected by that context. */
export const ACCEPTED_BY = {
  background: ['popup/command', 'popup/get-status', 'content/status', 'content/game-finished', 'solver/request', 'solver/cancel'],
  content: ['content/command', 'content/ping'],
  offscreen: ['offscreen/solve', 'offscreen/cancel', 'offscreen/ping'],
} as const satisfies Record<string, readonly MessageKind[]>;

export function errorReply(err: unknown): ErrorReply {
  return { ok: false, error: err instanceof Error ? err.message : String(err) };
}
