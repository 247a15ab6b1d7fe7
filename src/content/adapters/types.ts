/**
 * The site-adapter contract. One file per page shape in this folder; the driver (src/content/driver.ts)
 * asks every adapter how confident it is that it can play the page, uses the most confident one, tells
 * the user which, and falls back in order of confidence.
 */
import type { Direction, Grid } from '../../engine/types';
import type { ReadFailure } from '../../shared/status-message';

export type GameStatus = 'playing' | 'won' | 'over' | 'unknown';

/** One reading of the page: the board, the score where the page shows one, and the game's status. */
export interface BoardReading {
  readonly grid: Grid;
  readonly score: number | null;
  readonly status: GameStatus;
  /** Why the status is 'unknown', as the status code the run pauses with (never the page's own words). */
  readonly note?: 'pausedPowerup' | 'pausedUnknownState';
}

/**
 * A board that cannot be read completely: what went wrong as a code the pages word (`readFailure_<code>`)
 * with numbers only (which cell, what size) — never the page's own text.
 */
export class BoardReadError extends Error {
  override name = 'BoardReadError';
  readonly values: readonly number[];
  constructor(
    readonly failure: ReadFailure,
    ...values: number[]
  ) {
    super(values.length > 0 ? `${failure} ${values.join(',')}` : failure);
    this.values = values;
  }
}

/** Where the board is drawn, in CSS pixels of the viewport (as getBoundingClientRect gives). */
export interface BoardRect {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

export type SettleResult =
  /**
   * The page shows a new board (the earliest reading of it); `drawn`, where the adapter watches the page's
   * animations, ends when they have (the driver thinks meanwhile; a page that drops keys gets none before).
   */
  | { readonly kind: 'changed'; readonly reading: BoardReading; readonly drawn?: Promise<void> }
  /** The page did not react to the move within the time allowed. */
  | { readonly kind: 'ignored' };

/** What an adapter may use: the page, and the main-world bridge where one is injected. */
export interface AdapterContext {
  readonly document: Document;
  readonly window: Window;
  /** Sends a request to the main-world script; undefined where no bridge is available (unit tests). */
  readonly bridge?: PageBridge;
}

/** Request/response channel to the main-world agent (src/page/main-world.ts); replies are HMAC-checked. */
export interface PageBridge {
  request<T = unknown>(type: string, payload?: unknown, timeoutMs?: number): Promise<T>;
  /** Subscribe to pushes from the main world (e.g. a game store's state); returns an unsubscribe. */
  on(type: string, listener: (payload: unknown) => void): () => void;
}

export interface Adapter {
  readonly name: string;
  /** Confidence in [0, 1] that this adapter can read and play the page; 0 = not this page. */
  detect(): Promise<number>;
  /** The board as shown now; throws BoardReadError when it cannot be read completely. */
  readBoard(): BoardReading;
  /** Play one move on the page (synthetic key, or the game's own move function). */
  sendMove(direction: Direction): Promise<void>;
  /**
   * Resolves when the board is stable and differs from `previous`, or says the move was ignored.
   * `expected` is the move just sent: a reading that is one move after `previous` by it is accepted at
   * once; any other changed reading is accepted only once the page has been quiet for a moment.
   */
  settled(previous: Grid, timeoutMs: number, expected?: Direction): Promise<SettleResult>;
  /** Where the board is on screen now (for the coach's overlay), or null when it cannot be told. */
  boardRect(): BoardRect | null;
  /**
   * Keep playing after the win as a person's click on "Keep going" would: the win message gone and the
   * game's own keep-playing state set, checked on the page (see ContinueResult). Never clicks a link or
   * anything that is not part of the board's win overlay.
   */
  continueAfterWin(): Promise<ContinueResult>;
}

/**
 * What continuing after a win did:
 * - 'continued': the win message is gone (still gone a moment later) and play can go on;
 * - 'no-control': the page shows no control of its own to keep playing on or over the board;
 * - 'still-shown': the control was pressed (twice) but the win message stayed up (or came back).
 */
export type ContinueResult = 'continued' | 'no-control' | 'still-shown';

export interface AdapterFactory {
  readonly name: string;
  /** Higher wins when two adapters are equally confident (store > saved-state/classic > geometry > canvas). */
  readonly rank: number;
  create(context: AdapterContext): Adapter;
}
