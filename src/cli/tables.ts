/**
 * Endgame tables in the CLI (docs: engine.md, "Endgame tables"; cli.md): `--tables on|off` (default off), built once with the WebAssembly
 * builder and cached on disk in ~/.cache/2048-autopilot/tables/ ($XDG_CACHE_HOME/2048-autopilot/tables/
 * when set, or $AUTOPILOT_TABLES_DIR). A cached file that is missing, of another format version, truncated
 * or corrupt (checksum) is rebuilt, never trusted. Each thread (bench workers too) installs the loaded
 * tables; playGame asks them before the search (see tableChoice).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Grid, MoveChoice } from '../engine/index';
import { legalMoves } from '../engine/index';
import { TableBuilder, describeSpec } from '../engine/tables/builder';
import { STANDARD_TABLE_SPECS } from '../engine/tables/formation';
import type { TableSpec } from '../engine/tables/formation';
import { TableStoreError, tableKey, parseTable, serializeTable } from '../engine/tables/store';
import { lookup } from '../engine/tables/table';
import type { EndgameTable } from '../engine/tables/table';
import { TABLES_WASM_FILE, readWasm } from './wasm-files';
import type { ParsedArgs } from './args';
import { UsageError } from './args';

export const TABLES_OPTION_SPECS = {
  tables: { type: 'string' },
  'table-threshold': { type: 'string' },
} as const;

/** Hand a move to the table when its success probability is at least this (docs/research/2026-11-25-endgame-tables.md, "Handover"). */
const DEFAULT_TABLE_THRESHOLD = 0.5;

export interface TablesSetting {
  readonly on: boolean;
  readonly threshold: number;
}

export function tablesFrom(args: ParsedArgs): TablesSetting {
  const text = args.string('tables') ?? 'off';
  if (text !== 'on' && text !== 'off') throw new UsageError(`--tables must be on or off, got "${text}"`);
  const thresholdText = args.string('table-threshold');
  const threshold = thresholdText === undefined ? DEFAULT_TABLE_THRESHOLD : Number(thresholdText);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new UsageError(`--table-threshold must be a probability 0..1, got "${thresholdText}"`);
  }
  return { on: text === 'on', threshold };
}

/** The tables the CLI builds: rows8 for anchors 32..512 and block6 for anchors 32 and 64, all exact. */
export const CLI_TABLE_SPECS: readonly TableSpec[] = STANDARD_TABLE_SPECS;

export function tablesCacheDir(): string {
  const explicit = process.env.AUTOPILOT_TABLES_DIR;
  if (explicit) return explicit;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, '2048-autopilot', 'tables');
}

export function tableFileName(spec: TableSpec): string {
  return `${tableKey(spec)}.egt`;
}

export interface LoadReport {
  readonly spec: TableSpec;
  readonly source: 'cache' | 'built';
  /** Why the cache was not used (missing, corrupt, ...), when built. */
  readonly reason?: string;
  readonly bytes: number;
  readonly states?: number;
  readonly buildMs?: number;
  readonly memoryBytes?: number;
}

/** Load every table from the cache, building (and caching) the missing or broken ones. */
export async function loadOrBuildTables(
  specs: readonly TableSpec[],
  dir = tablesCacheDir(),
  onEvent?: (text: string) => void,
): Promise<{ tables: EndgameTable[]; reports: LoadReport[] }> {
  const tables: EndgameTable[] = [];
  const reports: LoadReport[] = [];
  let builder: TableBuilder | null = null;
  for (const spec of specs) {
    const file = join(dir, tableFileName(spec));
    let reason: string;
    try {
      const bytes = new Uint8Array(readFileSync(file));
      const table = parseTable(bytes, spec);
      tables.push(table);
      reports.push({ spec, source: 'cache', bytes: bytes.length });
      continue;
    } catch (error) {
      if (error instanceof TableStoreError) reason = error.message;
      else if ((error as NodeJS.ErrnoException).code === 'ENOENT') reason = 'not cached yet';
      else throw error;
    }
    if (!builder) {
      builder = new TableBuilder(readWasm(TABLES_WASM_FILE));
    }
    onEvent?.(`endgame table ${describeSpec(spec)}: building (${reason})`);
    let shown = -1;
    const report = builder.build(spec, ({ fraction }) => {
      const percent = Math.floor(fraction * 10) * 10;
      if (percent !== shown) {
        shown = percent;
        onEvent?.(`Preparing endgame tables — ${describeSpec(spec)} ${percent}%`);
      }
    });
    const bytes = serializeTable(report.table);
    mkdirSync(dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, bytes);
    renameSync(temporary, file);
    tables.push(report.table);
    reports.push({ spec, source: 'built', reason, bytes: bytes.length, states: report.states, buildMs: report.ms, memoryBytes: report.memoryBytes });
  }
  return { tables, reports };
}

let installed: readonly EndgameTable[] = [];

/** Make `tables` the ones tableChoice consults in this thread. */
export function installTables(tables: readonly EndgameTable[]): void {
  installed = tables;
}

/** In a worker thread: load the cached tables (the main thread built them first). */
export async function useTables(setting: TablesSetting | undefined): Promise<void> {
  if (!setting?.on) {
    installTables([]);
    return;
  }
  const { tables } = await loadOrBuildTables(CLI_TABLE_SPECS);
  installTables(tables);
}

/** The table's move when a table fits the board with success probability ≥ threshold, else null. */
export function tableChoice(grid: Grid, threshold: number): MoveChoice | null {
  if (installed.length === 0) return null;
  const started = performance.now();
  const hit = lookup(installed, grid);
  if (!hit || hit.probability < threshold || !legalMoves(grid).includes(hit.move)) return null;
  return {
    strategy: 'expectimax',
    move: hit.move,
    values: { [hit.move]: hit.probability },
    depth: 0,
    nodes: 0,
    ms: performance.now() - started,
    table: true,
  };
}
