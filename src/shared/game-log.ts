/**
 * The game log (pure: no DOM, no chrome.*): how it is kept in chrome.storage.local, and every change to it
 * — a game recorded, a fallback guess, an import, a deletion, clearing — as a function from one log to
 * the next that also says what it did. The background is its one writer (src/background/game-log-writer.ts);
 * the popup and the panel only read it. Export and import: ./game-log-io.ts.
 *
 * - Bounded: HISTORY_CAP games and HISTORY_BYTE_BUDGET characters in all; past either, the oldest games
 *   (by end time) leave, only as many as overflow. One record takes at most RECORD_BYTE_CAP: a longer
 *   replay is cut short and marked (./history.ts truncateReplay), so one record never evicts others.
 * - Nothing dropped silently: a stored record that does not validate (an older version's, a removed
 *   strategy's, a hand-edited one) moves aside, raw, under ASIDE_STORAGE_KEY: counted in the history view,
 *   exported with the JSON, never deleted by a write (only by clearing the history).
 * - One record per game: a record of a game already in the log (same gameId) replaces it; a fallback
 *   guess (the background's, from the last status, without replay) only adds what the log lacks.
 */
import { z } from 'zod';
import { GameRecordSchema } from './messages';
import type { GameRecord } from './messages';
import { HISTORY_BYTE_BUDGET, HISTORY_CAP, RECORD_BYTE_CAP, truncateReplay } from './history';
import { median } from './statistics';
import { STRATEGY_NAMES } from '../engine/types';
import type { StrategyName } from '../engine/types';

export const GAMES_STORAGE_KEY = 'games';
/** chrome.storage.local key of the stored records that do not validate (kept raw). */
export const ASIDE_STORAGE_KEY = 'gamesUnreadable';
/** Most games kept (the history view shows it); the oldest go first. */
export const GAMES_CAP = HISTORY_CAP;

export interface GameLog {
  readonly games: readonly GameRecord[];
  /** Stored records that did not validate, as they were. */
  readonly aside: readonly unknown[];
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
  /** Games of the change that did not fit: older than every game the log keeps. */
  readonly refused: number;
  /** Games of the change kept with their replay cut short (RECORD_BYTE_CAP). */
  readonly truncated: number;
  /** Games deleted on request. */
  readonly deleted: number;
}

export interface LogBounds {
  readonly cap?: number;
  readonly budget?: number;
}

const NOTHING: Omit<LogChange, 'log'> = { added: 0, duplicates: 0, evicted: 0, refused: 0, truncated: 0, deleted: 0 };

/** The stored log: valid records in end-time order, the others aside (with those already aside). */
export function readLog(storedGames: unknown, storedAside?: unknown): GameLog {
  const games: GameRecord[] = [];
  const aside: unknown[] = Array.isArray(storedAside) ? [...(storedAside as unknown[])] : [];
  if (Array.isArray(storedGames)) {
    for (const item of storedGames as unknown[]) {
      const parsed = GameRecordSchema.safeParse(item);
      if (parsed.success) games.push(parsed.data);
      else aside.push(item);
    }
  }
  return { games: byEndTime(games), aside };
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

/** The record within RECORD_BYTE_CAP: its replay cut short (and marked) when it does not fit. */
export function boundRecord(record: GameRecord, maxChars = RECORD_BYTE_CAP): { record: GameRecord; truncated: boolean } {
  if (!record.replay || recordSize(record) <= maxChars) return { record, truncated: false };
  const room = maxChars - (recordSize({ ...record, replay: undefined }) + '"replay":,'.length);
  const replay = truncateReplay(record.replay, Math.max(0, room));
  return { record: { ...record, replay }, truncated: replay !== record.replay };
}

/** Identity of a game for deletion and de-duplication: its id, else its end time, site and moves. */
export function gameKey(game: GameRecord): string {
  return game.gameId ?? `${game.endedAt}|${game.site}|${game.moves}`;
}

/**
 * Keep `games` (in end-time order) within the bounds: the oldest leave while there are more than `cap`
 * or their records take more than `budget` characters, and no more than that.
 */
function fit(games: GameRecord[], { cap = GAMES_CAP, budget = HISTORY_BYTE_BUDGET }: LogBounds): { kept: GameRecord[]; gone: GameRecord[] } {
  let size = 0;
  let from = games.length;
  // From the newest back: everything that fits, stopping at the first that does not.
  while (from > 0 && games.length - from < cap) {
    const next = size + recordSize(games[from - 1]);
    if (next > budget) break;
    size = next;
    from--;
  }
  return { kept: games.slice(from), gone: games.slice(0, from) };
}

function settle(log: GameLog, games: GameRecord[], incoming: ReadonlySet<GameRecord>, change: Omit<LogChange, 'log' | 'evicted' | 'refused'>, bounds: LogBounds): LogChange {
  const { kept, gone } = fit(byEndTime(games), bounds);
  const refused = gone.filter((g) => incoming.has(g)).length;
  return { ...change, log: { games: kept, aside: log.aside }, evicted: gone.length - refused, refused, added: change.added - refused };
}

/**
 * The log with `record` in it. A record of a game already there (same gameId) replaces it. With
 * `fallback` (the background's guess from the last status when a page went away or the extension was
 * updated: no replay), a record of a known game that has as many moves or more is left as it is; one
 * with fewer moves gets the guess's numbers and keeps its replay, marked truncated.
 */
export function addGame(log: GameLog, record: GameRecord, options: LogBounds & { fallback?: boolean } = {}): LogChange {
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
  for (const game of imported) {
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
  return settle(log, games, incoming, { ...NOTHING, added: incoming.size, duplicates, truncated }, bounds);
}

/**
 * Of a file's games, those that could enter a log at all: the newest within the bounds (an older one
 * could only be evicted at once). The rest are refused, counted. The panel sends only these.
 */
export function importCandidates(imported: readonly GameRecord[], bounds: LogBounds = {}): { games: GameRecord[]; refused: number } {
  const { kept, gone } = fit(byEndTime([...imported]), bounds);
  return { games: kept, refused: gone.length };
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
  since: z.number(),
});
export type HistoryNotice = z.infer<typeof HistoryNoticeSchema>;

/** chrome.storage.session key of the history's notice. */
export const HISTORY_NOTICE_KEY = 'historyNotice';

export function readNotice(stored: unknown): HistoryNotice | null {
  const parsed = HistoryNoticeSchema.safeParse(stored);
  return parsed.success && parsed.data.unsaved > 0 ? parsed.data : null;
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
