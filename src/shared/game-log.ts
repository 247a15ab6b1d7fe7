/**
 * The game log (pure: no DOM, no chrome.*): how it is kept in chrome.storage.local (capped, within a byte
 * budget for the replays, one record per game), filters, the summary per strategy, and export / import as
 * JSON and CSV. Every read validates each record and skips the bad ones (import counts them), so a
 * hand-edited or truncated log never breaks the history.
 */
import { GameRecordSchema } from './messages';
import type { GameRecord } from './messages';
import { HISTORY_BYTE_BUDGET, HISTORY_CAP, ReplaySchema, replaySize } from './history';
import { CoachSummarySchema } from './coach';
import { median } from './statistics';
import { STRATEGY_NAMES } from '../engine/types';
import type { StrategyName } from '../engine/types';

export const GAMES_STORAGE_KEY = 'games';
/** Most games kept (the history view shows it); the oldest go first. */
export const GAMES_CAP = HISTORY_CAP;

/**
 * The stored game log with `record` appended: entries that do not validate are dropped, the oldest beyond
 * `cap` or past the replays' byte `budget` too. A game is recorded once: a record of a game already in the
 * log (same gameId) replaces it — or, with `keepExisting` (the background's own guess when a page went
 * away), leaves it as it is.
 */
export function appendGame(
  stored: unknown,
  record: GameRecord,
  { cap = GAMES_CAP, budget = HISTORY_BYTE_BUDGET, keepExisting = false }: { cap?: number; budget?: number; keepExisting?: boolean } = {},
): GameRecord[] {
  let games = readGames(stored);
  if (record.gameId !== undefined) {
    const known = games.some((game) => game.gameId === record.gameId);
    if (known && keepExisting) return games;
    games = games.filter((game) => game.gameId !== record.gameId);
  }
  games.push(record);
  let kept = games.length > cap ? games.slice(games.length - cap) : games;
  // Replays take the room: past the budget, the oldest games go (the newest one always stays).
  let size = kept.reduce((sum, game) => sum + replaySize(game.replay), 0);
  let drop = 0;
  while (size > budget && drop < kept.length - 1) size -= replaySize(kept[drop++].replay);
  if (drop > 0) kept = kept.slice(drop);
  return kept;
}

/** The valid records of a stored game log (anything else is ignored). */
export function readGames(stored: unknown): GameRecord[] {
  if (!Array.isArray(stored)) return [];
  const out: GameRecord[] = [];
  for (const item of stored) {
    const parsed = GameRecordSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

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

// ------------------------------------------------------------------------------------------ export

export function exportJson(games: readonly GameRecord[]): string {
  return JSON.stringify({ format: '2048-autopilot-games', version: 1, games }, null, 1);
}

const CSV_COLUMNS = ['endedAt', 'site', 'adapter', 'strategy', 'outcome', 'score', 'bestTile', 'moves', 'ms', 'desyncs', 'replay'] as const;
/**
 * Columns written on export but optional on import (files from before they existed still import):
 * the game id, and a coached game's grades (its coach summary as JSON).
 */
const CSV_OPTIONAL_COLUMNS = ['gameId', 'coach'] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number] | (typeof CSV_OPTIONAL_COLUMNS)[number];

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One game per line; the replay is its JSON in the last column. */
export function exportCsv(games: readonly GameRecord[]): string {
  const lines = [[...CSV_COLUMNS, ...CSV_OPTIONAL_COLUMNS].join(',')];
  for (const g of games) {
    const row: string[] = [
      new Date(g.endedAt).toISOString(),
      g.site,
      g.adapter,
      g.strategy,
      g.outcome,
      g.score === null ? '' : String(g.score),
      String(g.bestTile),
      String(g.moves),
      String(Math.round(g.ms)),
      String(g.desyncs),
      g.replay ? JSON.stringify(g.replay) : '',
      g.gameId ?? '',
      g.coach ? JSON.stringify(g.coach) : '',
    ];
    lines.push(row.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** RFC 4180 rows (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

export interface ImportResult {
  readonly games: GameRecord[];
  /** Records that did not validate and were skipped. */
  readonly skipped: number;
}

export class ImportError extends Error {
  override name = 'ImportError';
}

function validRecords(items: readonly unknown[]): ImportResult {
  const games: GameRecord[] = [];
  let skipped = 0;
  for (const item of items) {
    const parsed = GameRecordSchema.safeParse(item);
    if (parsed.success) games.push(parsed.data);
    else skipped++;
  }
  return { games, skipped };
}

/** Games from an exported file, JSON or CSV (told apart by the first character). */
export function importGames(text: string): ImportResult {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let data: unknown;
    try {
      data = JSON.parse(trimmed);
    } catch {
      throw new ImportError('The file is not valid JSON.');
    }
    const list = Array.isArray(data) ? data : (data as { games?: unknown }).games;
    if (!Array.isArray(list)) throw new ImportError('The JSON holds no list of games.');
    return validRecords(list);
  }
  const rows = parseCsv(trimmed);
  const header = rows.shift();
  if (!header || CSV_COLUMNS.some((column) => !header.includes(column))) {
    throw new ImportError(`The CSV needs the columns ${CSV_COLUMNS.join(', ')}.`);
  }
  const at = (row: string[], column: CsvColumn): string => (header.includes(column) ? (row[header.indexOf(column)] ?? '') : '');
  const items = rows.map((row) => {
    let replay: unknown;
    let coach: unknown;
    try {
      replay = at(row, 'replay') ? JSON.parse(at(row, 'replay')) : undefined;
      coach = at(row, 'coach') ? JSON.parse(at(row, 'coach')) : undefined;
    } catch {
      return null;
    }
    if (replay !== undefined && !ReplaySchema.safeParse(replay).success) return null;
    if (coach !== undefined && !CoachSummarySchema.safeParse(coach).success) return null;
    const num = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));
    return {
      ...(at(row, 'gameId') ? { gameId: at(row, 'gameId') } : {}),
      endedAt: Date.parse(at(row, 'endedAt')),
      site: at(row, 'site'),
      adapter: at(row, 'adapter'),
      strategy: at(row, 'strategy'),
      outcome: at(row, 'outcome'),
      score: at(row, 'score') === '' ? null : num(at(row, 'score')),
      bestTile: num(at(row, 'bestTile')),
      moves: num(at(row, 'moves')),
      ms: num(at(row, 'ms')),
      desyncs: num(at(row, 'desyncs')),
      ...(replay !== undefined ? { replay } : {}),
      ...(coach !== undefined ? { coach } : {}),
    };
  });
  return validRecords(items);
}

/** The log with imported games merged in: a game already there (same end time, site and moves) is not added twice; sorted by end time. */
export function mergeGames(existing: readonly GameRecord[], imported: readonly GameRecord[]): GameRecord[] {
  const key = (g: GameRecord): string => `${g.endedAt}|${g.site}|${g.moves}`;
  const seen = new Set(existing.map(key));
  const merged = [...existing];
  for (const g of imported) {
    if (seen.has(key(g))) continue;
    seen.add(key(g));
    merged.push(g);
  }
  return merged.sort((a, b) => a.endedAt - b.endedAt);
}
