/**
 * Synthetic arrow keys that every kind of 2048 page understands (docs: sites.md, "Synthetic keys"): all of key, code, keyCode
 * and which set in the constructor (values given there reach the page from either world), no modifier,
 * bubbling, dispatched on the focused element (or body) so that body, document and window listeners all
 * see it and handlers reading `event.target.tagName` get an element; keydown followed by keyup.
 *
 * Never while a text field (input, textarea, select, contenteditable) has focus: the key would go to
 * what the person is typing; dispatchMoveKey throws EditableFocusError instead, and the driver pauses.
 * A document in design mode is all text field. Focus inside a closed shadow root counts as typing when
 * the browser does not let the content script look in (Chrome's `chrome.dom.openOrClosedShadowRoot`,
 * Firefox's `openOrClosedShadowRoot` do), since what has focus there cannot be told.
 *
 * Used by the isolated-world content script and by the main-world script (src/page/main-world.ts).
 */
import type { Direction } from '../engine/types';
import type { TypingField } from '../shared/status-message';

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

/**
 * The shadow root of a host, closed ones too where the browser lets a content script see them; undefined
 * when the host has a closed one that cannot be seen.
 */
function shadowRootOf(host: Element): ShadowRoot | null | undefined {
  if (host.shadowRoot) return host.shadowRoot;
  const dom = (globalThis as unknown as { chrome?: { dom?: { openOrClosedShadowRoot?: (element: Element) => ShadowRoot | null } } }).chrome?.dom;
  try {
    if (typeof dom?.openOrClosedShadowRoot === 'function') return dom.openOrClosedShadowRoot(host);
    const firefox = (host as Element & { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot;
    if (firefox !== undefined) return firefox;
  } catch {
    return undefined;
  }
  // No way to look: a custom element that holds the focus without taking it itself hides its own.
  return host.localName.includes('-') && (host as HTMLElement).tabIndex < 0 ? undefined : null;
}

/** What takes typed text and has focus: the element, or the kind of field when there is no element to name. */
type Typing = Element | 'document' | 'shadow';

/**
 * The focused element that takes typed text (looking into shadow roots and same-origin frames), 'document'
 * for a document in design mode, 'shadow' for focus in a closed shadow root nobody can look into; or null.
 */
export function focusedEditable(doc: Document): Typing | null {
  if (doc.designMode === 'on') return 'document';
  let active: Element | null = doc.activeElement;
  for (let depth = 0; active && depth < 16; depth++) {
    const root = shadowRootOf(active);
    if (root === undefined) return 'shadow';
    const inner: Element | null | undefined = root?.activeElement;
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
      if (frameDoc?.designMode === 'on') return 'document';
      if (frameDoc?.activeElement && frameDoc.activeElement !== frameDoc.body) {
        active = frameDoc.activeElement;
        continue;
      }
    }
    break;
  }
  return active && isEditable(active) ? active : null;
}

/** The kind of a field that takes typed text, in the extension's words (never the page's tag name). */
function fieldKind(typing: Typing): TypingField {
  if (typing === 'document' || typing === 'shadow') return typing;
  const tag = typing.tagName.toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' ? tag : 'editable';
}

/** A move key was not sent because a text field has focus. */
export class EditableFocusError extends Error {
  override name = 'EditableFocusError';
  /** What has focus: input, textarea, select, editable (contenteditable), document (design mode), shadow. */
  readonly tag: TypingField;
  constructor(typing: Typing) {
    const tag = fieldKind(typing);
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
