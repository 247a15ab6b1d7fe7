/**
 * The one typed protocol between the extension's contexts:
 *
 *   popup ──► background ──► content script (tab)     commands, hints
 *   content ──► background ──► solver host            solver requests (Chrome: the offscreen document)
 *   content ──► background                             status, finished games, the settings (asked at start)
 *   background ──► content                             the settings, when they change (never the history)
 *   panel ──► background                               the game log's import, deletion, clearing (one writer)
 *   offscreen ──► background                           the learned network's state (loading, in use, failed)
 *
 * This file holds the schemas: `PROTOCOL` maps every message kind to the schema of its request, the schema
 * of its reply, the context that accepts it and the sender it must come from; the types below are inferred
 * from those schemas. ./protocol.ts parses and checks messages against them; src/platform/messaging.ts
 * carries them (`send`, the one way to send, its reply validated before the caller sees it; `listen`, the
 * one way to answer: sender check, shape check and "is this kind mine" in one place). The main-world
 * bridge (page ⇄ content) has its own small protocol in ./bridge-protocol.ts because it crosses into
 * untrusted page code.
 */
import { z } from 'zod';
import { DIRECTIONS, EVALUATIONS, STRATEGY_NAMES } from '../engine/types';
import type { Grid, MoveChoice, SearchOptions } from '../engine/types';
import { BOARD_LIMITS, SEARCH_LIMITS } from '../engine/limits';
import { SettingsSchema } from './settings';
import { HISTORY_CAP, ReplaySchema } from './history';
import { CoachStatusSchema, CoachSummarySchema } from './coach';
import { StatusMessageSchema } from './status-message';
import { NetworkStatusSchema } from './network-status';

const DirectionSchema = z.enum(DIRECTIONS);
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
const TabSearchOptionsSchema = z.strictObject({
  timeMs: z.number().int().min(10).max(10_000).optional(),
  depth: z.number().int().min(1).max(8).optional(),
  playouts: z.number().int().min(1).max(SEARCH_LIMITS.playouts.max).optional(),
  seed: z.number().int().min(0).max(0x7fffffff).optional(),
});
export type TabSearchOptions = z.infer<typeof TabSearchOptionsSchema>;

/** A game's identity across its runs (Stop, then Solve again, is the same game): one record per game. */
const gameId = z.string().regex(/^[a-z0-9-]{1,64}$/);

const MoveValuesSchema = z.partialRecord(DirectionSchema, z.number());

const share = z.number().min(0).max(1);
/** The chance meter's estimate (src/engine/chance.ts): a milestone tile, its chance and 90 % interval. */
const ChanceSchema = z.object({ target: z.number().int().min(4).max(131_072), p: share, lo: share, hi: share });
export const ChanceEstimateSchema = z.object({
  next: ChanceSchema,
  after: ChanceSchema.optional(),
  moves: z.partialRecord(DirectionSchema, share),
});

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
  evaluation: z.enum(EVALUATIONS).optional(),
  table: z.boolean().optional(),
  chance: ChanceEstimateSchema.optional(),
});

export const RUN_STATES = ['idle', 'thinking', 'moving', 'won', 'over', 'paused', 'error'] as const;
const RunStateSchema = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunStateSchema>;

/** Most move points one stored status carries (see RunStatus.recent). */
export const STATUS_RECENT_CAP = 640;

/** One move as the panel's live charts keep it. */
const MovePointSchema = z.object({
  moves: z.number().int().min(1),
  score: z.number().nullable(),
  thinkMs: z.number().min(0).optional(),
  depth: z.number().min(0),
  bestTile: z.number(),
  /** The chance meter's estimate of the next milestone then (0–1), and which milestone. */
  chance: z.number().min(0).max(1).optional(),
  target: z.number().int().min(4).max(131_072).optional(),
});
export type MovePoint = z.infer<typeof MovePointSchema>;

/** What the popup shows; written by the content script, kept by the background in storage.session. */
export const RunStatusSchema = z.object({
  state: RunStateSchema,
  /** What the run says (why it stopped, paused, failed): a code the pages word (./status-message.ts). */
  message: StatusMessageSchema.optional(),
  /** The adapter in use ("classic", "store", "geometry", ...) and the site's host (with its port). */
  adapter: z.string().regex(/^[a-z0-9-]{1,40}$/).optional(),
  site: z.string().regex(/^[a-z0-9._:[\]-]{0,260}$/i).optional(),
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
  /** The chance meter's estimate for the board the last search saw (src/engine/chance.ts). */
  chance: ChanceEstimateSchema.optional(),
  board: GridSchema.optional(),
  /** The last solver note (e.g. a worker failed and the move came from a fallback), shown by the popup. */
  note: StatusMessageSchema.optional(),
  /** What valued the last search's positions (the learned network or the heuristic), where the strategy says. */
  evaluation: z.enum(EVALUATIONS).optional(),
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

/** The last move a status reports, as the choice it came from (undefined before the first search). */
export function lastChoiceOf(status: RunStatus): MoveChoice | undefined {
  if (!status.values || status.lastMove === null) return undefined;
  return { strategy: status.strategy, move: status.lastMove, values: status.values, depth: status.depth, nodes: 0, ms: 0 };
}

/** A grid as the protocol carries it (a plain copy). */
export function wireGrid(grid: Grid): { rows: number; cols: number; cells: number[] } {
  return { rows: grid.rows, cols: grid.cols, cells: Array.from(grid.cells) };
}

/** The move a status reports, as a chart point (null when it reports none yet). */
export function movePointOf(status: RunStatus): MovePoint | null {
  if (status.moves === 0 || status.lastMove === null) return null;
  return {
    moves: status.moves,
    score: status.score,
    ...(status.thinkMs !== undefined ? { thinkMs: status.thinkMs } : {}),
    depth: status.depth,
    bestTile: status.bestTile,
    ...(status.chance ? { chance: status.chance.next.p, target: status.chance.next.target } : {}),
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
const COMMANDS = ['solve', 'stop', 'step', 'hint', 'coach', 'coach-stop'] as const;
const CommandSchema = z.enum(COMMANDS);
export type Command = z.infer<typeof CommandSchema>;

/**
 * Bounds of a game record's fields: whatever validates can be stored, shown (a date the UI can format)
 * and exported; a record outside them is skipped on import and kept aside in storage (./game-log.ts).
 */
const RECORD_LIMITS = {
  /** First and last end time a record may carry: 2048 appeared in 2014; nothing ends after 2200. */
  endedAt: { min: Date.UTC(2014, 0, 1), max: Date.UTC(2200, 0, 1) },
  moves: 10_000_000,
  score: 1e15,
  /** Three years of one game, in ms. */
  ms: 1e11,
} as const;

/** A site as the records name it: the page's host with its port ('' or 'unknown' when not known). */
const recordSite = z.string().regex(/^[a-z0-9._:[\]-]{0,260}$/i);
const count = z.number().int().min(0).max(RECORD_LIMITS.moves);

export const GameRecordSchema = z.object({
  /** The same game reported again (stopped, then finished; the page left) replaces its earlier record. */
  gameId: gameId.optional(),
  site: recordSite,
  adapter: z.string().regex(/^[a-z0-9-]{1,40}$/),
  strategy: StrategyNameSchema,
  score: z.number().finite().min(0).max(RECORD_LIMITS.score).nullable(),
  bestTile: z.number().int().min(0).max(BOARD_LIMITS.maxTile),
  moves: count,
  ms: z.number().finite().min(0).max(RECORD_LIMITS.ms),
  desyncs: count,
  endedAt: z.number().int().min(RECORD_LIMITS.endedAt.min).max(RECORD_LIMITS.endedAt.max),
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
/** `split`: how the solver shared an expectimax decision (src/solver/split-host.ts): every worker on one table, or by root move. */
const SolveReplySchema = z.object({ choice: MoveChoiceSchema, note: StatusMessageSchema.optional(), split: z.enum(['shared', 'roots']).optional() });
const Done = z.object({});
/** What a change of the game log did (src/shared/game-log.ts LogChange, without the log). */
const LogChangeReplySchema = z.object({
  added: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  evicted: z.number().int().min(0),
  refused: z.number().int().min(0),
  /** Stopped games shorter than 3 moves: not kept. */
  short: z.number().int().min(0),
  /** Games dated later than a day from now: not kept. */
  future: z.number().int().min(0),
  truncated: z.number().int().min(0),
  deleted: z.number().int().min(0),
  /** The browser's storage refused the write (it is full): nothing changed. */
  failed: z.boolean(),
});
export type LogChangeReply = z.infer<typeof LogChangeReplySchema>;

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
  'content/settings': { to: 'content', from: 'background', request: z.object({ settings: SettingsSchema }), reply: Done },
  'settings/get': { to: 'background', from: 'content-script', request: z.object({}), reply: z.object({ settings: SettingsSchema }) },
  'content/status': { to: 'background', from: 'content-script', request: z.object({ status: RunStatusSchema }), reply: Done },
  'content/game-finished': {
    to: 'background',
    from: 'content-script',
    /** `lost`: games the tab's reporter let go since its last answered send (too many waited). */
    request: z.object({ record: GameRecordSchema, lost: z.number().int().min(0).max(1_000_000).optional() }),
    reply: Done,
  },
  'history/import': { to: 'background', from: 'extension-page', request: z.object({ games: z.array(GameRecordSchema).max(HISTORY_CAP) }), reply: LogChangeReplySchema },
  'history/delete': { to: 'background', from: 'extension-page', request: z.object({ key: z.string().min(1).max(400) }), reply: LogChangeReplySchema },
  'history/clear': { to: 'background', from: 'extension-page', request: z.object({}), reply: LogChangeReplySchema },
  'solver/request': { to: 'background', from: 'content-script', request: tabSolveRequest, reply: SolveReplySchema },
  'solver/cancel': { to: 'background', from: 'content-script', request: z.object({ requestId }), reply: Done },
  'offscreen/solve': { to: 'offscreen', from: 'background', request: solveRequest.extend({ channel }), reply: SolveReplySchema },
  'offscreen/cancel': { to: 'offscreen', from: 'background', request: z.object({ requestId, channel }), reply: Done },
  'solver/network': { to: 'background', from: 'extension-page', request: z.object({ status: NetworkStatusSchema }), reply: Done },
  /** The popup or the panel opened: start the solver host ahead of the first search. */
  'solver/warm': { to: 'background', from: 'extension-page', request: z.object({}), reply: Done },
} as const satisfies Record<string, Route>;

type Protocol = typeof PROTOCOL;
export type MessageKind = keyof Protocol;
/** zod infers `z.object({})` as Record<string, never>, which no object with fields extends: say `object`. */
type Plain<T> = string extends keyof T ? object : T;
export type RequestOf<K extends MessageKind> = Plain<z.infer<Protocol[K]['request']>>;
export type ReplyOf<K extends MessageKind> = Plain<z.infer<Protocol[K]['reply']>>;
type MessageOf<K extends MessageKind> = { kind: K } & RequestOf<K>;
export type Message = { [K in MessageKind]: MessageOf<K> }[MessageKind];
/** The kinds a context answers. */
export type KindOf<C extends Context> = { [K in MessageKind]: Protocol[K]['to'] extends C ? K : never }[MessageKind];
