/** Boards on the command line: parse `--board "0,2,2,4,..."` and draw a grid as text. */
import { validateGrid } from '../engine/index';
import type { Grid } from '../engine/index';
import { BOARD_LIMITS } from '../engine/limits';
import { UsageError } from './args';

export const MIN_SIDE = BOARD_LIMITS.minPlayedSize;
export const MAX_SIDE = BOARD_LIMITS.maxSize;

/**
 * Parse tile values (row-major, separated by commas and/or whitespace). Without rows/cols the count must
 * be a square 9, 16, ..., 64; with one of them the other is derived; with both the count must match.
 * Values must be 0 or a power of two 2..2^17 (the engine's validateGrid decides and names the cell).
 */
export function parseBoard(text: string, rows?: number, cols?: number): Grid {
  const tokens = text.split(/[\s,]+/).filter((token) => token.length > 0);
  if (tokens.length === 0) throw new UsageError('--board is empty');
  const cells = tokens.map((token, index) => {
    if (!/^\d+$/.test(token)) throw new UsageError(`--board value ${index + 1} ("${token}") is not a non-negative integer`);
    return Number(token);
  });
  const count = cells.length;
  let r = rows;
  let c = cols;
  if (r === undefined && c === undefined) {
    const side = Math.round(Math.sqrt(count));
    if (side * side !== count || side < MIN_SIDE || side > MAX_SIDE) {
      throw new UsageError(
        `--board has ${count} values: expected a square count (9, 16, 25, 36, 49 or 64) or give --rows and --cols`,
      );
    }
    r = side;
    c = side;
  } else if (r === undefined || c === undefined) {
    const known = (r ?? c) as number;
    if (count % known !== 0) throw new UsageError(`--board has ${count} values, not a multiple of ${known}`);
    if (r === undefined) r = count / known;
    else c = count / known;
  }
  const rowsOut = r as number;
  const colsOut = c as number;
  if (rowsOut * colsOut !== count) {
    throw new UsageError(`--board has ${count} values but ${rowsOut}x${colsOut} needs ${rowsOut * colsOut}`);
  }
  if (rowsOut < MIN_SIDE || rowsOut > MAX_SIDE || colsOut < MIN_SIDE || colsOut > MAX_SIDE) {
    throw new UsageError(`board size ${rowsOut}x${colsOut} is outside ${MIN_SIDE}..${MAX_SIDE} per side`);
  }
  const grid: Grid = { rows: rowsOut, cols: colsOut, cells };
  try {
    validateGrid(grid);
  } catch (error) {
    throw new UsageError(`--board: ${error instanceof Error ? error.message : String(error)}`);
  }
  return grid;
}

/** The boards of a --start file: one per line (as --board), blank lines and # comments skipped. */
export function parseStartBoards(text: string, file: string, size: number): Grid[] {
  const boards: Grid[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') continue;
    let grid: Grid;
    try {
      grid = parseBoard(line);
    } catch (error) {
      throw new UsageError(`${file}:${i + 1}: ${error instanceof Error ? error.message.replace(/^--board: /, '').replace(/^--board /, 'the board ') : String(error)}`);
    }
    if (grid.rows !== size || grid.cols !== size) throw new UsageError(`${file}:${i + 1}: a ${grid.rows}x${grid.cols} board, the bench plays ${size}x${size} (--size)`);
    boards.push(grid);
  }
  if (boards.length === 0) throw new UsageError(`${file}: no boards`);
  return boards;
}

/** The grid as text lines, right-aligned columns, '.' for an empty cell. */
export function formatBoard(grid: Grid): string[] {
  const width = Math.max(4, ...grid.cells.map((value) => String(value).length));
  const border = `+${Array.from({ length: grid.cols }, () => '-'.repeat(width + 2)).join('+')}+`;
  const lines = [border];
  for (let row = 0; row < grid.rows; row++) {
    const cells: string[] = [];
    for (let col = 0; col < grid.cols; col++) {
      const value = grid.cells[row * grid.cols + col];
      cells.push(` ${(value === 0 ? '.' : String(value)).padStart(width)} `);
    }
    lines.push(`|${cells.join('|')}|`);
    lines.push(border);
  }
  return lines;
}
