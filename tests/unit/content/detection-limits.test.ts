// @vitest-environment jsdom
/**
 * Detection cannot freeze a page: bounded work per container and in all, a time budget, a cap
 * on classic tiles, and canvases read only by copying (never a getContext on the page's canvas) and only
 * up to a size a board can have; the arrow over a canvas board copies it rarely and small.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CanvasAdapter, canvasBoardRect, canvases } from '../../../src/content/adapters/canvas';
import { ClassicAdapter } from '../../../src/content/adapters/classic';
import { DETECTION_LIMITS } from '../../../src/content/adapters/common';
import { GeometryAdapter, findBoard } from '../../../src/content/adapters/geometry';
import { SavedStateAdapter } from '../../../src/content/adapters/saved-state';
import { contextOf, domFromHtml } from './dom';

const page = (body: string): string => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;

/** A 4x4 board in DOM order (Vue-like cells), two tiles. */
const SMALL_BOARD = `<div class="board" style="display:grid;grid-template-columns:repeat(4,1fr)">${Array.from({ length: 16 }, (_, i) =>
  i === 0 || i === 5 ? '<div class="cell">2</div>' : '<div class="cell empty"></div>',
).join('')}</div>`;

function manyTiles(count: number): string {
  const cells: string[] = [];
  for (let i = 0; i < count; i++) cells.push(`<div class="cell">${i % 7 === 0 ? '' : 2 << i % 10}</div>`);
  return `<div class="board" style="display:grid;grid-template-columns:repeat(200,1fr)">${cells.join('')}</div>`;
}

function manyClassicTiles(count: number): string {
  const tiles: string[] = [];
  for (let i = 0; i < count; i++) tiles.push(`<div class="tile tile-2 tile-position-${(i % 4) + 1}-${((i >> 2) % 4) + 1}"><div class="tile-inner">2</div></div>`);
  return `<div class="game-container"><div class="grid-container">${'<div class="grid-row">' + '<div class="grid-cell"></div>'.repeat(4) + '</div>'}</div><div class="tile-container">${tiles.join('')}</div></div>`;
}

/** An OffscreenCanvas of our own world that tells `onDraw` what was copied, at what size; its pixels are blank. */
function fakeOffscreen(onDraw: (source: unknown, size: [number, number]) => void): unknown {
  return class {
    constructor(
      readonly width: number,
      readonly height: number,
    ) {}
    getContext() {
      const { width, height } = this;
      return {
        clearRect() {},
        drawImage(source: unknown, _x: number, _y: number, w = width, h = height) {
          onDraw(source, [w, h]);
        },
        getImageData: () => ({ width, height, data: new Uint8ClampedArray(width * height * 4) }),
      };
    }
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('DOM detection limits', () => {
  it('finds no board among 30 000 tiles, and still finds a real board beside them', async () => {
    const huge = domFromHtml(page(manyTiles(30_000)));
    const started = Date.now();
    expect(findBoard(huge.window.document)).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000); // the budget is 120 ms; jsdom on a busy machine is slow
    expect(await new GeometryAdapter(contextOf(huge)).detect()).toBe(0);

    const both = domFromHtml(page(manyTiles(30_000) + SMALL_BOARD));
    const found = findBoard(both.window.document, { limits: { timeMs: 10_000 } });
    expect(found?.grid).toEqual({ rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
  });

  it('stops searching when the time budget is spent', () => {
    // The board is the first element of the page, before 400 plain paragraphs (the walk is depth first
    // from the last child, so the board is looked at last).
    const dom = domFromHtml(page(`${SMALL_BOARD}${'<p>text</p>'.repeat(400)}`));
    expect(findBoard(dom.window.document, { limits: { timeMs: 10_000 } })).not.toBeNull();
    let t = 0;
    const clock = (): number => (t += 1); // every look at the clock costs 1 ms
    expect(findBoard(dom.window.document, { now: clock, limits: { timeMs: 50 } }) === null).toBe(true);
    expect(t).toBeLessThan(60);
  });

  it('visits at most the element budget', () => {
    const dom = domFromHtml(page(`${SMALL_BOARD}${'<p>text</p>'.repeat(400)}`));
    expect(findBoard(dom.window.document, { limits: { timeMs: 10_000 } })).not.toBeNull();
    expect(findBoard(dom.window.document, { limits: { elements: 100, timeMs: 10_000 } }) === null).toBe(true);
  });

  it('a classic page with 30 000 tiles is no board for the classic and saved-state adapters', async () => {
    const dom = domFromHtml(page(manyClassicTiles(30_000)));
    dom.window.localStorage.setItem('gameState', JSON.stringify({ grid: { size: 4, cells: [[null, null, null, null], [null, null, null, null], [null, null, null, null], [{ position: { x: 3, y: 3 }, value: 2 }, null, null, null]] }, score: 0, over: false, won: false, keepPlaying: false }));
    expect(await new ClassicAdapter(contextOf(dom)).detect()).toBe(0);
    expect(await new SavedStateAdapter(contextOf(dom)).detect()).toBe(0);
    expect(DETECTION_LIMITS.classicTiles).toBeLessThan(30_000);
  });
});

describe('canvas detection limits', () => {
  it('never creates a context on the page canvas and never reads one larger than a board can be', async () => {
    const dom = domFromHtml(page('<canvas id="huge" width="10000" height="10000"></canvas><canvas id="small" width="400" height="400"></canvas>'));
    const doc = dom.window.document;
    const pageGetContext = vi.fn(() => null);
    for (const canvas of Array.from(doc.querySelectorAll('canvas'))) (canvas as HTMLCanvasElement).getContext = pageGetContext as never;
    const drawn: string[] = [];
    vi.stubGlobal('OffscreenCanvas', fakeOffscreen((source) => drawn.push((source as HTMLCanvasElement).id)));
    expect(canvases(doc).map((c) => c.id)).toEqual(['small']);
    expect(await new CanvasAdapter(contextOf(dom)).detect()).toBe(0);
    expect(pageGetContext).not.toHaveBeenCalled();
    expect(drawn).toEqual(['small']);
  });
});

describe('the arrow over a canvas board', () => {
  it('copies a large canvas at most every 2 s, scaled down to 512 × 512 pixels at most', () => {
    const dom = domFromHtml(page('<canvas id="big" width="2048" height="2048"></canvas>'));
    const doc = dom.window.document;
    const canvas = doc.getElementById('big') as HTMLCanvasElement;
    canvas.getBoundingClientRect = () => ({ left: 0, top: 0, width: 500, height: 500, right: 500, bottom: 500, x: 0, y: 0, toJSON: () => ({}) }) as DOMRect;
    const copies: [number, number][] = [];
    vi.stubGlobal('OffscreenCanvas', fakeOffscreen((_source, size) => copies.push(size)));
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    for (let i = 0; i < 10; i++) {
      canvasBoardRect(doc);
      now += 500;
    }
    // Ten asks over 5 s (the arrow's every 500 ms): three copies, each at most 512 × 512.
    expect(copies).toHaveLength(3);
    for (const [w, h] of copies) expect(w * h).toBeLessThanOrEqual(512 * 512);
    // A canvas that changes size is looked at again at once.
    canvas.width = 1024;
    canvasBoardRect(doc);
    expect(copies).toHaveLength(4);
  });
});
