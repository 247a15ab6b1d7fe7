import { describe, expect, it } from 'vitest';
import { PositionsFormatError, bestMove, compareWithReference, parsePositionsTsv } from '../../../src/cli/positions';

// Header and two rows as in shared/reference/expectimax-positions.tsv (rows 2 and 14 of its data).
const HEADER = 'board\tup\tdown\tleft\tright\tup_execs\tdown_execs\tleft_execs\tright_execs\tbest';
const ROW_A =
  '0,0,0,4,0,0,2,4,0,4,8,4,8,16,128,512\t1444151.875000\t1529461.125000\t1529586.625000\t0.000000\t95856\t241304\t94184\t0\tleft';
const ROW_B =
  '128,32,8,4,16,4,2,0,8,0,0,0,2,0,0,0\t0.000000\t1557017.625000\t0.000000\t1569246.625000\t0\t93744\t0\t127304\tright';
const FILE = ['# board: 16 tile values', '# search: ...', HEADER, ROW_A, ROW_B, ''].join('\n');

describe('parsePositionsTsv', () => {
  it('reads comments, the header row and the positions with their line numbers', () => {
    const positions = parsePositionsTsv(FILE);
    expect(positions).toHaveLength(2);
    const [a, b] = positions;
    expect(a.line).toBe(4);
    expect(a.board).toMatchObject({ rows: 4, cols: 4 });
    expect(a.board.cells[15]).toBe(512);
    expect(a.values).toEqual({ up: 1444151.875, down: 1529461.125, left: 1529586.625, right: 0 });
    expect(a.executions).toEqual({ up: 95856, down: 241304, left: 94184, right: 0 });
    expect(a.best).toBe('left');
    expect(b.line).toBe(5);
    expect(b.best).toBe('right');
  });

  it('accepts CRLF line ends', () => {
    expect(parsePositionsTsv(FILE.replace(/\n/g, '\r\n'))).toHaveLength(2);
  });

  const malformed: [string, string, RegExp][] = [
    ['a missing field', [HEADER, ROW_A.split('\t').slice(0, 9).join('\t')].join('\n'), /^line 2: expected 10 tab-separated fields, found 9/],
    ['a bad board', [HEADER, ROW_A.replace('0,0,0,4,', '0,0,0,5,')].join('\n'), /^line 2: board/],
    ['a short board', [HEADER, ROW_A.replace('0,0,0,4,', '0,0,4,')].join('\n'), /^line 2: board has 15 values/],
    ['a bad value', [HEADER, ROW_A.replace('1444151.875000', 'abc')].join('\n'), /^line 2: up: "abc"/],
    ['a bad count', [HEADER, ROW_A.replace('\t95856\t', '\t95.5\t')].join('\n'), /^line 2: up_execs/],
    ['a bad best move', [HEADER, ROW_A.replace(/left$/, 'north')].join('\n'), /^line 2: best: "north"/],
    ['a wrong header', ['# c', HEADER.replace('best', 'winner'), ROW_A].join('\n'), /^line 2: expected the header row/],
    ['an empty line', [HEADER, ROW_A, '', ROW_B].join('\n'), /^line 3: empty line/],
    ['no header', '# only comments\n', /no header row/],
    ['no positions', `${HEADER}\n`, /no positions/],
  ];
  it.each(malformed)('rejects %s, naming the line', (_name, text, message) => {
    expect(() => parsePositionsTsv(text)).toThrow(PositionsFormatError);
    expect(() => parsePositionsTsv(text)).toThrow(message);
  });
});

describe('compareWithReference', () => {
  const [reference] = parsePositionsTsv(FILE);

  it('agrees when the values and counts are the reference ones', () => {
    const result = compareWithReference(reference, {
      values: { up: 1444151.875, down: 1529461.125, left: 1529586.625 },
      executions: { up: 95856, down: 241304, left: 94184 },
    });
    expect(result).toEqual({ best: 'left', bestAgrees: true, maxRelError: 0, executionsMatched: 4, executionsCompared: 4 });
  });

  it('reports the largest relative error, a different best move and unequal counts', () => {
    const result = compareWithReference(reference, {
      values: { up: 1444151.875, down: 1529461.125 * 1.01, left: 1529586.625 },
      executions: { up: 95856, down: 241303, left: 94184 },
    });
    expect(result.best).toBe('down');
    expect(result.bestAgrees).toBe(false);
    expect(result.maxRelError).toBeCloseTo(0.01, 10);
    expect(result.executionsMatched).toBe(3);
  });

  it('counts a move legal on one side only as an infinite error', () => {
    const result = compareWithReference(reference, {
      values: { up: 1444151.875, down: 1529461.125, left: 1529586.625, right: 5 },
      executions: { up: 95856, down: 241304, left: 94184, right: 4 },
    });
    expect(result.maxRelError).toBe(Infinity);
    expect(result.executionsMatched).toBe(3);
  });

  it('picks the first of equal best values in up, down, left, right order', () => {
    expect(bestMove({ right: 2, left: 2, up: 1 })).toBe('left');
    expect(bestMove({})).toBeNull();
  });
});
