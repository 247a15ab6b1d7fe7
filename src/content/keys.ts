/**
 * Synthetic arrow keys that every kind of 2048 page understands (docs: sites.md, "Synthetic keys"): all of key, code, keyCode
 * and which set in the constructor (values given there reach the page from either world), no modifier,
 * bubbling, dispatched on the focused element (or body) so that body, document and window listeners all
 * see it and handlers reading `event.target.tagName` get an element; keydown followed by keyup.
 *
 * Never while a text field (input, textarea, select, contenteditable) has focus: the key would go to
 * what the person is typing; dispatchMoveKey throws EditableFocusError instead, and the driver pauses.
 *
 * Used by the isolated-world content script and by the main-world script (src/page/main-world.ts).
 */
import type { Direction } from '../engine/types';

interface MoveKey {
  readonly key: string;
  readonly code: string;
  readonly keyCode: number;
}

const MOVE_KEYS: Readonly<Record<Direction, MoveKey>> = {
  left: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  up: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  right: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  down: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
};

/** The constructor dictionary of a synthetic arrow key event. */
export function moveKeyInit(direction: Direction): KeyboardEventInit {
  const { key, code, keyCode } = MOVE_KEYS[direction];
  return { key, code, keyCode, which: keyCode, bubbles: true, cancelable: true, composed: true };
}

/** Where a key event goes: the focused element when there is one, else the body (never document/window). */
function keyTarget(doc: Document): Element {
  const active = doc.activeElement;
  if (active && active !== doc.documentElement) return active;
  return doc.body ?? doc.documentElement;
}

/** Input types that are buttons: a key sent while one has focus types nothing. */
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image']);

/** Whether an element takes typed text: input (other than buttons), textarea, select, contenteditable. */
function isEditable(element: Element): boolean {
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !BUTTON_INPUTS.has(((element as HTMLInputElement).type || 'text').toLowerCase());
  if ((element as HTMLElement).isContentEditable === true) return true;
  const editableHost = element.closest('[contenteditable]');
  return !!editableHost && editableHost.getAttribute('contenteditable')?.toLowerCase() !== 'false';
}

/** The focused element that takes typed text (looking into open shadow roots and same-origin frames), or null. */
export function focusedEditable(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  for (let depth = 0; active && depth < 16; depth++) {
    const inner: Element | null | undefined = active.shadowRoot?.activeElement;
    if (inner) {
      active = inner;
      continue;
    }
    if (active.tagName.toUpperCase() === 'IFRAME') {
      let frameDoc: Document | null = null;
      try {
        frameDoc = (active as HTMLIFrameElement).contentDocument;
      } catch {
        frameDoc = null; // another origin: its keys are not ours to send
      }
      if (frameDoc?.activeElement && frameDoc.activeElement !== frameDoc.body) {
        active = frameDoc.activeElement;
        continue;
      }
    }
    break;
  }
  return active && isEditable(active) ? active : null;
}

/** A move key was not sent because a text field has focus. */
export class EditableFocusError extends Error {
  override name = 'EditableFocusError';
  /** The focused element's tag (input, textarea, select, or the contenteditable's). */
  readonly tag: string;
  constructor(element: Element) {
    const tag = element.tagName.toLowerCase();
    super(`a text field has focus (${tag})`);
    this.tag = tag;
  }
}

/**
 * Dispatch keydown then keyup for `direction` in `doc`; returns the keydown's target. Throws
 * EditableFocusError, sending nothing, while a text field has focus.
 */
export function dispatchMoveKey(doc: Document, direction: Direction): Element {
  const editable = focusedEditable(doc);
  if (editable) throw new EditableFocusError(editable);
  const view = doc.defaultView;
  const Keyboard = view?.KeyboardEvent ?? KeyboardEvent;
  const target = keyTarget(doc);
  target.dispatchEvent(new Keyboard('keydown', moveKeyInit(direction)));
  target.dispatchEvent(new Keyboard('keyup', moveKeyInit(direction)));
  return target;
}
