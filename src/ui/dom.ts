/**
 * The DOM helpers of the extension's pages (popup, side panel, welcome pages): find an element by id, and draw
 * lists and boards so that a page redrawing a few times a second touches only what changed.
 */
import type { RunStatus } from '../shared/messages';
import { tileClass } from './status-view';
import { t } from './i18n';

/** The element with id `id` (a page without it is a bug: this throws). */
export function byId<T extends HTMLElement>(id: string, root: Document = document): T {
  const element = root.getElementById(id);
  if (!element) throw new Error(`page: #${id} missing`);
  return element as T;
}

/**
 * Keep `parent`'s children at `count` elements made by `create`, reusing those already there: a page left
 * open redraws a few times a second, and touching only what changed keeps style, layout and paint small.
 */
export function keepChildren<T extends Element>(parent: Element, count: number, create: () => T): T[] {
  while (parent.children.length > count) parent.lastElementChild?.remove();
  while (parent.children.length < count) parent.append(create());
  return Array.from(parent.children) as T[];
}

/** Set a node's text only when it differs (an equal write still invalidates layout). */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Set an attribute only when it differs. */
export function setAttr(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** A `<dl>` of label/value pairs. */
export function renderPairs(list: HTMLElement, cells: readonly { label: string; value: string }[]): void {
  const items = keepChildren(list, cells.length, () => {
    const item = document.createElement('div');
    item.append(document.createElement('dt'), document.createElement('dd'));
    return item;
  });
  cells.forEach((cell, i) => {
    const [dt, dd] = items[i].children;
    setText(dt, cell.label);
    setText(dd, cell.value);
  });
}

/** Draw a board as tiles into `element` (a CSS grid of --n columns). */
export function renderBoardInto(element: HTMLElement, board: RunStatus['board'] | undefined): void {
  const rows = board?.rows ?? 4;
  const cols = board?.cols ?? 4;
  if (element.style.getPropertyValue('--n') !== String(cols)) element.style.setProperty('--n', String(cols));
  if (element.classList.contains('dense') !== cols > 5) element.classList.toggle('dense', cols > 5);
  const cells = board?.cells ?? new Array<number>(rows * cols).fill(0);
  const tiles = keepChildren(element, cells.length, () => document.createElement('div'));
  cells.forEach((value, i) => {
    const className = `tile ${tileClass(value)}`;
    if (tiles[i].className !== className) tiles[i].className = className;
    setText(tiles[i], value > 0 ? String(value) : '');
  });
  const filled = cells.filter((v) => v > 0);
  setAttr(element, 'aria-label', t('boardLabel', filled.length, Math.max(0, ...cells)));
}
