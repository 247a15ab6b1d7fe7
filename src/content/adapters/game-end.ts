/**
 * The end of a game as the page shows it, for the adapters that read the DOM: its win or game-over message
 * near the board, and continuing after the win by the page's own "Keep going" on the board's win overlay, as
 * a person would. Every look is bounded (PER_MOVE_LIMITS of ./common.ts: elements, controls, characters, time).
 */
import { PER_MOVE_LIMITS, boundedText, elementsUnder, perMoveBudget } from './common';
import type { ContinueResult, GameStatus } from './types';

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
