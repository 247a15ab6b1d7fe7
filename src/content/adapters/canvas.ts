/**
 * canvas — a board drawn on a <canvas> with no game module to ask (docs: sites.md, "Other clones"): read the
 * pixels, find the board by the classic board colour, infer the cell lattice from the gaps of board
 * colour between cells, sample each cell near its top-left inner corner (away from the number) and map
 * the colour through the classic palette. A colour it does not know is an error naming the cell, and so
 * is the one colour shared by every tile above 2048 (#3c3a32): the picture alone cannot tell them apart.
 * The win: a displayed "You win!" beside the canvas (in its parent) is the won state; keep playing only
 * through a "Keep going" control of an overlay over the canvas — none (e.g. "press C") means the run
 * stops and the person continues by hand.
 *
 * Checked on: tests/fixtures/pages/canvas-classic (and play2048-like, where the store adapter wins).
 */
import type { Direction, Grid } from '../../engine/types';
import { DETECTION_LIMITS, elementRect, isBoardSize, sendKeyMove, waitForBoard } from './common';
import { continueByClicking, endMessageIn, findWinControl } from './game-end';
import { BoardReadError } from './types';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading, BoardRect, ContinueResult, GameStatus, SettleResult } from './types';

type Rgb = readonly [number, number, number];

function hex(value: string): Rgb {
  const n = parseInt(value.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export const BOARD_COLOUR = hex('#bbada0');
export const EMPTY_COLOUR = hex('#cdc1b4');
export const SUPER_COLOUR = hex('#3c3a32');
/** Tile value → its colour in the classic palette. */
export const PALETTE: readonly (readonly [number, Rgb])[] = [
  [2, hex('#eee4da')],
  [4, hex('#ede0c8')],
  [8, hex('#f2b179')],
  [16, hex('#f59563')],
  [32, hex('#f67c5f')],
  [64, hex('#f65e3b')],
  [128, hex('#edcf72')],
  [256, hex('#edcc61')],
  [512, hex('#edc850')],
  [1024, hex('#edc53f')],
  [2048, hex('#edc22e')],
];

/** Largest per-channel difference accepted as the same colour (anti-aliasing, colour management). */
const COLOUR_TOLERANCE = 6;

/** The pixels of a canvas, as ImageData has them (RGBA, row-major). */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray | readonly number[];
}

function near(data: Pixels['data'], offset: number, colour: Rgb, tolerance = COLOUR_TOLERANCE): boolean {
  return (
    data[offset + 3] > 200 &&
    Math.abs(data[offset] - colour[0]) <= tolerance &&
    Math.abs(data[offset + 1] - colour[1]) <= tolerance &&
    Math.abs(data[offset + 2] - colour[2]) <= tolerance
  );
}

/** Runs of indexes where `isCell` holds, at least `minLength` long. */
function runs(length: number, isCell: (i: number) => boolean, minLength: number): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= length; i++) {
    const inside = i < length && isCell(i);
    if (inside && start < 0) start = i;
    if (!inside && start >= 0) {
      if (i - start >= minLength) out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/** Map one sampled colour to a tile value (0 = empty); null when it is no colour of the palette. */
export function valueOfColour(r: number, g: number, b: number, tolerance = COLOUR_TOLERANCE): number | null {
  const close = (c: Rgb): boolean => Math.abs(r - c[0]) <= tolerance && Math.abs(g - c[1]) <= tolerance && Math.abs(b - c[2]) <= tolerance;
  if (close(EMPTY_COLOUR)) return 0;
  let best: number | null = null;
  let bestDistance = Infinity;
  for (const [value, c] of PALETTE) {
    if (!close(c)) continue;
    const d = Math.abs(r - c[0]) + Math.abs(g - c[1]) + Math.abs(b - c[2]);
    if (d < bestDistance) {
      bestDistance = d;
      best = value;
    }
  }
  if (best !== null) return best;
  if (close(SUPER_COLOUR)) return -1;
  return null;
}

/** Bounding box (inclusive, canvas pixels) of the board-coloured pixels; throws when there is none. */
function boardBox(pixels: Pixels): { left: number; top: number; right: number; bottom: number } {
  const { width, height, data } = pixels;
  if (width * height * 4 > data.length || width < 30 || height < 30) throw new BoardReadError('canvasTooSmall');
  // Sampled every other pixel for speed.
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      if (!near(data, (y * width + x) * 4, BOARD_COLOUR)) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right - left < 30 || bottom - top < 30) throw new BoardReadError('noBoardColour');
  return { left, top, right, bottom };
}

/** Read a classic-palette board from pixels; throws BoardReadError naming what or which cell went wrong. */
export function readPixels(pixels: Pixels): Grid {
  const { width, data } = pixels;
  // 1. The board: bounding box of board-coloured pixels.
  const { left, top, right, bottom } = boardBox(pixels);
  const w = right - left + 1;
  const h = bottom - top + 1;
  // 2. The lattice: columns and rows where most pixels are not board colour are cells; gaps are board colour.
  const colCells = (x: number): boolean => {
    let count = 0;
    for (let y = top; y <= bottom; y += 2) if (!near(data, (y * width + x) * 4, BOARD_COLOUR)) count++;
    return count * 2 > h * 0.3;
  };
  const rowCells = (y: number): boolean => {
    let count = 0;
    for (let x = left; x <= right; x += 2) if (!near(data, (y * width + x) * 4, BOARD_COLOUR)) count++;
    return count * 2 > w * 0.3;
  };
  const colRuns = runs(w, (i) => colCells(left + i), Math.max(4, w / 20)).map(([a, b]) => [a + left, b + left] as const);
  const rowRuns = runs(h, (i) => rowCells(top + i), Math.max(4, h / 20)).map(([a, b]) => [a + top, b + top] as const);
  const rows = rowRuns.length;
  const cols = colRuns.length;
  if (!isBoardSize(rows, cols)) throw new BoardReadError('boardSize', rows, cols);
  // 3. Each cell's colour near its top-left inner corner.
  const cells: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [x0, x1] = colRuns[c];
      const [y0, y1] = rowRuns[r];
      const sx = Math.floor(x0 + (x1 - x0) * 0.14);
      const sy = Math.floor(y0 + (y1 - y0) * 0.14);
      const o = (sy * width + sx) * 4;
      const value = valueOfColour(data[o], data[o + 1], data[o + 2]);
      if (value === null) {
        throw new BoardReadError('cellNotTile', r + 1, c + 1);
      }
      if (value < 0) throw new BoardReadError('tileAboveCanvasLimit', r + 1, c + 1);
      cells.push(value);
    }
  }
  return { rows, cols, cells };
}

/** Whether a canvas is worth reading: big enough for a board, and not larger than DETECTION_LIMITS allow. */
function readableSize(canvas: HTMLCanvasElement): boolean {
  const { width, height } = canvas;
  return width >= 30 && height >= 30 && width * height <= DETECTION_LIMITS.canvasPixels;
}

/** The page's canvases worth reading, largest first, at most DETECTION_LIMITS.canvases of them. */
export function canvases(doc: Document): HTMLCanvasElement[] {
  return Array.from(doc.querySelectorAll('canvas'))
    .filter(readableSize)
    .sort((a, b) => b.width * b.height - a.width * a.height)
    .slice(0, DETECTION_LIMITS.canvases);
}

type ScratchContext = Pick<CanvasRenderingContext2D, 'drawImage' | 'getImageData' | 'clearRect'>;

/**
 * A 2D context of our own (an OffscreenCanvas of this world, else a detached <canvas>) to copy the page's
 * canvas into. Calling getContext on the page's canvas would create a context the page never set up (and
 * then stop the page from creating the WebGL context it wanted): that is never done.
 */
function scratchContext(doc: Document, width: number, height: number): ScratchContext | null {
  try {
    if (typeof OffscreenCanvas === 'function') {
      return new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true }) as ScratchContext | null;
    }
    const canvas = doc.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    return canvas.getContext('2d', { willReadFrequently: true }) as ScratchContext | null;
  } catch {
    return null;
  }
}

/** The pixels of a page canvas, copied (drawImage) into a scratch canvas; throws BoardReadError. */
function pixelsOf(canvas: HTMLCanvasElement): Pixels {
  const { width, height } = canvas;
  if (!readableSize(canvas)) throw new BoardReadError('canvasSize', width, height);
  const scratch = scratchContext(canvas.ownerDocument, width, height);
  if (!scratch) throw new BoardReadError('canvasUnreadable');
  try {
    scratch.clearRect(0, 0, width, height);
    scratch.drawImage(canvas, 0, 0);
    return scratch.getImageData(0, 0, width, height);
  } catch {
    throw new BoardReadError('canvasProtected');
  }
}

/** 'won' while a displayed win message stands beside the canvas (in its parent); game over comes from the board. */
function canvasStatus(canvas: HTMLCanvasElement): GameStatus {
  const scope = canvas.parentElement;
  return scope && endMessageIn(scope, 300) === 'won' ? 'won' : 'playing';
}

/**
 * The board's box on screen: the board-coloured box in canvas pixels, scaled to the canvas element's CSS
 * box (`canvasBox`). Pure, for the tests; `canvasBoardRect` measures a page.
 */
export function scaleBoardBox(
  box: { left: number; top: number; right: number; bottom: number },
  canvasSize: { width: number; height: number },
  canvasBox: BoardRect,
): BoardRect {
  const sx = canvasBox.width / canvasSize.width;
  const sy = canvasBox.height / canvasSize.height;
  return {
    left: canvasBox.left + box.left * sx,
    top: canvasBox.top + box.top * sy,
    width: (box.right - box.left + 1) * sx,
    height: (box.bottom - box.top + 1) * sy,
  };
}

/**
 * What the arrow over a canvas board costs (the Hint's and the coach's arrow asks for the board's box every
 * 500 ms): the box in canvas pixels is looked for at most every `refreshMs` per canvas (sooner when the
 * canvas changes size), in a copy of at most `pixels` pixels — a 2048 × 2048 canvas is copied at a quarter
 * of its side. The arrow needs the box, not every pixel.
 */
const OVERLAY_LIMITS = { refreshMs: 2_000, pixels: 512 * 512 } as const;

type PixelBox = { left: number; top: number; right: number; bottom: number };
const boxes = new WeakMap<HTMLCanvasElement, { width: number; height: number; at: number; box: PixelBox | null }>();

/** The board-coloured box on `canvas` in its own pixels, from a copy of at most OVERLAY_LIMITS.pixels. */
function boardBoxScaled(canvas: HTMLCanvasElement): PixelBox | null {
  const { width, height } = canvas;
  if (!readableSize(canvas)) return null;
  const scale = Math.min(1, Math.sqrt(OVERLAY_LIMITS.pixels / (width * height)));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const scratch = scratchContext(canvas.ownerDocument, w, h);
  if (!scratch) return null;
  try {
    scratch.clearRect(0, 0, w, h);
    scratch.drawImage(canvas, 0, 0, w, h);
    const box = boardBox(scratch.getImageData(0, 0, w, h));
    const sx = width / w;
    const sy = height / h;
    return { left: box.left * sx, top: box.top * sy, right: (box.right + 1) * sx - 1, bottom: (box.bottom + 1) * sy - 1 };
  } catch {
    return null;
  }
}

/** Where the board drawn on `canvas` is on screen (null when no board can be found on it). */
function boardRectOfCanvas(canvas: HTMLCanvasElement): BoardRect | null {
  const box = elementRect(canvas);
  if (!box || canvas.width === 0 || canvas.height === 0) return null;
  const now = Date.now();
  let known = boxes.get(canvas);
  if (!known || known.width !== canvas.width || known.height !== canvas.height || now - known.at >= OVERLAY_LIMITS.refreshMs) {
    known = { width: canvas.width, height: canvas.height, at: now, box: boardBoxScaled(canvas) };
    boxes.set(canvas, known);
  }
  return known.box ? scaleBoardBox(known.box, canvas, box) : null;
}

/** The board on the page's largest canvas that shows one (for adapters that read the board elsewhere). */
export function canvasBoardRect(doc: Document): BoardRect | null {
  for (const canvas of canvases(doc)) {
    const rect = boardRectOfCanvas(canvas);
    if (rect) return rect;
  }
  return null;
}

export class CanvasAdapter implements Adapter {
  readonly name = 'canvas';
  private canvas: HTMLCanvasElement | null = null;

  constructor(private readonly context: AdapterContext) {}

  async detect(): Promise<number> {
    for (const canvas of canvases(this.context.document)) {
      try {
        const grid = readPixels(pixelsOf(canvas));
        if (grid.cells.some((v) => v > 0)) {
          this.canvas = canvas;
          return 0.35;
        }
      } catch {
        // not a board, or not readable
      }
    }
    return 0;
  }

  readBoard(): BoardReading {
    const canvas = this.canvas && this.canvas.isConnected ? this.canvas : canvases(this.context.document)[0];
    if (!canvas) throw new BoardReadError('boardGone');
    return { grid: readPixels(pixelsOf(canvas)), score: null, status: canvasStatus(canvas) };
  }

  sendMove(direction: Direction): Promise<void> {
    return sendKeyMove(this.context, direction);
  }

  settled(previous: Grid, timeoutMs: number, expected?: Direction): Promise<SettleResult> {
    // Drawing on a canvas mutates no DOM: read again at a few bounded points in time.
    return waitForBoard({
      window: this.context.window,
      observe: this.canvas ? [this.canvas] : [],
      read: () => this.readBoard(),
      previous,
      expected,
      timeoutMs,
      checkpoints: [10, 30, 60, 100, 160, 250, 400, 600, 900],
    });
  }

  boardRect(): BoardRect | null {
    const canvas = this.canvas && this.canvas.isConnected ? this.canvas : null;
    return canvas ? boardRectOfCanvas(canvas) : canvasBoardRect(this.context.document);
  }

  continueAfterWin(): Promise<ContinueResult> {
    const canvas = this.canvas && this.canvas.isConnected ? this.canvas : canvases(this.context.document)[0];
    if (!canvas) return Promise.resolve('no-control');
    return continueByClicking({
      winShown: () => canvasStatus(canvas) === 'won',
      findControl: () => findWinControl(canvas),
    });
  }
}

export const canvasAdapter: AdapterFactory = {
  name: 'canvas',
  rank: 1,
  create: (context) => new CanvasAdapter(context),
};
