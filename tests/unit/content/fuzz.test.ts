// @vitest-environment jsdom
/**
 * Hostile input: random and malformed DOMs, saved states, store snapshots and pixels given to every
 * adapter's detect/readBoard: the answer is a reading or a BoardReadError, never another exception, and
 * a reading is always a valid board.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateGrid } from '../../../src/engine/index';
import { ClassicAdapter } from '../../../src/content/adapters/classic';
import { GeometryAdapter } from '../../../src/content/adapters/geometry';
import { SavedStateAdapter, parseSavedState } from '../../../src/content/adapters/saved-state';
import { readingFromSnapshot } from '../../../src/content/adapters/store';
import { readPixels } from '../../../src/content/adapters/canvas';
import { BoardReadError } from '../../../src/content/adapters/types';
import type { Adapter, BoardReading } from '../../../src/content/adapters/types';
import { StoreSnapshotSchema } from '../../../src/shared/bridge-protocol';
import { contextOf, domFromHtml } from './dom';

const CLASSES = [
  'tile', 'tile-2', 'tile-4', 'tile-3', 'tile-2048', 'tile-0', 'tile-position-1-1', 'tile-position-4-4', 'tile-position-9-1',
  'position-0-0', 'position-3-2', 'tile-new', 'tile-merged', 'grid-container', 'grid-row', 'grid-cell', 'tile-container',
  'game-message', 'game-won', 'game-over', 'score-container', 'field', 'field-2', 'field-empty', 'field-12', 'row', 'cell',
  'empty', 'board', 'keep-playing-button',
];
const TEXTS = ['', '2', '4', '8', '16', '2048', '3', '0', '-2', '1e3', 'NaN', 'x', '  4  ', '131072', '262144', 'Score 12'];
const TAGS = ['div', 'span', 'p', 'td', 'section', 'button', 'canvas'];

interface Node {
  tag: string;
  classes: string[];
  text: string;
  style: string;
  children: Node[];
}

const styleArb = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.integer({ min: -50, max: 600 }), fc.integer({ min: -50, max: 600 })).map(([l, t]) => `left:${l}px;top:${t}px`),
  fc.constantFrom('display:grid;grid-template-columns:repeat(4, 1fr)', 'width:460px;height:460px', 'left:10px', 'top:abcpx;left:1e9px'),
);

function nodeArbOf(depth: number): fc.Arbitrary<Node> {
  return fc.record({
    tag: fc.constantFrom(...TAGS),
    classes: fc.array(fc.constantFrom(...CLASSES), { maxLength: 3 }),
    text: fc.constantFrom(...TEXTS),
    style: styleArb,
    children: depth === 0 ? fc.constant([]) : fc.array(nodeArbOf(depth - 1), { maxLength: depth === 1 ? 16 : 5 }),
  });
}
const nodeArb = nodeArbOf(3);

function html(node: Node): string {
  const inner = node.children.length > 0 ? node.children.map(html).join('') : node.text;
  return `<${node.tag} class="${node.classes.join(' ')}" style="${node.style}">${inner}</${node.tag}>`;
}

function checkReading(reading: BoardReading): void {
  validateGrid(reading.grid);
  expect(reading.grid.cells).toHaveLength(reading.grid.rows * reading.grid.cols);
}

async function probe(adapter: Adapter): Promise<void> {
  const confidence = await adapter.detect();
  expect(confidence).toBeGreaterThanOrEqual(0);
  expect(confidence).toBeLessThanOrEqual(1);
  try {
    checkReading(adapter.readBoard());
  } catch (err) {
    if (!(err instanceof BoardReadError)) throw err;
  }
}

describe('hostile input to the adapters', () => {
  it('random DOMs: a reading or a BoardReadError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(nodeArb, { minLength: 1, maxLength: 6 }), fc.option(fc.string(), { nil: undefined }), async (nodes, saved) => {
        const dom = domFromHtml(`<!DOCTYPE html><html><body>${nodes.map(html).join('')}</body></html>`);
        if (saved !== undefined) dom.window.localStorage.setItem('gameState', saved);
        const context = contextOf(dom);
        for (const adapter of [new ClassicAdapter(context), new GeometryAdapter(context), new SavedStateAdapter(context)]) await probe(adapter);
      }),
      { numRuns: 100 },
    );
  });

  it('random saved states: a reading, null, or a BoardReadError', () => {
    const cell = fc.oneof(fc.constant(null), fc.record({ value: fc.oneof(fc.integer(), fc.double(), fc.string()) }), fc.integer(), fc.string());
    const state = fc.oneof(
      fc.json(),
      fc.record({
        grid: fc.record({ size: fc.oneof(fc.integer({ min: -2, max: 10 }), fc.string()), cells: fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 6 }) }),
        score: fc.oneof(fc.integer(), fc.string()),
        won: fc.boolean(),
        over: fc.anything(),
      }).map((s) => JSON.stringify(s)),
    );
    fc.assert(
      fc.property(state, (json) => {
        try {
          const reading = parseSavedState(json);
          if (reading) checkReading(reading);
        } catch (err) {
          if (!(err instanceof BoardReadError)) throw err;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('random store snapshots: validated at the bridge, then a reading or a BoardReadError', () => {
    fc.assert(
      fc.property(fc.anything(), fc.array(fc.array(fc.integer({ min: 0, max: 1 << 17 }), { minLength: 2, maxLength: 8 }), { minLength: 2, maxLength: 8 }), fc.string(), (junk, board, state) => {
        expect(StoreSnapshotSchema.safeParse(junk).success === false || typeof junk === 'object').toBe(true);
        const parsed = StoreSnapshotSchema.safeParse({ state, score: 0, board });
        if (!parsed.success) return;
        try {
          checkReading(readingFromSnapshot(parsed.data));
        } catch (err) {
          if (!(err instanceof BoardReadError)) throw err;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('random pixels: a board or a BoardReadError', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 }), fc.integer(), (width, height, seed) => {
        const data = new Uint8ClampedArray(width * height * 4);
        let s = seed >>> 0;
        const palette = [[0xbb, 0xad, 0xa0], [0xcd, 0xc1, 0xb4], [0xee, 0xe4, 0xda], [0x3c, 0x3a, 0x32], [1, 2, 3]];
        for (let i = 0; i < width * height; i++) {
          s = (s * 1664525 + 1013904223) >>> 0;
          const c = palette[s % palette.length];
          data.set([c[0], c[1], c[2], 255], i * 4);
        }
        try {
          const grid = readPixels({ width, height, data });
          validateGrid(grid);
        } catch (err) {
          if (!(err instanceof BoardReadError)) throw err;
        }
      }),
      { numRuns: 200 },
    );
  });
});
