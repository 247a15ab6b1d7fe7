/**
 * The reference-position file (tests/fixtures/reference/expectimax-positions.tsv, copied from the
 * team's reference material, see tests/fixtures/reference/README.md): strict parsing and comparison with our search.
 *
 * Shape: comment lines starting with '#', then one header row, then one row per position:
 * board (16 comma-separated values) / up down left right values / the four execution counts / best move.
 */
import { DIRECTIONS } from '../engine/types';
import type { Direction, Grid } from '../engine/types';
import { parseBoard } from './board';

const POSITION_COLUMNS = [
  'board',
  'up',
  'down',
  'left',
  'right',
  'up_execs',
  'down_execs',
  'left_execs',
  'right_execs',
  'best',
] as const;

export interface ReferencePosition {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly board: Grid;
  /** The reference value of each move; 0 = illegal. */
  readonly values: Readonly<Record<Direction, number>>;
  /** Move executions the reference search made for each root move. */
  readonly executions: Readonly<Record<Direction, number>>;
  readonly best: Direction;
}

export class PositionsFormatError extends Error {
  override readonly name = 'PositionsFormatError';
}

function fail(line: number, message: string): never {
  throw new PositionsFormatError(`line ${line}: ${message}`);
}

export function parsePositionsTsv(text: string): ReferencePosition[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const positions: ReferencePosition[] = [];
  let headerSeen = false;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (!headerSeen && raw.startsWith('#')) return;
    if (raw.trim() === '') fail(line, 'empty line');
    const fields = raw.split('\t');
    if (!headerSeen) {
      if (fields.length !== POSITION_COLUMNS.length || fields.some((field, i) => field.trim() !== POSITION_COLUMNS[i])) {
        fail(line, `expected the header row "${POSITION_COLUMNS.join('\\t')}"`);
      }
      headerSeen = true;
      return;
    }
    if (fields.length !== POSITION_COLUMNS.length) {
      fail(line, `expected ${POSITION_COLUMNS.length} tab-separated fields, found ${fields.length}`);
    }
    let board: Grid;
    try {
      board = parseBoard(fields[0], 4, 4);
    } catch (error) {
      fail(line, (error instanceof Error ? error.message : String(error)).replace(/^--board/, 'board'));
    }
    const values = {} as Record<Direction, number>;
    const executions = {} as Record<Direction, number>;
    DIRECTIONS.forEach((dir, i) => {
      const valueText = fields[1 + i].trim();
      const value = Number(valueText);
      if (valueText === '' || !Number.isFinite(value) || value < 0) fail(line, `${dir}: "${valueText}" is not a non-negative number`);
      values[dir] = value;
      const execText = fields[5 + i].trim();
      if (!/^\d+$/.test(execText)) fail(line, `${dir}_execs: "${execText}" is not a non-negative integer`);
      executions[dir] = Number(execText);
    });
    const bestText = fields[9].trim();
    const best = DIRECTIONS.find((dir) => dir === bestText);
    if (!best) fail(line, `best: "${bestText}" is not one of ${DIRECTIONS.join(', ')}`);
    positions.push({ line, board, values, executions, best });
  });
  if (!headerSeen) fail(lines.length + 1, 'no header row');
  if (positions.length === 0) fail(lines.length + 1, 'no positions');
  return positions;
}

/** Our search of one position: value and move executions per legal root move (illegal moves absent). */
export interface SearchedPosition {
  readonly values: Partial<Record<Direction, number>>;
  readonly executions: Partial<Record<Direction, number>>;
}

export interface PositionComparison {
  /** Our best move (highest value; ties broken in DIRECTIONS order), null when no move is legal. */
  readonly best: Direction | null;
  readonly bestAgrees: boolean;
  /** Largest |ours − reference| / |reference| over the moves legal in either. */
  readonly maxRelError: number;
  /** Per-move execution counts equal to the reference's (illegal moves: both absent/0 counts as equal). */
  readonly executionsMatched: number;
  readonly executionsCompared: number;
}

export function bestMove(values: Partial<Record<Direction, number>>): Direction | null {
  let best: Direction | null = null;
  for (const dir of DIRECTIONS) {
    const value = values[dir];
    if (value === undefined) continue;
    if (best === null || value > (values[best] as number)) best = dir;
  }
  return best;
}

export function compareWithReference(reference: ReferencePosition, ours: SearchedPosition): PositionComparison {
  const best = bestMove(ours.values);
  let maxRelError = 0;
  let executionsMatched = 0;
  for (const dir of DIRECTIONS) {
    const ref = reference.values[dir];
    const mine = ours.values[dir] ?? 0;
    if (ref !== 0 || mine !== 0) {
      const error = ref === 0 ? Infinity : Math.abs(mine - ref) / Math.abs(ref);
      if (error > maxRelError) maxRelError = error;
    }
    if ((ours.executions[dir] ?? 0) === reference.executions[dir]) executionsMatched++;
  }
  return {
    best,
    bestAgrees: best === reference.best,
    maxRelError,
    executionsMatched,
    executionsCompared: DIRECTIONS.length,
  };
}
