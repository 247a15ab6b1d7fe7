import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/args';
import { formatBoard, parseBoard } from '../../../src/cli/board';

const SIXTEEN = '0,2,2,4,0,0,0,8,0,0,16,0,1024,0,0,2';

describe('parseBoard', () => {
  it('reads a square board from 16 values, row-major', () => {
    const grid = parseBoard(SIXTEEN);
    expect(grid.rows).toBe(4);
    expect(grid.cols).toBe(4);
    expect(grid.cells[3]).toBe(4);
    expect(grid.cells[12]).toBe(1024);
  });

  it.each([9, 25, 36, 49, 64])('reads %i values as a square board', (count) => {
    const side = Math.sqrt(count);
    const grid = parseBoard(Array.from({ length: count }, (_, i) => (i === 0 ? 2 : 0)).join(','));
    expect([grid.rows, grid.cols]).toEqual([side, side]);
  });

  it('accepts spaces as separators', () => {
    expect(parseBoard('2 0 0  0,0 0 0 0 0 0 0 0 0 0 0 4').cells[15]).toBe(4);
  });

  it('reads non-square boards with --rows/--cols, deriving a missing one', () => {
    const values = Array.from({ length: 15 }, () => 0).join(',');
    expect(parseBoard(values, 3, 5)).toMatchObject({ rows: 3, cols: 5 });
    expect(parseBoard(values, 3)).toMatchObject({ rows: 3, cols: 5 });
    expect(parseBoard(values, undefined, 3)).toMatchObject({ rows: 5, cols: 3 });
  });

  it.each([
    ['0,2,2', /3 values: expected a square count/],
    [Array.from({ length: 15 }, () => '0').join(','), /15 values: expected a square count/],
    ['0,2,x,4,0,0,0,0,0,0,0,0,0,0,0,0', /value 3 \("x"\) is not a non-negative integer/],
    ['0,2,-2,4,0,0,0,0,0,0,0,0,0,0,0,0', /value 3/],
    ['0,2,2.5,4,0,0,0,0,0,0,0,0,0,0,0,0', /value 3/],
    ['', /--board is empty/],
    ['0,0,0,0', /4 values/],
  ])('rejects %j', (text, message) => {
    expect(() => parseBoard(text)).toThrow(UsageError);
    expect(() => parseBoard(text)).toThrow(message);
  });

  it('rejects a value that is not a power of two, naming the cell', () => {
    const run = () => parseBoard('0,2,2,4,0,0,3,0,0,0,0,0,0,0,0,0');
    expect(run).toThrow(UsageError);
    expect(run).toThrow(/--board: .*1.*2/);
  });

  it('rejects a count that does not match --rows/--cols and sizes out of range', () => {
    expect(() => parseBoard(SIXTEEN, 3, 5)).toThrow(/16 values but 3x5 needs 15/);
    expect(() => parseBoard(SIXTEEN, 2, 8)).toThrow(/outside 3..8/);
    expect(() => parseBoard(SIXTEEN, 3)).toThrow(/not a multiple of 3/);
  });
});

describe('formatBoard', () => {
  it('draws right-aligned cells with dots for empty cells', () => {
    const lines = formatBoard({ rows: 3, cols: 3, cells: [2, 0, 0, 0, 1024, 0, 0, 0, 4] });
    expect(lines).toEqual([
      '+------+------+------+',
      '|    2 |    . |    . |',
      '+------+------+------+',
      '|    . | 1024 |    . |',
      '+------+------+------+',
      '|    . |    . |    4 |',
      '+------+------+------+',
    ]);
  });

  it('widens cells for large tiles', () => {
    expect(formatBoard({ rows: 3, cols: 3, cells: [131072, 0, 0, 0, 0, 0, 0, 0, 0] })[1]).toBe('| 131072 |      . |      . |');
  });
});
