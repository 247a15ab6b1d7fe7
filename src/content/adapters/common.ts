/**
 * Pieces every adapter uses: tile-value checks, bounded reading of the page, sending an arrow key (main world
 * first, never while a text field has focus), and waiting for the board to settle after a move — event-driven
 * (MutationObserver, bridge pushes), with bounded timers only as upper bounds (no requestAnimationFrame: hidden
 * tabs get none). The win and game-over messages and the win's "Keep going": ./game-end.ts.
 */
import { isSuccessor, sameGrid } from '../../engine/index';
import type { Direction, Grid } from '../../engine/types';
import { BOARD_LIMITS } from '../../engine/limits';
import { EditableFocusError, dispatchMoveKey, focusedEditable } from '../keys';
import { QuietWait } from './quiet';
import { BoardReadError } from './types';
import type { AdapterContext, BoardReading, BoardRect, SettleResult } from './types';

const MAX_TILE = 1 << 17;

/**
 * Limits of detection work, so that no page can make detection freeze it (docs: sites.md): a board has at most
 * 64 cells (plus merged duplicates mid-animation), so a container with far more children, a page with far
 * more tile-like elements, or a canvas far larger than any board is not looked at in detail.
 */
export const DETECTION_LIMITS = {
  /** Children of one element looked at (and descended into) while searching for a board. */
  childrenPerContainer: 256,
  /** Elements visited in all while searching for a board. */
  elements: 20_000,
  /** Classic `.tile` elements: more than this is no 2048 board. */
  classicTiles: 512,
  /** Canvases considered (largest first, among those under the pixel cap). */
  canvases: 4,
  /** Pixels of one canvas (width × height): 2048 × 2048. Larger ones are never read. */
  canvasPixels: 2048 * 2048,
  /** Wall-clock budget of one adapter's DOM search, in ms (detection as a whole must end within 200 ms). */
  timeMs: 120,
} as const;

/**
 * Limits of the work done on the page around each move (docs: sites.md): the same 200 ms rule as
 * detection, with room to spare. Reading the win or game-over message around the board and finding the
 * win's "Keep going" look at a bounded number of elements, controls and characters, within a time budget,
 * however large the page.
 */
export const PER_MOVE_LIMITS = {
  /** Elements looked at for a message around the board. */
  elements: 2_000,
  /** Controls considered for the win's "Keep going" (links count: a page may have hundreds). */
  controls: 2_000,
  /** Characters of text read under one element. */
  textChars: 5_000,
  /** Wall-clock budget of one such look, in ms. */
  timeMs: 50,
} as const;

/** The text under `node` (as textContent has it), at most `maxChars` characters and a bounded number of nodes. */
export function boundedText(node: Node, maxChars: number = PER_MOVE_LIMITS.textChars): string {
  const doc = node.ownerDocument ?? (node as Document);
  const walker = doc.createTreeWalker(node, 4 /* NodeFilter.SHOW_TEXT */);
  let text = '';
  let nodes = 0;
  for (let n = walker.nextNode(); n && text.length < maxChars && nodes < 4 * PER_MOVE_LIMITS.elements; n = walker.nextNode(), nodes++) text += n.nodeValue ?? '';
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

/** The elements under `scope` in document order, at most `max` of them, until `expired()`. */
export function* elementsUnder(scope: Node, max: number, expired: () => boolean): Generator<Element> {
  const doc = scope.ownerDocument ?? (scope as Document);
  const walker = doc.createTreeWalker(scope, 1 /* NodeFilter.SHOW_ELEMENT */);
  for (let count = 0, n = walker.nextNode(); n && count < max; n = walker.nextNode(), count++) {
    if ((count & 63) === 63 && expired()) return;
    yield n as Element;
  }
}

/** A deadline PER_MOVE_LIMITS.timeMs from now on the page's clock: `expired()` says when it passed. */
export function perMoveBudget(win: Window | null | undefined): () => boolean {
  const now = clockOf(win ?? undefined);
  const deadline = now() + PER_MOVE_LIMITS.timeMs;
  return () => now() > deadline;
}

/** A monotonic clock of the page (performance.now), or Date.now where there is none. */
export function clockOf(win: Window | undefined): () => number {
  const perf = win?.performance;
  if (perf && typeof perf.now === 'function') return () => perf.now();
  return () => Date.now();
}

export function isTileValue(value: number): boolean {
  return Number.isInteger(value) && value >= 2 && value <= MAX_TILE && (value & (value - 1)) === 0;
}

export function checkTile(value: number, row: number, col: number): number {
  if (value === 0 || isTileValue(value)) return value;
  throw new BoardReadError('cellNotTile', row + 1, col + 1);
}

export function isBoardSize(rows: number, cols: number): boolean {
  const fits = (side: number): boolean => Number.isInteger(side) && side >= BOARD_LIMITS.minPlayedSize && side <= BOARD_LIMITS.maxSize;
  return fits(rows) && fits(cols);
}

/** An element's box on screen, or null when it is missing or has no size (hidden). */
export function elementRect(element: Element | null | undefined): BoardRect | null {
  if (!element || typeof element.getBoundingClientRect !== 'function') return null;
  const r = element.getBoundingClientRect();
  if (!(r.width > 0 && r.height > 0)) return null;
  return { left: r.left, top: r.top, width: r.width, height: r.height };
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
  // A key sent now would land in the person's text field: refuse before either world dispatches it.
  const editable = focusedEditable(context.document);
  if (editable) throw new EditableFocusError(editable);
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
  /** With an accepted reading, `drawn`: when CSS animations/transitions under these nodes end (bounded). */
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
async function afterAnimations(elements: readonly Element[], maxMs: number): Promise<void> {
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
  const quiet = new QuietWait(options.window, options.quietMs ?? 80, (options.checkpoints?.length ?? 0) === 0);
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
      // The board is known now; the page's animations end later (the driver thinks meanwhile).
      const animated = options.animationsOf ?? [];
      resolve(result.kind === 'changed' && animated.length > 0 ? { ...result, drawn: afterAnimations(animated, 600) } : result);
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
        quiet.moved();
        finish({ kind: 'changed', reading });
        return;
      }
      // Changed but not as the move would: wait until the page has been quiet (quiet.ts), then take what it shows.
      quiet.changed(reading.grid);
      if (quietTimer !== undefined) clearTimeout(quietTimer);
      quietTimer = setTimeout(() => {
        const latest = changedReading();
        if (!latest) return;
        quiet.taken(latest.grid);
        finish({ kind: 'changed', reading: latest });
      }, quiet.ms);
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
