/**
 * Pieces every adapter uses: tile-value checks, sending an arrow key (main world first), and waiting
 * for the board to settle after a move — event-driven (MutationObserver, bridge pushes), with bounded
 * timers only as upper bounds (no requestAnimationFrame: hidden tabs get none).
 */
import { isSuccessor } from '../../engine/index';
import type { Direction, Grid } from '../../engine/types';
import { BOARD_LIMITS } from '../../engine/limits';
import { dispatchMoveKey } from '../keys';
import { BoardReadError } from './types';
import type { AdapterContext, BoardReading, SettleResult } from './types';

export const MAX_TILE = 1 << 17;

export function isTileValue(value: number): boolean {
  return Number.isInteger(value) && value >= 2 && value <= MAX_TILE && (value & (value - 1)) === 0;
}

/** "cell (row 2, col 3)", 1-based as people count. */
export function cellName(row: number, col: number): string {
  return `cell (row ${row + 1}, col ${col + 1})`;
}

export function checkTile(value: number, row: number, col: number): number {
  if (value === 0 || isTileValue(value)) return value;
  throw new BoardReadError(`${cellName(row, col)} shows ${value}: not a power of two from 2 to ${MAX_TILE}`);
}

export function sameGrid(a: Grid, b: Grid): boolean {
  if (a.rows !== b.rows || a.cols !== b.cols || a.cells.length !== b.cells.length) return false;
  for (let i = 0; i < a.cells.length; i++) if (a.cells[i] !== b.cells[i]) return false;
  return true;
}

export function isBoardSize(rows: number, cols: number): boolean {
  const fits = (side: number): boolean => Number.isInteger(side) && side >= BOARD_LIMITS.minPlayedSize && side <= BOARD_LIMITS.maxSize;
  return fits(rows) && fits(cols);
}

/** The first number in a text ("1 234", "Score 1234" → 1234), or null. */
export function numberFromText(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = /\d[\d,\s]*/.exec(text);
  if (!m) return null;
  const v = Number(m[0].replace(/[,\s]/g, ''));
  return Number.isFinite(v) ? v : null;
}

/** Press the arrow key: from the main world through the bridge when it is connected, else from here. */
export async function sendKeyMove(context: AdapterContext, direction: Direction): Promise<void> {
  const bridge = context.bridge as (AdapterContext['bridge'] & { connected?: boolean }) | undefined;
  if (bridge && bridge.connected === true) {
    try {
      await bridge.request('key', { direction }, 500);
      return;
    } catch {
      // Fall back to the isolated world below (values set in the constructor reach the page too).
    }
  }
  dispatchMoveKey(context.document, direction);
}

export interface WaitForBoardOptions {
  readonly window: Window;
  /** DOM nodes to observe (subtree); mutations there trigger a new reading. */
  readonly observe: readonly Node[];
  /** The board now, or null while it cannot be read (tiles in flight). Must not throw other than BoardReadError. */
  readonly read: () => BoardReading | null;
  readonly previous: Grid;
  readonly expected?: Direction;
  readonly timeoutMs: number;
  /** A changed reading that is not one move after `previous` is accepted after this long without mutations. */
  readonly quietMs?: number;
  /** Extra triggers: times (ms after the start) to read again, for pages that draw without DOM mutations. */
  readonly checkpoints?: readonly number[];
  /** Extra trigger source (e.g. bridge pushes); returns an unsubscribe. */
  readonly subscribe?: (notify: () => void) => () => void;
  /** After an accepted reading, wait (bounded) for CSS animations/transitions under these nodes to end. */
  readonly animationsOf?: readonly Element[];
}

function safeRead(read: () => BoardReading | null): BoardReading | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** Wait (at most `maxMs`) for running CSS animations and transitions under `elements` to finish. */
export async function afterAnimations(elements: readonly Element[], maxMs: number): Promise<void> {
  const running: Promise<unknown>[] = [];
  for (const element of elements) {
    if (typeof element.getAnimations !== 'function') continue;
    for (const animation of element.getAnimations({ subtree: true })) {
      if (animation.playState === 'running') running.push(animation.finished.catch(() => undefined));
    }
  }
  if (running.length === 0) return;
  await new Promise<void>((done) => {
    const timer = setTimeout(done, maxMs);
    Promise.all(running).then(() => {
      clearTimeout(timer);
      done();
    });
  });
}

export function waitForBoard(options: WaitForBoardOptions): Promise<SettleResult> {
  const { previous, expected, timeoutMs } = options;
  const quietMs = options.quietMs ?? 80;
  return new Promise<SettleResult>((resolve) => {
    let finished = false;
    let quietTimer: ReturnType<typeof setTimeout> | undefined;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const MutationObserverCtor = (options.window as Window & { MutationObserver?: typeof MutationObserver }).MutationObserver;
    const observer = MutationObserverCtor ? new MutationObserverCtor(() => check()) : undefined;
    let unsubscribe: (() => void) | undefined = undefined;

    const finish = (result: SettleResult): void => {
      if (finished) return;
      finished = true;
      observer?.disconnect();
      unsubscribe?.();
      if (quietTimer !== undefined) clearTimeout(quietTimer);
      for (const t of timers) clearTimeout(t);
      if (result.kind === 'changed' && options.animationsOf && options.animationsOf.length > 0) {
        afterAnimations(options.animationsOf, 600).then(() => resolve(result));
      } else {
        resolve(result);
      }
    };

    const changedReading = (): BoardReading | null => {
      const reading = safeRead(options.read);
      if (!reading || sameGrid(reading.grid, previous)) return null;
      return reading;
    };

    function check(): void {
      if (finished) return;
      const reading = changedReading();
      if (!reading) return;
      if (expected && reading.grid.rows === previous.rows && reading.grid.cols === previous.cols && isSuccessor(previous, reading.grid, expected)) {
        finish({ kind: 'changed', reading });
        return;
      }
      // Changed but not as the move would: wait until the page has been quiet, then take what it shows.
      if (quietTimer !== undefined) clearTimeout(quietTimer);
      quietTimer = setTimeout(() => {
        const latest = changedReading();
        if (latest) finish({ kind: 'changed', reading: latest });
      }, quietMs);
    }

    for (const node of options.observe) {
      observer?.observe(node, { subtree: true, childList: true, attributes: true, characterData: true });
    }
    unsubscribe = options.subscribe?.(() => check());
    for (const at of options.checkpoints ?? []) if (at < timeoutMs) timers.push(setTimeout(check, at));
    timers.push(
      setTimeout(() => {
        const reading = changedReading();
        finish(reading ? { kind: 'changed', reading } : { kind: 'ignored' });
      }, timeoutMs),
    );
    check();
  });
}
