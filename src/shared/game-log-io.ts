/**
 * The game log's export and import, as JSON and CSV (pure: no DOM, no chrome.*). Every imported record is
 * validated (bounded fields: src/shared/messages.ts GameRecordSchema) and the bad ones are counted, never
 * fatal; a file over IMPORT_MAX_CHARS is refused before it is read. CSV cells that a spreadsheet would
 * take for a formula get a leading apostrophe (OWASP, "CSV injection"), which the import takes off again.
 */
import { GameRecordSchema } from './messages';
import type { GameRecord } from './messages';
import { ReplaySchema } from './history';
import { CoachSummarySchema } from './coach';
import { boundRecord } from './game-log';

/** The largest file the history imports (characters; the browser's storage holds 10 MB in all). */
export const IMPORT_MAX_CHARS = 24_000_000;

const EXPORT_FORMAT = '2048-autopilot-games';

/** The log as JSON; records kept aside (unreadable) travel under `unreadable`, as they were. */
export function exportJson(games: readonly GameRecord[], unreadable: readonly unknown[] = []): string {
  return JSON.stringify({ format: EXPORT_FORMAT, version: 1, games, ...(unreadable.length > 0 ? { unreadable } : {}) }, null, 1);
}

const CSV_COLUMNS = ['endedAt', 'site', 'adapter', 'strategy', 'outcome', 'score', 'bestTile', 'moves', 'ms', 'desyncs', 'replay'] as const;
/**
 * Columns written on export but optional on import (files from before they existed still import):
 * the game id, and a coached game's grades (its coach summary as JSON).
 */
const CSV_OPTIONAL_COLUMNS = ['gameId', 'coach'] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number] | (typeof CSV_OPTIONAL_COLUMNS)[number];

/** A cell a spreadsheet reads as a formula: =, +, -, @, or a tab or carriage return first (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV field: a formula-like text gets a leading apostrophe, then RFC 4180 quoting. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A field as it was before csvField's apostrophe. */
function csvValue(field: string): string {
  return field.startsWith("'") && FORMULA_START.test(field.slice(1)) ? field.slice(1) : field;
}

/** One game per line; the replay is its JSON in its column. */
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
      String(g.ms),
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
  /** Games whose replay was cut short to fit (src/shared/game-log.ts boundRecord). */
  readonly truncated: number;
}

/** Why a file cannot be imported at all: the locale message `importError_<reason>` says it. */
export type ImportFailure = 'tooLarge' | 'notJson' | 'noList' | 'csvColumns';

export class ImportError extends Error {
  override name = 'ImportError';
  constructor(readonly reason: ImportFailure) {
    super(`The file cannot be imported (${reason})`);
  }
}

function validRecords(items: readonly unknown[]): ImportResult {
  const games: GameRecord[] = [];
  let skipped = 0;
  let truncated = 0;
  for (const item of items) {
    const parsed = GameRecordSchema.safeParse(item);
    if (!parsed.success) {
      skipped++;
      continue;
    }
    const bounded = boundRecord(parsed.data);
    if (bounded.truncated) truncated++;
    games.push(bounded.record);
  }
  return { games, skipped, truncated };
}

/** Games from an exported file, JSON or CSV (told apart by the first character); their replays bounded. */
export function importGames(text: string): ImportResult {
  if (text.length > IMPORT_MAX_CHARS) throw new ImportError('tooLarge');
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let data: unknown;
    try {
      data = JSON.parse(trimmed);
    } catch {
      throw new ImportError('notJson');
    }
    const file = typeof data === 'object' && data !== null ? (data as { games?: unknown; unreadable?: unknown }) : {};
    const list = Array.isArray(data) ? data : file.games;
    if (!Array.isArray(list)) throw new ImportError('noList');
    // Records that were unreadable where they were exported may read here (a newer version).
    return validRecords([...(list as unknown[]), ...(Array.isArray(file.unreadable) ? (file.unreadable as unknown[]) : [])]);
  }
  const rows = parseCsv(trimmed);
  const header = rows.shift();
  if (!header || CSV_COLUMNS.some((column) => !header.includes(column))) throw new ImportError('csvColumns');
  const at = (row: string[], column: CsvColumn): string => (header.includes(column) ? csvValue(row[header.indexOf(column)] ?? '') : '');
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
