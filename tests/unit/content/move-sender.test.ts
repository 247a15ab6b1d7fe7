/**
 * A move on the page (src/content/move-sender.ts) and KeyPacing: a page that takes every key gets each at
 * once; a page that drops keys while it draws is learnt — its keys held until it has drawn (its animations
 * over, the learnt time since the board changed) — so that it drops only the first few; a dropped key is sent
 * again and the move counted once; a page that changed meanwhile gets no second key.
 */
import { describe, expect, it } from 'vitest';
import { applyMove, createRng, legalMoves, spawnRandomTile } from '../../../src/engine/index';
import type { Direction, Grid } from '../../../src/engine/types';
import type { Adapter, BoardReading, SettleResult } from '../../../src/content/adapters/types';
import { KeyPacing, MAX_HOLD_MS, sendMove } from '../../../src/content/move-sender';
import type { MoveSending } from '../../../src/content/move-sender';

/** A game that drops every key sent sooner than `busyMs` after its last move (its tiles still slide). */
class SlidingGame implements Adapter {
  readonly name = 'sliding';
  board: Grid = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0] };
  keys = 0;
  dropped = 0;
  moves = 0;
  private lastMoveAt = Number.NEGATIVE_INFINITY;
  private readonly rng = createRng(3);
  constructor(
    private readonly busyMs: number,
    private readonly animation?: () => Promise<void>,
  ) {}
  async detect(): Promise<number> {
    return 1;
  }
  readBoard(): BoardReading {
    return { grid: this.board, score: null, status: 'playing' };
  }
  async sendMove(direction: Direction): Promise<void> {
    this.keys++;
    if (performance.now() - this.lastMoveAt < this.busyMs) {
      this.dropped++;
      return;
    }
    const { grid, moved } = applyMove(this.board, direction);
    if (!moved) return;
    this.board = spawnRandomTile(grid, this.rng);
    this.moves++;
    this.lastMoveAt = performance.now();
  }
  async settled(previous: Grid, timeoutMs: number): Promise<SettleResult> {
    if (previous.cells.some((v, i) => v !== this.board.cells[i])) {
      return { kind: 'changed', reading: this.readBoard(), ...(this.animation ? { drawn: this.animation() } : {}) };
    }
    await new Promise((r) => setTimeout(r, timeoutMs));
    return { kind: 'ignored' };
  }
  boardRect(): null {
    return null;
  }
  async continueAfterWin(): Promise<'no-control'> {
    return 'no-control';
  }
}

function sending(pacing: KeyPacing): MoveSending {
  return {
    settleTimeoutMs: 30,
    retryBackoffMs: [5, 10, 20, 40],
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    interrupted: () => false,
    tryRead: (adapter) => adapter.readBoard(),
    pacing,
    now: () => performance.now(),
  };
}

async function play(game: SlidingGame, moves: number, pacing = new KeyPacing()): Promise<{ pacing: KeyPacing; counted: number }> {
  let counted = 0;
  for (let i = 0; i < moves; i++) {
    const before = game.board;
    const move = legalMoves(before)[0];
    if (!move) break;
    const after = await sendMove(game, before, move, sending(pacing));
    expect(after).not.toBeNull();
    counted++;
  }
  return { pacing, counted };
}

describe('KeyPacing', () => {
  it('a page that takes every key: each sent once, at once, nothing held', async () => {
    const game = new SlidingGame(0);
    const { pacing, counted } = await play(game, 20);
    expect(game.keys).toBe(20);
    expect(game.moves).toBe(20);
    expect(counted).toBe(20);
    expect(pacing.dropped).toBe(0);
    expect(pacing.holdMs).toBe(0);
  });

  it('a page that drops keys for 60 ms after a move: learnt after a few, every move counted once, the page moved once per move', async () => {
    const game = new SlidingGame(60);
    const { pacing, counted } = await play(game, 15);
    expect(counted).toBe(15);
    expect(game.moves).toBe(15);
    // Each dropped key was sent again; no move was sent twice to the page's board.
    expect(game.keys).toBe(game.moves + game.dropped);
    expect(pacing.dropped).toBe(game.dropped);
    expect(game.dropped).toBeGreaterThanOrEqual(1);
    expect(game.dropped).toBeLessThanOrEqual(4);
    expect(pacing.holdMs).toBeGreaterThanOrEqual(60);
    expect(pacing.holdMs).toBeLessThanOrEqual(MAX_HOLD_MS);
  });

  it("once a page dropped a key, the next is held until the page's drawing ended", async () => {
    let ends: (() => void) | null = null;
    const game = new SlidingGame(0, () => new Promise<void>((done) => (ends = done)));
    const pacing = new KeyPacing();
    pacing.keyDropped(performance.now());
    pacing.holdMs = 0;
    await play(game, 1, pacing);
    const next = play(game, 1, pacing);
    await new Promise((r) => setTimeout(r, 30));
    expect(game.keys).toBe(1); // held: the page still draws
    (ends as unknown as () => void)();
    await next;
    expect(game.keys).toBe(2);
  });

  it('a board that changed while the key was held back is taken as it is, no key sent again', async () => {
    const game = new SlidingGame(10_000); // drops everything after its first move
    const pacing = new KeyPacing();
    await play(game, 1, pacing);
    const before = game.board;
    const move = legalMoves(before)[0] as Direction;
    const late = setTimeout(() => {
      game.board = applyMove(before, move).grid; // the page takes the key late, by itself
    }, 35);
    const after = await sendMove(game, before, move, sending(pacing));
    clearTimeout(late);
    expect(after?.grid).toEqual(applyMove(before, move).grid);
    expect(game.keys).toBe(2);
  });
});
