/**
 * Sending one move on a virtual clock: a page that drops keys for a while after each move teaches the
 * pacing its lock within a few drops, and from then on every move goes through at the first key; a page
 * that takes every key is never slowed; a page that draws late (but took the key) teaches nothing; a page
 * that drops keys whatever their timing is not slowed for long: the pacing gives up.
 */
import { describe, expect, it } from 'vitest';
import { applyMove, createRng, legalMoves, spawnRandomTile } from '../../../src/engine/index';
import type { Direction, Grid } from '../../../src/engine/types';
import type { Adapter, BoardReading, SettleResult } from '../../../src/content/adapters/types';
import { InputPacing, sendMove } from '../../../src/content/move-sender';
import type { MoveSending } from '../../../src/content/move-sender';

const FRAME_MS = 16;
const SETTLE_MS = 800;
const BACKOFF_MS = [150, 300, 600] as const;
const START: Grid = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0] };
/** A corner player's order: games last long enough for the lessons. */
const PREFERENCE: readonly Direction[] = ['down', 'left', 'right', 'up'];

interface PageRules {
  /** Keys arriving sooner than this after the page last took one are dropped. */
  lockMs?: number;
  /** The page takes the key but shows the new board only this long after it (the settle times out first when longer). */
  drawDelayMs?: number;
  /** Drops this share of keys whatever their timing (every n-th key, n = 1 / share). */
  dropEvery?: number;
}

/** A 2048 page on a virtual clock, by the engine's rules. */
class VirtualPage implements Adapter {
  readonly name = 'virtual';
  clock = 0;
  keys = 0;
  dropped = 0;
  board: Grid = START;
  private shown: Grid = this.board;
  private showAt = 0;
  private tookAt = Number.NEGATIVE_INFINITY;
  private readonly rng = createRng(3);

  constructor(private readonly rules: PageRules = {}) {}

  async detect(): Promise<number> {
    return 1;
  }
  boardRect(): null {
    return null;
  }
  readBoard(): BoardReading {
    if (this.clock >= this.showAt) this.shown = this.board;
    return { grid: this.shown, score: null, status: 'playing' };
  }
  async sendMove(direction: Direction): Promise<void> {
    this.keys++;
    const locked = this.clock - this.tookAt < (this.rules.lockMs ?? 0);
    const unlucky = this.rules.dropEvery !== undefined && this.keys % this.rules.dropEvery === 0;
    if (locked || unlucky) {
      this.dropped++;
      return;
    }
    const { grid, moved } = applyMove(this.board, direction);
    if (!moved) return;
    this.tookAt = this.clock;
    this.board = spawnRandomTile(grid, this.rng);
    this.showAt = this.clock + (this.rules.drawDelayMs ?? FRAME_MS);
  }
  async settled(previous: Grid, timeoutMs: number): Promise<SettleResult> {
    const changedBy = Math.max(this.clock, this.showAt);
    const boardMoved = this.board.cells.some((v, i) => v !== previous.cells[i]);
    if (boardMoved && changedBy - this.clock <= timeoutMs) {
      this.clock = changedBy;
      return { kind: 'changed', reading: this.readBoard() };
    }
    this.clock += timeoutMs;
    return { kind: 'ignored' };
  }
  /** A new game, as a person would start one at game over (drawn in the next frame). */
  restart(): void {
    this.board = START;
    this.showAt = this.clock;
  }
  async continueAfterWin(): Promise<'continued'> {
    return 'continued';
  }
}

/** Plays `moves` moves as the driver does (a `thinkMs` search between them); the virtual time each took. */
async function play(page: VirtualPage, moves: number, thinkMs = 5, pacing = new InputPacing()): Promise<{ perMove: number[]; pacing: InputPacing }> {
  const how: MoveSending = {
    settleTimeoutMs: SETTLE_MS,
    retryBackoffMs: BACKOFF_MS,
    pacing,
    now: () => page.clock,
    sleep: async (ms) => {
      page.clock += ms;
    },
    interrupted: () => false,
    tryRead: (adapter) => adapter.readBoard(),
  };
  const perMove: number[] = [];
  for (let i = 0; i < moves; i++) {
    if (legalMoves(page.readBoard().grid).length === 0) page.restart();
    const before = page.readBoard().grid;
    const legal = legalMoves(before);
    const move = PREFERENCE.find((m) => legal.includes(m))!;
    const start = page.clock;
    page.clock += thinkMs;
    const after = await sendMove(page, before, move, how);
    expect(after?.grid.cells).not.toEqual(before.cells);
    perMove.push(page.clock - start);
  }
  return { perMove, pacing };
}

describe('sendMove and its pacing', () => {
  it('learns a 300 ms input lock within a few dropped keys, then every move goes through at its first key', async () => {
    const page = new VirtualPage({ lockMs: 300 });
    const { perMove, pacing } = await play(page, 60);
    expect(perMove).toHaveLength(60);
    expect(page.dropped).toBeGreaterThan(0);
    expect(page.dropped).toBeLessThanOrEqual(4);
    expect(pacing.learntMs).toBeGreaterThanOrEqual(300);
    expect(pacing.learntMs).toBeLessThan(700);
    // After the lessons: no key dropped, and a move costs the learnt wait plus a frame, not a settle timeout.
    const droppedSoFar = page.dropped;
    const later = await play(page, 40, 5, pacing);
    expect(page.dropped).toBe(droppedSoFar);
    for (const ms of later.perMove) expect(ms).toBeLessThanOrEqual(pacing.learntMs + FRAME_MS);
    // Unpaced, the same page costs a settle timeout and a back-off on every move.
    const unpaced = new VirtualPage({ lockMs: 300 });
    const slow = await play(unpaced, 20, 5, new InputPacing(0));
    expect(Math.min(...slow.perMove.slice(1))).toBeGreaterThanOrEqual(SETTLE_MS + BACKOFF_MS[0]);
  });

  it('never waits on a page that takes every key', async () => {
    const page = new VirtualPage();
    const { perMove, pacing } = await play(page, 50, 0);
    expect(page.dropped).toBe(0);
    expect(pacing.learntMs).toBe(0);
    expect(perMove.every((ms) => ms === FRAME_MS)).toBe(true);
  });

  it('learns nothing from a page that took the key but drew it after the settle timeout', async () => {
    const page = new VirtualPage({ drawDelayMs: SETTLE_MS + 100 });
    const { pacing } = await play(page, 10);
    expect(page.dropped).toBe(0);
    expect(page.keys).toBe(10); // the late board was seen before pressing again: no second key
    expect(pacing.learntMs).toBe(0);
  });

  it('gives up on a page that drops keys whatever their timing (waiting would only slow it down)', async () => {
    const page = new VirtualPage({ dropEvery: 3 });
    const { perMove, pacing } = await play(page, 60);
    expect(perMove).toHaveLength(60);
    expect(pacing.learntMs).toBe(0);
    // Gave up for good: later drops teach nothing.
    pacing.dropped(5);
    expect(pacing.learntMs).toBe(0);
  });

  it('learns a lock up to the cap (900 ms), and no more', async () => {
    const page = new VirtualPage({ lockMs: 900 });
    const { pacing } = await play(page, 40);
    expect(pacing.learntMs).toBe(1_000);
    const dropped = page.dropped;
    await play(page, 20, 5, pacing);
    expect(page.dropped).toBe(dropped);
  });

  it('waits only for what is left of the learnt wait (the search already took the rest)', () => {
    const pacing = new InputPacing();
    pacing.changed(1_000);
    expect(pacing.delay(1_005)).toBe(0);
    pacing.dropped(5);
    expect(pacing.learntMs).toBe(100);
    expect(pacing.delay(1_030)).toBe(70);
    expect(pacing.delay(1_200)).toBe(0);
    pacing.dropped(100);
    expect(pacing.learntMs).toBe(200);
    pacing.dropped(Number.POSITIVE_INFINITY); // a drop before any change teaches nothing
    expect(pacing.learntMs).toBe(200);
  });
});
