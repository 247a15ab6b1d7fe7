/**
 * The game log (pure: no DOM, no chrome.*): how it is kept in chrome.storage.local, and every change to it
 * — a game recorded, a fallback guess, an import, a deletion, clearing — as a function from one log to
 * the next that also says what it did. The background is its one writer (src/background/game-log-writer.ts);
 * the popup and the panel only read it. Export and import: ./game-log-io.ts.
 *
 * - Bounded so that no page can flush the history: SITE_CAP games and SITE_BYTE_BUDGET characters per
 *   site, HISTORY_CAP games and HISTORY_BYTE_BUDGET characters in all. A site makes room with its own
 *   oldest games only (by end time): a change never evicts another site's game; what does not fit is
 *   refused, counted. One record takes at most RECORD_BYTE_CAP, and its replay keeps at most
 *   MAX_RESYNC_BOARDS whole boards (./history.ts truncateReplay, capResyncs).
 * - Not kept, counted: a stopped game of fewer than MIN_KEPT_MOVES moves (a page that resets its board
 *   under a run makes one per reset), and a game dated later than a day from now (an import dated 2199
 *   would outlast every real game).
 * - Nothing dropped silently: a stored record that does not validate (an older version's, a removed
 *   strategy's, a hand-edited one), and a stored `games` value that is not a list at all, moves aside,
 *   raw, under ASIDE_STORAGE_KEY: counted in the history view, exported with the JSON, never deleted by a
 *   write (only by clearing the history). Aside holds ASIDE_CAP records and ASIDE_BYTE_BUDGET characters
 *   at most; what is beyond is dropped and counted in the history's notice.
 * - One record per game: a record of a game already in the log (same gameId) replaces it; a fallback
 *   guess (the background's, from the last status, without replay) only adds what the log lacks.
 * - Stored in parts, an earlier version's whole log read with them: ./game-log-parts.ts.
 */
import { z } from 'zod';
import { GameRecordSchema } from './messages';
import type { GameRecord } from './messages';
import { HISTORY_BYTE_BUDGET, HISTORY_CAP, RECORD_BYTE_CAP, SITE_BYTE_BUDGET, SITE_CAP } from './history';
import { capResyncs, truncateReplay } from './replay-cut';
import { median } from './statistics';
import { STRATEGY_NAMES } from '../engine/types';
import type { StrategyName } from '../engine/types';

/** chrome.storage.local key of the whole log as versions up to 0.2 kept it (read, and moved into the parts). */
export const GAMES_STORAGE_KEY = 'games';
/** chrome.storage.local key of the stored records that do not validate (kept raw). */
export const ASIDE_STORAGE_KEY = 'gamesUnreadable';
/** Most games kept (the history view shows it), and of one site. */
export const GAMES_CAP = HISTORY_CAP;
export const SITE_GAMES_CAP = SITE_CAP;
/** A stopped game with fewer moves is not kept (counted). */
const MIN_KEPT_MOVES = 3;
/** How far in the future a game's end may lie (clocks differ a little). */
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;
/** Unreadable records kept aside at most, and their characters. */
const ASIDE_CAP = 100;
const ASIDE_BYTE_BUDGET = 1_000_000;

export interface GameLog {
  readonly games: readonly GameRecord[];
  /** Stored records that did not validate, as they were. */
  readonly aside: readonly unknown[];
  /** Unreadable records found by this read that did not fit aside (ASIDE_CAP, ASIDE_BYTE_BUDGET): dropped. */
  readonly droppedAside?: number;
}

/** What a change did to the log. */
export interface LogChange {
  readonly log: GameLog;
  /** Games of the change that are in the log now (new, or replacing their earlier record). */
  readonly added: number;
  /** Games of the change already in the log (left as they were). */
  readonly duplicates: number;
  /** Games that were in the log before and left it to make room (oldest first). */
  readonly evicted: number;
  /** Games of the change that did not fit: their site's room is taken by newer games of its own. */
  readonly refused: number;
  /** Stopped games of the change shorter than MIN_KEPT_MOVES: not kept. */
  readonly short: number;
  /** Games of the change dated later than a day from now: not kept. */
  readonly future: number;
  /** Games of the change kept with their replay cut short (RECORD_BYTE_CAP). */
  readonly truncated: number;
  /** Games deleted on request. */
  readonly deleted: number;
}

export interface LogBounds {
  readonly cap?: number;
  readonly budget?: number;
  readonly siteCap?: number;
  readonly siteBudget?: number;
  /** The time now (a later end than a day after it is refused). */
  readonly now?: number;
}

const NOTHING: Omit<LogChange, 'log'> = { added: 0, duplicates: 0, evicted: 0, refused: 0, short: 0, future: 0, truncated: 0, deleted: 0 };

/** Characters a stored value takes (its JSON; what cannot be written as JSON counts as too large). */
function storedSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * The stored log: valid records in end-time order, the others aside (with those already aside), and a
 * `games` value that is not a list kept aside whole. Aside is bounded (ASIDE_CAP, ASIDE_BYTE_BUDGET): what
 * newly does not fit there is dropped and counted (`droppedAside`).
 */
export function readLog(storedGames: unknown, storedAside?: unknown): GameLog {
  const games: GameRecord[] = [];
  const aside: unknown[] = Array.isArray(storedAside) ? [...(storedAside as unknown[])] : [];
  let asideSize = aside.reduce<number>((sum, item) => sum + storedSize(item), 0);
  let droppedAside = 0;
  const putAside = (item: unknown): void => {
    const size = storedSize(item);
    if (aside.length >= ASIDE_CAP || asideSize + size > ASIDE_BYTE_BUDGET) {
      droppedAside++;
      return;
    }
    aside.push(item);
    asideSize += size;
  };
  if (Array.isArray(storedGames)) {
    for (const item of storedGames as unknown[]) {
      const parsed = GameRecordSchema.safeParse(item);
      if (parsed.success) games.push(parsed.data);
      else putAside(item);
    }
  } else if (storedGames !== undefined && storedGames !== null) {
    putAside(storedGames);
  }
  return { games: byEndTime(games), aside, ...(droppedAside > 0 ? { droppedAside } : {}) };
}

/** The valid records of a stored game log (the popup and the panel read it so). */
export function readGames(stored: unknown): GameRecord[] {
  return [...readLog(stored).games];
}

function byEndTime(games: GameRecord[]): GameRecord[] {
  return games.sort((a, b) => a.endedAt - b.endedAt);
}

/** Characters a record takes in storage (its JSON). */
export function recordSize(record: GameRecord): number {
  return JSON.stringify(record).length;
}

/** The record within RECORD_BYTE_CAP, its replay within MAX_RESYNC_BOARDS: cut short (and marked) when it does not fit. */
export function boundRecord(record: GameRecord, maxChars = RECORD_BYTE_CAP): { record: GameRecord; truncated: boolean } {
  if (!record.replay) return { record, truncated: false };
  const capped = capResyncs(record.replay);
  const withCap = capped === record.replay ? record : { ...record, replay: capped };
  if (recordSize(withCap) <= maxChars) return { record: withCap, truncated: withCap !== record };
  const room = maxChars - (recordSize({ ...withCap, replay: undefined }) + '"replay":,'.length);
  const replay = truncateReplay(capped, Math.max(0, room));
  return { record: { ...withCap, replay }, truncated: replay !== record.replay };
}

/** Identity of a game for deletion and de-duplication: its id, else its end time, site and moves. */
export function gameKey(game: GameRecord): string {
  return game.gameId ?? `${game.endedAt}|${game.site}|${game.moves}`;
}

/**
 * Keep `games` (in end-time order) within the bounds. Each site keeps its newest SITE_CAP games within
 * SITE_BYTE_BUDGET; then, while the whole is over HISTORY_CAP or HISTORY_BYTE_BUDGET, the oldest game of
 * a site in `making` (the sites of the change) leaves. No other site's game ever does.
 */
function fit(games: GameRecord[], making: ReadonlySet<string>, bounds: LogBounds): { kept: GameRecord[]; gone: GameRecord[] } {
  const { cap = GAMES_CAP, budget = HISTORY_BYTE_BUDGET, siteCap = SITE_CAP, siteBudget = SITE_BYTE_BUDGET } = bounds;
  const gone = new Set<GameRecord>();
  const sizes = new Map(games.map((g) => [g, recordSize(g)]));
  // Per site, from the newest back: everything that fits, then nothing older.
  const perSite = new Map<string, { count: number; size: number; full: boolean }>();
  for (let i = games.length - 1; i >= 0; i--) {
    const game = games[i];
    const site = perSite.get(game.site) ?? { count: 0, size: 0, full: false };
    perSite.set(game.site, site);
    const size = sizes.get(game) ?? 0;
    if (!making.has(game.site) || (!site.full && site.count < siteCap && site.size + size <= siteBudget)) {
      site.count++;
      site.size += size;
    } else {
      site.full = true;
      gone.add(game);
    }
  }
  let count = games.length - gone.size;
  let size = games.reduce((sum, g) => sum + (gone.has(g) ? 0 : (sizes.get(g) ?? 0)), 0);
  // In all: the making sites' oldest go, one by one, while the whole does not fit.
  for (const game of games) {
    if (count <= cap && size <= budget) break;
    if (gone.has(game) || !making.has(game.site)) continue;
    gone.add(game);
    count--;
    size -= sizes.get(game) ?? 0;
  }
  return { kept: games.filter((g) => !gone.has(g)), gone: games.filter((g) => gone.has(g)) };
}

function settle(
  log: GameLog,
  games: GameRecord[],
  incoming: ReadonlySet<GameRecord>,
  change: Omit<LogChange, 'log' | 'evicted' | 'refused'>,
  bounds: LogBounds,
): LogChange {
  const making = new Set([...incoming].map((g) => g.site));
  const { kept, gone } = fit(byEndTime(games), making, bounds);
  const refused = gone.filter((g) => incoming.has(g)).length;
  return { ...change, log: { games: kept, aside: log.aside }, evicted: gone.length - refused, refused, added: change.added - refused };
}

/** Whether a game ends later than a day after `now`. */
function fromTheFuture(game: GameRecord, now: number): boolean {
  return game.endedAt > now + FUTURE_SLACK_MS;
}

/**
 * What becomes of `record` whatever the log holds: refused when it ends later than a day after `now`
 * (`future`) or is a stopped game of fewer than MIN_KEPT_MOVES moves (`short`); null when the log decides.
 * The writer answers these without reading or rewriting the log (a page that resets its board under a run
 * sends one per reset).
 */
export function refusedAlone(record: GameRecord, now: number): Omit<LogChange, 'log'> | null {
  if (fromTheFuture(record, now)) return { ...NOTHING, future: 1 };
  if (record.outcome === 'stopped' && record.moves < MIN_KEPT_MOVES) return { ...NOTHING, short: 1 };
  return null;
}

/**
 * The log with `record` in it. A record of a game already there (same gameId) replaces it. With
 * `fallback` (the background's guess from the last status when a page went away or the extension was
 * updated: no replay), a record of a known game that has as many moves or more is left as it is; one
 * with fewer moves gets the guess's numbers and keeps its replay, marked truncated.
 */
export function addGame(log: GameLog, record: GameRecord, options: LogBounds & { fallback?: boolean } = {}): LogChange {
  const refusal = refusedAlone(record, options.now ?? Date.now());
  if (refusal) return { ...refusal, log };
  const bounded = boundRecord(record);
  let next = bounded.record;
  const known = record.gameId === undefined ? undefined : log.games.find((game) => game.gameId === record.gameId);
  if (known && options.fallback) {
    if (known.moves >= record.moves) return { ...NOTHING, log, duplicates: 1 };
    next = {
      ...next,
      ...(known.replay ? { replay: { ...known.replay, truncated: true as const } } : {}),
      ...(known.coach ? { coach: known.coach } : {}),
    };
  }
  const games = log.games.filter((game) => !known || game !== known);
  games.push(next);
  return settle(log, games, new Set([next]), { ...NOTHING, added: 1, truncated: bounded.truncated ? 1 : 0 }, options);
}

/**
 * The log with imported games merged in: a game already there (the same gameId, or the same end time,
 * site and moves) is not added twice; replays over the cap are cut short; the oldest leave past the bounds
 * (imported ones too, counted as refused).
 */
export function importIntoLog(log: GameLog, imported: readonly GameRecord[], bounds: LogBounds = {}): LogChange {
  const seen = new Set(log.games.flatMap((g) => [gameKey(g), `${g.endedAt}|${g.site}|${g.moves}`]));
  const games = [...log.games];
  const incoming = new Set<GameRecord>();
  let duplicates = 0;
  let truncated = 0;
  let future = 0;
  const now = bounds.now ?? Date.now();
  for (const game of imported) {
    if (fromTheFuture(game, now)) {
      future++;
      continue;
    }
    const keys = [gameKey(game), `${game.endedAt}|${game.site}|${game.moves}`];
    if (keys.some((key) => seen.has(key))) {
      duplicates++;
      continue;
    }
    for (const key of keys) seen.add(key);
    const bounded = boundRecord(game);
    if (bounded.truncated) truncated++;
    games.push(bounded.record);
    incoming.add(bounded.record);
  }
  return settle(log, games, incoming, { ...NOTHING, added: incoming.size, duplicates, truncated, future }, bounds);
}

/**
 * Of a file's games, those that could enter a log at all: none dated later than a day from now, and of
 * each site the newest within its bounds (an older one could only be refused at once). The rest are
 * refused, counted (`future` among them). The panel sends only these.
 */
export function importCandidates(imported: readonly GameRecord[], bounds: LogBounds = {}): { games: GameRecord[]; refused: number; future: number } {
  const now = bounds.now ?? Date.now();
  const dated = imported.filter((g) => !fromTheFuture(g, now));
  const { kept, gone } = fit(byEndTime([...dated]), new Set(dated.map((g) => g.site)), bounds);
  return { games: kept, refused: gone.length, future: imported.length - dated.length };
}

/** The log without the game of `key` (gameKey). */
export function deleteFromLog(log: GameLog, key: string): LogChange {
  const games = log.games.filter((game) => gameKey(game) !== key);
  return { ...NOTHING, log: { games, aside: log.aside }, deleted: log.games.length - games.length };
}

/** What the history says it could not do, shown in the popup and the panel (kept in storage.session). */
const HistoryNoticeSchema = z.object({
  /** Games the browser's storage refused to keep (storage full, or failing), since `since`. */
  unsaved: z.number().int().min(0),
  /** Games not kept: their site's room was taken by newer games of its own (SITE_CAP, the budgets). */
  full: z.number().int().min(0).default(0),
  /** Stopped games shorter than MIN_KEPT_MOVES moves, not kept. */
  short: z.number().int().min(0).default(0),
  /** Games dated later than a day from now, not kept. */
  future: z.number().int().min(0).default(0),
  /** Unreadable records dropped: the place kept for them aside was full. */
  unreadable: z.number().int().min(0).default(0),
  /** Games a page's content script could not keep waiting while the extension did not answer. */
  lost: z.number().int().min(0).default(0),
  since: z.number(),
});
export type HistoryNotice = z.infer<typeof HistoryNoticeSchema>;
/** The counts of a notice (everything but `since`). */
export type NoticeCounts = Omit<HistoryNotice, 'since'>;
const NOTICE_COUNTS = ['unsaved', 'full', 'short', 'future', 'unreadable', 'lost'] as const satisfies readonly (keyof NoticeCounts)[];

/** chrome.storage.session key of the history's notice. */
export const HISTORY_NOTICE_KEY = 'historyNotice';

export function readNotice(stored: unknown): HistoryNotice | null {
  const parsed = HistoryNoticeSchema.safeParse(stored);
  return parsed.success && NOTICE_COUNTS.some((count) => parsed.data[count] > 0) ? parsed.data : null;
}

/** `notice` (or none) with `counts` added. */
export function addToNotice(notice: HistoryNotice | null, counts: Partial<NoticeCounts>, now: number): HistoryNotice {
  const out: HistoryNotice = { unsaved: 0, full: 0, short: 0, future: 0, unreadable: 0, lost: 0, ...notice, since: notice?.since ?? now };
  for (const count of NOTICE_COUNTS) out[count] += counts[count] ?? 0;
  return out;
}

// --------------------------------------------------------------------------------- filters, summary

export interface HistoryFilter {
  readonly strategy?: StrategyName | '';
  readonly site?: string;
}

export function filterGames(games: readonly GameRecord[], filter: HistoryFilter): GameRecord[] {
  return games.filter((g) => (!filter.strategy || g.strategy === filter.strategy) && (!filter.site || g.site === filter.site));
}

/** The sites that appear in the log, sorted. */
export function sitesOf(games: readonly GameRecord[]): string[] {
  return [...new Set(games.map((g) => g.site))].sort();
}

/** Tiles whose reach rate the summary shows. */
export const SUMMARY_TILES = [512, 1024, 2048, 4096, 8192, 16384] as const;

export interface StrategySummary {
  readonly strategy: StrategyName;
  readonly games: number;
  /** Share of games (0..1) whose best tile reached each of SUMMARY_TILES. */
  readonly reached: Record<number, number>;
  readonly medianScore: number | null;
  readonly bestScore: number | null;
}

/** One row per strategy that has games, in the registry's order. */
export function summarize(games: readonly GameRecord[]): StrategySummary[] {
  const out: StrategySummary[] = [];
  for (const strategy of STRATEGY_NAMES) {
    const mine = games.filter((g) => g.strategy === strategy);
    if (mine.length === 0) continue;
    const reached: Record<number, number> = {};
    for (const tile of SUMMARY_TILES) reached[tile] = mine.filter((g) => g.bestTile >= tile).length / mine.length;
    const scores = mine.map((g) => g.score).filter((s): s is number => s !== null);
    out.push({ strategy, games: mine.length, reached, medianScore: scores.length > 0 ? median(scores) : null, bestScore: scores.length ? Math.max(...scores) : null });
  }
  return out;
}
