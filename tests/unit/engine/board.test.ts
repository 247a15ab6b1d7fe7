import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EMPTY,
  HEUR,
  OUT,
  ROW_LEFT,
  ROW_RIGHT,
  SCORE_LEFT,
  SCORE_RIGHT,
  countDistinctRanks,
  executeMove,
  fromGrid,
  lineHeuristic,
  toGrid,
} from '../../../src/engine/board';
import { naiveMove, naiveSlide, toMatrix } from './naive';

const rankLine = (row: number): number[] => [0, 1, 2, 3].map((i) => (row >>> (4 * i)) & 0xf);
const values = (ranks: number[]): number[] => ranks.map((r) => (r === 0 ? 0 : 2 ** r));
const packValues = (line: number[]): number =>
  line.reduce((acc, v, i) => acc | ((v === 0 ? 0 : Math.log2(v)) << (4 * i)), 0);

describe('row tables', () => {
  it('match the naive slide on all 65 536 rows, left and right (score included)', () => {
    let checked = 0;
    const wrong: number[] = [];
    for (let row = 0; row < 65536; row++) {
      const line = values(rankLine(row));
      const left = naiveSlide(line);
      const right = naiveSlide([...line].reverse());
      // A 32768+32768 merge makes 65536, which four bits cannot hold: the table keeps 32768 (checked below).
      if (left.line.some((v) => v > 32768) || right.line.some((v) => v > 32768)) continue;
      const ok =
        ROW_LEFT[row] === packValues(left.line) &&
        ROW_RIGHT[row] === packValues(right.line.reverse()) &&
        SCORE_LEFT[row] === left.score &&
        SCORE_RIGHT[row] === right.score &&
        EMPTY[row] === line.filter((v) => v === 0).length;
      if (!ok) wrong.push(row);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(60000);
  });

  it('caps a 32768+32768 merge at rank 15 and scores it 65536', () => {
    const row = 0xff; // ranks 15, 15, 0, 0
    expect(rankLine(ROW_LEFT[row])).toEqual([15, 0, 0, 0]);
    expect(SCORE_LEFT[row]).toBe(65536);
  });

  it('holds the reference solver\'s line evaluation in float32', () => {
    expect(HEUR[0]).toBe(200000 + 270 * 4);
    // ranks 1,1,0,0: empty 2, merges 2 (one run of two), mono min(0, 1) = 0 → sum 2·1^3.5
    expect(HEUR[0x11]).toBe(Math.fround(200000 + 540 + 1400 - 22));
    for (let row = 0; row < 65536; row += 97) expect(HEUR[row]).toBe(Math.fround(HEUR[row]));
    expect(lineHeuristic([3, 1, 2, 0])).toBe(HEUR[0x0213]);
  });
});

const arbBoard4 = fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 11 })), {
  minLength: 16,
  maxLength: 16,
});

describe('bitboard moves', () => {
  it('agree with the naive oracle on random 4x4 boards in every direction', () => {
    fc.assert(
      fc.property(arbBoard4, (ranks) => {
        const cells = values(ranks);
        fromGrid({ rows: 4, cols: 4, cells });
        const lo = OUT[0];
        const hi = OUT[1];
        (['up', 'down', 'left', 'right'] as const).forEach((dir, d) => {
          const score = executeMove(lo, hi, d);
          const expected = naiveMove(toMatrix(4, 4, cells), dir);
          expect(toGrid(OUT[0], OUT[1]).cells).toEqual(expected.board.flat());
          expect(score).toBe(expected.score);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('converts to and from grids; counts distinct ranks', () => {
    const cells = [0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768];
    fromGrid({ rows: 4, cols: 4, cells });
    expect(toGrid(OUT[0], OUT[1]).cells).toEqual(cells);
    expect(countDistinctRanks(OUT[0], OUT[1])).toBe(15);
  });

  it('rejects what the bitboard cannot hold, naming the cell', () => {
    const cells = new Array<number>(16).fill(0);
    cells[11] = 3;
    expect(() => fromGrid({ rows: 4, cols: 4, cells })).toThrow(
      new RangeError('cell (row 2, col 3) holds 3: not 0 or a power of two from 2 to 32768'),
    );
    cells[11] = 65536;
    expect(() => fromGrid({ rows: 4, cols: 4, cells })).toThrow(/cell \(row 2, col 3\) holds 65536/);
    expect(() => fromGrid({ rows: 3, cols: 3, cells: new Array<number>(9).fill(0) })).toThrow(RangeError);
  });
});
