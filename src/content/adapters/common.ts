/**
 * Pieces every adapter uses: tile-value checks, sending an arrow key (main world first, never while a
 * text field has focus), waiting for the board to settle after a move — event-driven (MutationObserver,
 * bridge pushes), with bounded timers only as upper bounds (no requestAnimationFrame: hidden tabs get
 * none) — and continuing after the win by the page's own "Keep going" on the board's win overlay.
 */
import { isSuccessor, sameGrid } from '../../engine/index';
import type { Direction, Grid } from '../../engine/types';
import { BOARD_LIMITS } from '../../engine/limits';
import { EditableFocusError, dispatchMoveKey, focusedEditable } from '../keys';
import { QuietWait } from './quiet';
import { BoardReadError } from './types';
import type { AdapterContext, BoardReading, BoardRect, ContinueResult, GameStatus, SettleResult } from './types';

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
function* elementsUnder(scope: Node, max: number, expired: () => boolean): Generator<Element> {
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

// ---------------------------------------------------------------- the win

/** A win message: "You win!", "You won", "You reached 2048". */
const WIN_TEXT = /you\s*(win|won)\b|you reached 2048/i;
/** A game-over message. */
export const OVER_TEXT = /game\s*over|no more moves/i;
/** The whole label of a control that keeps playing after the win ("Keep going", "Continue"), nothing more. */
const KEEP_PLAYING_LABEL = /^[\s\W]*(keep\s*(going|playing)|continue(\s*(playing|the\s*game))?)[\s\W]*$/i;
/** Controls that may be the win's "Keep going" (never a submit input: see wouldSubmit). */
const CONTROLS = 'button, [role="button"], a, input[type="button"]';

function parentAcrossShadow(node: Element): Element | null {
  if (node.parentElement) return node.parentElement;
  const parent = node.parentNode;
  return parent && parent.nodeType === 11 && 'host' in parent ? (parent as ShadowRoot).host : null;
}

/**
 * Displayed: neither it nor an ancestor (across shadow roots) is `hidden`, display:none or
 * visibility:hidden. Opacity is not looked at: the classic game fades its message in from 0.
 */
function isDisplayed(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  for (let node: Element | null = element; node; node = parentAcrossShadow(node)) {
    if (node.hasAttribute('hidden')) return false;
    try {
      const style = view?.getComputedStyle(node);
      if (style && (style.display === 'none' || style.visibility === 'hidden')) return false;
    } catch {
      // no computed style here
    }
  }
  return true;
}

function boxOf(element: Element): DOMRect | null {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 ? box : null;
}

/** The element's own text (its text children, not its descendants'), bounded. */
function ownText(element: Element): string {
  let text = '';
  const children = element.childNodes;
  for (let i = 0; i < children.length && i < 200 && text.length < PER_MOVE_LIMITS.textChars; i++) {
    if (children[i].nodeType === 3) text += ` ${children[i].nodeValue ?? ''}`;
  }
  return text;
}

/**
 * 'won' / 'over' when an element under `scope` that is displayed says so in its own text ("You win!",
 * "Game over"), else null. Looks at `maxElements` elements at most.
 */
export function endMessageIn(scope: ParentNode & Node, maxElements = 600): Extract<GameStatus, 'won' | 'over'> | null {
  const expired = perMoveBudget(scope.ownerDocument?.defaultView);
  for (const element of elementsUnder(scope, Math.min(maxElements, PER_MOVE_LIMITS.elements), expired)) {
    const text = ownText(element);
    const won = WIN_TEXT.test(text);
    const over = !won && OVER_TEXT.test(text);
    if ((won || over) && isDisplayed(element)) return won ? 'won' : 'over';
  }
  return null;
}

/**
 * Whether `control` belongs to the board's win overlay: one of its ancestors below the board's own
 * ancestors (the board itself included) holds a win message, and — where the page has a layout — that
 * overlay covers the board and the control sits on the board's box.
 */
function onWinOverlay(control: Element, board: Element): boolean {
  let overlay: Element | null = null;
  let top: Element | null = null;
  for (let node: Element | null = control; node; node = parentAcrossShadow(node)) {
    if (node === board || node.contains(board)) {
      top = node;
      break;
    }
    if (!overlay && WIN_TEXT.test(boundedText(node))) overlay = node;
  }
  // An overlay drawn inside the board element (React, Vue, Svelte clones, web components).
  if (!overlay && top === board && WIN_TEXT.test(boundedText(board))) overlay = board;
  if (!overlay || !top) return false;
  const boardBox = boxOf(board);
  if (!boardBox) {
    // No layout (a document that is not rendered): only an overlay right beside or inside the board.
    return top === board || top === board.parentElement || top === board.parentElement?.parentElement;
  }
  const overlayBox = boxOf(overlay);
  const controlBox = boxOf(control);
  if (!overlayBox || !controlBox) return false;
  const width = Math.min(overlayBox.right, boardBox.right) - Math.max(overlayBox.left, boardBox.left);
  const height = Math.min(overlayBox.bottom, boardBox.bottom) - Math.max(overlayBox.top, boardBox.top);
  const smaller = Math.min(overlayBox.width * overlayBox.height, boardBox.width * boardBox.height);
  if (width <= 0 || height <= 0 || width * height < smaller * 0.5) return false;
  const x = controlBox.left + controlBox.width / 2;
  const y = controlBox.top + controlBox.height / 2;
  return x >= boardBox.left - 4 && x <= boardBox.right + 4 && y >= boardBox.top - 4 && y <= boardBox.bottom + 4;
}

function controlLabel(control: Element): string {
  const value = control.tagName === 'INPUT' ? (control as HTMLInputElement).value : '';
  return (value || boundedText(control, 200) || control.getAttribute('aria-label') || '').trim().slice(0, 60);
}

/** Inside a link (across shadow roots): a click would leave the page. */
function inLink(control: Element): boolean {
  for (let node: Element | null = control; node; node = parentAcrossShadow(node)) {
    if ((node.localName === 'a' || node.localName === 'area') && node.hasAttribute('href')) return true;
  }
  return false;
}

/**
 * A click would submit a form (and so may leave the page): a submit or reset button, an image or submit
 * input, that has a form or stands inside one (across shadow roots). A `<button type="button">` never does.
 */
function wouldSubmit(control: Element): boolean {
  const type = (control.getAttribute('type') ?? '').toLowerCase();
  const submits = control.localName === 'button' ? type !== 'button' : control.localName === 'input' && (type === 'submit' || type === 'image' || type === 'reset');
  if (!submits) return false;
  if ((control as HTMLButtonElement).form) return true;
  for (let node: Element | null = control; node; node = parentAcrossShadow(node)) if (node.localName === 'form') return true;
  return false;
}

/**
 * The page's own "Keep going" of the win overlay over `board`: a displayed, enabled button-like control
 * labelled keep going / keep playing / continue, on the overlay that covers the board (onWinOverlay).
 * Never a link with an href, nor anything inside one (across shadow roots), never a control that would
 * submit a form (either could leave the page), never a control elsewhere in the document. At most
 * PER_MOVE_LIMITS.controls controls are looked at, within its time budget.
 */
export function findWinControl(board: Element): HTMLElement | null {
  const roots = [board.getRootNode() as Document | ShadowRoot, board.shadowRoot].filter(
    (root): root is Document | ShadowRoot => !!root && typeof root.querySelectorAll === 'function',
  );
  const expired = perMoveBudget(board.ownerDocument.defaultView);
  let looked = 0;
  for (const control of roots.flatMap((root) => Array.from(root.querySelectorAll(CONTROLS)))) {
    if (++looked > PER_MOVE_LIMITS.controls || ((looked & 31) === 0 && expired())) return null;
    if (!KEEP_PLAYING_LABEL.test(controlLabel(control))) continue;
    if (inLink(control) || wouldSubmit(control)) continue;
    if ((control as HTMLButtonElement).disabled === true || control.getAttribute('aria-disabled') === 'true') continue;
    if (typeof (control as HTMLElement).click !== 'function' || !isDisplayed(control)) continue;
    if (onWinOverlay(control, board)) return control as HTMLElement;
  }
  return null;
}

function safeTest(predicate: () => boolean): boolean {
  try {
    return predicate();
  } catch {
    return false;
  }
}

/** Resolves true as soon as `predicate` holds (looked at every 20 ms), false after `ms`. */
export function waitUntil(predicate: () => boolean, ms: number): Promise<boolean> {
  if (safeTest(predicate)) return Promise.resolve(true);
  const deadline = Date.now() + ms;
  return new Promise((done) => {
    const tick = (): void => {
      if (safeTest(predicate)) done(true);
      else if (Date.now() >= deadline) done(false);
      else setTimeout(tick, Math.min(20, Math.max(1, deadline - Date.now())));
    };
    setTimeout(tick, Math.min(20, ms));
  });
}

export interface ContinueByClickOptions {
  /** The page shows its win message now. */
  readonly winShown: () => boolean;
  /** The control to press (findWinControl), or null. */
  readonly findControl: () => HTMLElement | null;
  /** How long to wait for a win message the page has not drawn yet (the classic game draws it a frame after saving `won`). */
  readonly appearMs?: number;
  /** How long the message must stay away after the press (a message drawn late comes back within it). */
  readonly settleMs?: number;
}

/**
 * Keep playing as a person would: wait (bounded) until the win message is drawn, press the overlay's own
 * control, and check the message is gone and stays gone for `settleMs`; press once more if the page drew
 * it again (late), else report 'still-shown'.
 */
export async function continueByClicking(options: ContinueByClickOptions): Promise<ContinueResult> {
  const settleMs = options.settleMs ?? 300;
  await waitUntil(options.winShown, options.appearMs ?? 1_000);
  for (let attempt = 0; attempt < 2; attempt++) {
    const control = options.findControl();
    if (!control) return attempt === 0 ? 'no-control' : 'still-shown';
    control.click();
    const gone = await waitUntil(() => !options.winShown(), settleMs);
    if (gone && !(await waitUntil(options.winShown, settleMs))) return 'continued';
  }
  return 'still-shown';
}
