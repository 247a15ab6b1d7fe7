/**
 * The canvas adapter's pixel reader on fake ImageData painted here in the classic palette: board found
 * by colour, lattice from the gaps, each cell by the colour near its top-left corner, numbers drawn in
 * the middle ignored; unknown colours and tiles above 2048 are errors naming the cell.
 */
import { readExpected, readSnapshotPng } from './dom';
import { describe, expect, it } from 'vitest';
import { BOARD_COLOUR, EMPTY_COLOUR, PALETTE, SUPER_COLOUR, readPixels, valueOfColour } from '../../../src/content/adapters/canvas';
import type { Pixels } from '../../../src/content/adapters/canvas';

type Rgb = readonly [number, number, number];

const colourOf = (value: number): Rgb =>
  value === 0 ? EMPTY_COLOUR : (PALETTE.find(([v]) => v === value)?.[1] ?? (value > 2048 ? SUPER_COLOUR : ([1, 2, 3] as const)));

/** Paint a board like the fixture pages do: board colour, cells with gaps, a dark "number" blob in the middle. */
function paint(cells: number[][], options: { size?: number; gap?: number; offset?: number; canvas?: number } = {}): Pixels {
  const rows = cells.length;
  const cols = cells[0].length;
  const size = options.size ?? 60;
  const gap = options.gap ?? 8;
  const offset = options.offset ?? 10;
  const boardW = cols * size + (cols + 1) * gap;
  const boardH = rows * size + (rows + 1) * gap;
  const width = options.canvas ?? boardW + 2 * offset;
  const height = options.canvas ?? boardH + 2 * offset;
  const data = new Uint8ClampedArray(width * height * 4);
  const fill = (x0: number, y0: number, w: number, h: number, c: Rgb): void => {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const o = (y * width + x) * 4;
        data[o] = c[0];
        data[o + 1] = c[1];
        data[o + 2] = c[2];
        data[o + 3] = 255;
      }
    }
  };
  fill(offset, offset, boardW, boardH, BOARD_COLOUR);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = offset + gap + c * (size + gap);
      const y = offset + gap + r * (size + gap);
      fill(x, y, size, size, colourOf(cells[r][c]));
      if (cells[r][c] > 0) fill(x + size * 0.35, y + size * 0.35, size * 0.3, size * 0.3, [0x77, 0x6e, 0x65]);
    }
  }
  return { width, height, data };
}

describe('canvas pixel reader', () => {
  it('reads a 4x4 classic-palette board with every tile colour', () => {
    const board = [
      [0, 2, 4, 8],
      [16, 32, 64, 128],
      [256, 512, 1024, 2048],
      [0, 0, 2, 0],
    ];
    expect(readPixels(paint(board))).toEqual({ rows: 4, cols: 4, cells: board.flat() });
  });

  it('reads 3x3 and 5x5 boards placed anywhere on a larger canvas', () => {
    const three = [
      [2, 0, 0],
      [0, 4, 0],
      [0, 0, 8],
    ];
    expect(readPixels(paint(three, { offset: 40, canvas: 400 })).cells).toEqual(three.flat());
    const five = Array.from({ length: 5 }, (_, r) => Array.from({ length: 5 }, (_, c) => ((r + c) % 3 === 0 ? 2 : 0)));
    expect(readPixels(paint(five, { size: 40, gap: 6 }))).toMatchObject({ rows: 5, cols: 5, cells: five.flat() });
  });

  it('names the cell of an unknown colour, and refuses tiles above 2048', () => {
    const board = [
      [2, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 7, 0],
      [0, 0, 0, 0],
    ];
    expect(() => readPixels(paint(board))).toThrow(expect.objectContaining({ failure: 'cellNotTile', values: [3, 3] }));
    board[2][2] = 4096;
    expect(() => readPixels(paint(board))).toThrow(expect.objectContaining({ failure: 'tileAboveCanvasLimit', values: [3, 3] }));
  });

  it('finds no board on a canvas without the board colour', () => {
    const blank: Pixels = { width: 100, height: 100, data: new Uint8ClampedArray(100 * 100 * 4).fill(255) };
    expect(() => readPixels(blank)).toThrow(expect.objectContaining({ failure: 'noBoardColour' }));
  });

  it('maps colours with a small tolerance and keeps neighbours apart', () => {
    expect(valueOfColour(0xed, 0xcc, 0x61)).toBe(256);
    expect(valueOfColour(0xed + 3, 0xcc - 2, 0x61 + 3)).toBe(256);
    expect(valueOfColour(0xed, 0xc8, 0x50)).toBe(512);
    expect(valueOfColour(0xcd, 0xc1, 0xb4)).toBe(0);
    expect(valueOfColour(0, 0, 0)).toBeNull();
    expect(valueOfColour(0x3c, 0x3a, 0x32)).toBe(-1);
  });
});

// ------------------------------------------------- the fixture pages' own canvases


describe('canvas snapshots of the fixture pages', () => {
  for (const name of ['canvas-classic', 'play2048-like'] as const) {
    it(`reads ${name}.png`, () => {
      const expected = readExpected(name);
      expect(readPixels(readSnapshotPng(name))).toEqual({ rows: expected.rows, cols: expected.cols, cells: expected.cells });
    });
  }
});
