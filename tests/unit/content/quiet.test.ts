/**
 * The quiet wait after a move that did not give the board one move later (src/content/adapters/quiet.ts,
 * through waitForBoard): a page that draws in steps is always waited on in full and its half-drawn boards
 * are never taken; a page that draws each change in one burst learns the short wait, and loses it at the
 * first change drawn in steps.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JSDOM } from 'jsdom';
import { waitForBoard } from '../../../src/content/adapters/common';
import { QUIET_LEARNING, QuietWait } from '../../../src/content/adapters/quiet';
import type { Grid } from '../../../src/engine/types';
import type { SettleResult } from '../../../src/content/adapters/types';

const FULL_MS = 80;
const grid = (cells: number[]): Grid => ({ rows: 4, cols: 4, cells });
const PREVIOUS = grid([2, 4, 8, 16, 0, 0, 0, 0, 0, 0, 0, 0, 32, 64, 0, 128]);
/** Two boards none of them one move after PREVIOUS (a tile sum that grew by 1 024 and by 2 048). */
const HALF_DRAWN = grid([2, 4, 8, 16, 1024, 0, 0, 0, 0, 0, 0, 0, 32, 64, 0, 128]);
const DRAWN = grid([2, 4, 8, 16, 2048, 0, 0, 0, 0, 0, 0, 0, 32, 64, 0, 128]);

/** A page whose board is the `data-cells` of one element, observed as an adapter observes its board. */
function page(): { window: Window; show: (g: Grid) => void; wait: () => Promise<{ result: SettleResult; ms: number }> } {
  const dom = new JSDOM('<div id="board"></div>');
  const board = dom.window.document.getElementById('board') as HTMLElement;
  const show = (g: Grid): void => board.setAttribute('data-cells', g.cells.join(','));
  show(PREVIOUS);
  const window = dom.window as unknown as Window;
  const wait = async (): Promise<{ result: SettleResult; ms: number }> => {
    const started = Date.now();
    const result = await waitForBoard({
      window,
      observe: [board],
      read: () => ({ grid: grid((board.getAttribute('data-cells') ?? '').split(',').map(Number)), score: null, status: 'playing' }),
      previous: PREVIOUS,
      expected: 'left',
      timeoutMs: 2_000,
      quietMs: FULL_MS,
    });
    return { result, ms: Date.now() - started };
  };
  return { window, show, wait };
}

/** One move on the page: `steps` boards drawn `gapMs` apart, the last one left; resolves with the wait's result. */
async function move(p: ReturnType<typeof page>, steps: readonly Grid[], gapMs: number): Promise<{ result: SettleResult; ms: number }> {
  p.show(PREVIOUS);
  const waiting = p.wait();
  steps.forEach((g, i) => setTimeout(() => p.show(g), 5 + i * gapMs));
  await vi.advanceTimersByTimeAsync(3_000);
  return waiting;
}

function taken(result: SettleResult): readonly number[] | null {
  return result.kind === 'changed' ? result.reading.grid.cells : null;
}

describe('the quiet wait', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a page that draws each change in two steps: every wait is the full one, and the drawn board is taken', async () => {
    const p = page();
    for (let i = 0; i < 3 * QUIET_LEARNING.verifyEvery; i++) {
      const { result, ms } = await move(p, [HALF_DRAWN, DRAWN], 25);
      expect(taken(result)).toEqual(DRAWN.cells);
      // The second step came 25 ms after the first: quiet for the full wait after it.
      expect(ms).toBeGreaterThanOrEqual(5 + 25 + FULL_MS);
    }
  });

  it('a page that draws each change in one burst learns the short wait, with a full one every so often', async () => {
    const p = page();
    const waits: number[] = [];
    for (let i = 0; i < QUIET_LEARNING.burstsToLearn + 2 * QUIET_LEARNING.verifyEvery; i++) {
      const { result, ms } = await move(p, [DRAWN], 0);
      expect(taken(result)).toEqual(DRAWN.cells);
      waits.push(ms - 5);
    }
    const full = waits.map((ms, i) => (ms >= FULL_MS ? i : -1)).filter((i) => i >= 0);
    const learn = QUIET_LEARNING.burstsToLearn;
    const every = QUIET_LEARNING.verifyEvery;
    // Learned after `burstsToLearn` full waits; then one full wait in `verifyEvery`.
    expect(full).toEqual([0, 1, 2, learn + every - 1, learn + 2 * every - 1]);
    expect(Math.max(...waits.filter((_, i) => !full.includes(i)))).toBeLessThanOrEqual(QUIET_LEARNING.shortMs);
  });

  it('a learned page that draws a change in two steps gets the full wait for it, and learns again from the start', async () => {
    const p = page();
    for (let i = 0; i < QUIET_LEARNING.burstsToLearn; i++) await move(p, [DRAWN], 0);
    expect((await move(p, [DRAWN], 0)).ms - 5).toBeLessThanOrEqual(QUIET_LEARNING.shortMs);
    // The half-drawn board stays 15 ms: less than the full wait, not less than the short one.
    const { result, ms } = await move(p, [HALF_DRAWN, DRAWN], QUIET_LEARNING.shortMs - 5);
    expect(taken(result)).toEqual(DRAWN.cells);
    expect(ms).toBeGreaterThanOrEqual(5 + QUIET_LEARNING.shortMs - 5 + FULL_MS);
    for (let i = 0; i < QUIET_LEARNING.burstsToLearn; i++) expect((await move(p, [DRAWN], 0)).ms).toBeGreaterThanOrEqual(FULL_MS);
  });

  it('a learned page whose move comes after a half-drawn board forgets the short wait', async () => {
    const p = page();
    for (let i = 0; i < QUIET_LEARNING.burstsToLearn; i++) await move(p, [DRAWN], 0);
    // A move one move later (left), drawn after a half-drawn frame, as the classic game draws.
    const moved = grid([2, 4, 8, 16, 0, 0, 0, 2, 0, 0, 0, 0, 32, 64, 128, 0]);
    const { result } = await move(p, [HALF_DRAWN, moved], 10);
    expect(taken(result)).toEqual(moved.cells);
    expect((await move(p, [DRAWN], 0)).ms).toBeGreaterThanOrEqual(FULL_MS);
  });

  it('each page learns for itself, and pages read at checkpoints never learn', () => {
    const one = {};
    for (let i = 0; i < QUIET_LEARNING.burstsToLearn; i++) {
      const wait = new QuietWait(one, FULL_MS, true);
      wait.changed(DRAWN);
      wait.taken(DRAWN);
    }
    expect(new QuietWait(one, FULL_MS, true).ms).toBe(QUIET_LEARNING.shortMs);
    expect(new QuietWait({}, FULL_MS, true).ms).toBe(FULL_MS);
    const polled = {};
    for (let i = 0; i < 2 * QUIET_LEARNING.burstsToLearn; i++) {
      const wait = new QuietWait(polled, FULL_MS, false);
      wait.changed(DRAWN);
      wait.taken(DRAWN);
    }
    expect(new QuietWait(polled, FULL_MS, false).ms).toBe(FULL_MS);
  });
});
