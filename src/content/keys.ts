/**
 * Synthetic arrow keys that every kind of 2048 page understands (SITES.md §4): all of key, code, keyCode
 * and which set in the constructor (values given there reach the page from either world), no modifier,
 * bubbling, dispatched on the focused element (or body) so that body, document and window listeners all
 * see it and handlers reading `event.target.tagName` get an element; keydown followed by keyup.
 *
 * Used by the isolated-world content script and by the main-world script (src/page/main-world.ts).
 */
import type { Direction } from '../engine/types';

export interface MoveKey {
  readonly key: string;
  readonly code: string;
  readonly keyCode: number;
}

export const MOVE_KEYS: Readonly<Record<Direction, MoveKey>> = {
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
export function keyTarget(doc: Document): Element {
  const active = doc.activeElement;
  if (active && active !== doc.documentElement) return active;
  return doc.body ?? doc.documentElement;
}

/** Dispatch keydown then keyup for `direction` in `doc`; returns the keydown's target. */
export function dispatchMoveKey(doc: Document, direction: Direction): Element {
  const view = doc.defaultView;
  const Keyboard = view?.KeyboardEvent ?? KeyboardEvent;
  const target = keyTarget(doc);
  target.dispatchEvent(new Keyboard('keydown', moveKeyInit(direction)));
  target.dispatchEvent(new Keyboard('keyup', moveKeyInit(direction)));
  return target;
}
