/**
 * The geometry adapter's three board layouts (./geometry.ts finds them; this file reads them):
 *
 * - rows:       a container of 3–8 row elements, each with the same number (3–8) of cells (web components);
 * - cells:      a container whose children are all cells in DOM order, columns from its CSS grid (Vue clones);
 * - positioned: absolutely placed elements (inline left/top, or their boxes in a live page) on a lattice
 *               (React and Svelte clones, 3x3 pages); an element off the lattice is in flight, and the
 *               board is read again once the layout has settled.
 *
 * A cell shows a power of two as text or as a value class (`tile-64`, `field-64`); empty cells (`.empty`,
 * `field-empty`, blank cells) complete the lattice.
 */
import type { Grid } from '../../engine/types';
import { checkTile, isBoardSize, isTileValue } from './common';
import { BoardReadError } from './types';

export type Container = Element | ShadowRoot;

// Node-type checks rather than instanceof: nodes may come from another realm (a frame, a test's window).
export function isElement(node: Node | null | undefined): node is Element {
  return !!node && node.nodeType === 1;
}
export function isShadowRoot(node: Node | null | undefined): node is ShadowRoot {
  return !!node && node.nodeType === 11 && 'host' in node;
}
export function isDocument(node: Node | null | undefined): node is Document {
  return !!node && node.nodeType === 9;
}

const VALUE_CLASS = /^(?:tile|field|cell|value|num|number|block|square)[-_](\d{1,6})$/i;
const EMPTY_CLASS = /^(?:empty|blank|(?:tile|field|cell|block|square)[-_](?:empty|blank|0))$/i;

/** A cell's value: a number for a tile or an empty cell, null when the element is not a cell at all. */
export function cellValue(element: Element): number | null {
  let classValue: number | null = null;
  let empty = false;
  for (const cls of Array.from(element.classList)) {
    const m = VALUE_CLASS.exec(cls);
    if (m) classValue = Number(m[1]);
    else if (EMPTY_CLASS.test(cls)) empty = true;
  }
  if (classValue !== null) return classValue;
  const text = (element.textContent ?? '').trim();
  if (text === '') return empty || element.children.length === 0 ? 0 : null;
  if (/^\d{1,7}$/.test(text)) return Number(text);
  return null;
}

export function isTileOrEmpty(value: number | null): value is number {
  return value !== null && (value === 0 || isTileValue(value));
}

/** Key of an element's kind within its parent: its first class, else its tag. */
function kindKey(element: Element): string {
  const first = element.classList.item(0);
  return first ? `.${first}` : element.tagName;
}

export function mostCommonKey(elements: readonly Element[]): { key: string; members: Element[] } {
  const groups = new Map<string, Element[]>();
  for (const e of elements) {
    const k = kindKey(e);
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  let best: { key: string; members: Element[] } = { key: '', members: [] };
  for (const [key, members] of groups) if (members.length > best.members.length) best = { key, members };
  return best;
}

export function childElements(container: Container): Element[] {
  return Array.from(container.children);
}

export const TABLE_TAGS = new Set(['TABLE', 'TBODY', 'THEAD', 'TR', 'TD', 'TH']);

// ---------------------------------------------------------------- layouts

interface RowsLayout {
  readonly kind: 'rows';
  readonly container: Container;
  readonly rowKey: string;
  readonly cellKey: string;
}
interface CellsLayout {
  readonly kind: 'cells';
  readonly container: Container;
  readonly cellKey: string;
  readonly cols: number;
}
interface PositionedLayout {
  readonly kind: 'positioned';
  readonly container: Element;
}
export type Layout = RowsLayout | CellsLayout | PositionedLayout;

function readValues(cells: readonly Element[], rows: number, cols: number): number[] {
  return cells.map((cell, i) => {
    const row = Math.floor(i / cols);
    const col = i % cols;
    const value = cellValue(cell);
    if (value === null) {
      // Which cell, never what it says: the page's text stays out of the popup.
      throw new BoardReadError('cellNotTile', row + 1, col + 1);
    }
    if (row >= rows) throw new BoardReadError('boardChanged');
    return checkTile(value, row, col);
  });
}

function readRows(layout: RowsLayout): Grid {
  const rowEls = childElements(layout.container).filter((e) => kindKey(e) === layout.rowKey);
  const rows = rowEls.length;
  const perRow = rowEls.map((r) => childElements(r).filter((e) => kindKey(e) === layout.cellKey || cellValue(e) !== null));
  const cols = perRow[0]?.length ?? 0;
  if (!isBoardSize(rows, cols) || perRow.some((r) => r.length !== cols)) throw new BoardReadError('boardChanged');
  return { rows, cols, cells: readValues(perRow.flat(), rows, cols) };
}

function cellsOf(container: Container, cellKey: string): Element[] {
  return childElements(container).filter((e) => kindKey(e) === cellKey);
}

function readCells(layout: CellsLayout): Grid {
  const cells = cellsOf(layout.container, layout.cellKey);
  const cols = layout.cols;
  const rows = cells.length / cols;
  if (!isBoardSize(rows, cols)) throw new BoardReadError('boardChanged');
  return { rows, cols, cells: readValues(cells, rows, cols) };
}

/** Columns of a CSS grid container (inline or computed `grid-template-columns`), or null. */
export function gridColumns(container: Container, count: number): number | null {
  if (!isElement(container)) return null;
  const view = container.ownerDocument.defaultView;
  const templates: string[] = [];
  const inline = (container as HTMLElement).style?.gridTemplateColumns;
  if (inline) templates.push(inline);
  try {
    const computed = view?.getComputedStyle(container).gridTemplateColumns;
    if (computed) templates.push(computed);
  } catch {
    // no computed style here
  }
  for (const template of templates) {
    const repeat = /repeat\(\s*(\d+)\s*,/.exec(template);
    if (repeat) return Number(repeat[1]);
    const tokens = template.trim().split(/\s+/).filter((t) => t !== 'none');
    if (tokens.length >= 3 && tokens.length <= 8 && count % tokens.length === 0) return tokens.length;
  }
  return null;
}

/** Columns from the cells' boxes in a live page (count of distinct tops), or null. */
export function columnsFromBoxes(cells: readonly Element[]): number | null {
  const tops = cells.map((c) => c.getBoundingClientRect());
  if (tops.every((r) => r.width === 0 && r.height === 0)) return null;
  const firstTop = tops[0].top;
  const cols = tops.filter((r) => Math.abs(r.top - firstTop) < 2).length;
  return cols >= 3 && cols <= 8 && cells.length % cols === 0 ? cols : null;
}

// -------------------------------------------------------- positioned layout

interface Placed {
  readonly element: Element;
  readonly x: number;
  readonly y: number;
}

function px(value: string | undefined): number | null {
  if (!value) return null;
  const m = /^(-?\d+(?:\.\d+)?)px$/.exec(value.trim());
  return m ? Number(m[1]) : null;
}

/** Where an element sits: its inline left/top (final positions, not animated), else its box centre. */
function placeOf(element: Element, origin: DOMRect | null): { x: number; y: number; inline: boolean } | null {
  const style = (element as HTMLElement).style;
  const left = px(style?.left);
  const top = px(style?.top);
  if (left !== null && top !== null) return { x: left, y: top, inline: true };
  if (!origin) return null;
  const r = element.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return null;
  return { x: r.left + r.width / 2 - origin.left, y: r.top + r.height / 2 - origin.top, inline: false };
}

interface Axis {
  readonly origin: number;
  readonly pitch: number;
  readonly count: number;
}

function distinct(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of sorted) if (out.length === 0 || v - out[out.length - 1] > 1) out.push(v);
  return out;
}

function pitchOf(values: readonly number[]): number | null {
  const d = distinct(values);
  let pitch = Infinity;
  for (let i = 1; i < d.length; i++) pitch = Math.min(pitch, d[i] - d[i - 1]);
  return Number.isFinite(pitch) && pitch >= 4 ? pitch : null;
}

function axisOf(values: readonly number[], pitch: number, extent: number | null): Axis {
  const min = Math.min(...values);
  const origin = ((min % pitch) + pitch) % pitch;
  let maxIndex = 0;
  for (const v of values) maxIndex = Math.max(maxIndex, Math.round((v - origin) / pitch));
  const fromExtent = extent && extent > 0 ? Math.round(extent / pitch) : 0;
  return { origin, pitch, count: Math.max(maxIndex + 1, fromExtent) };
}

function extentOf(element: Element, axis: 'width' | 'height'): number | null {
  const inline = px((element as HTMLElement).style?.[axis]);
  if (inline !== null) return inline;
  const r = element.getBoundingClientRect();
  return r[axis] > 0 ? r[axis] : null;
}

export function placedMembers(container: Element): { members: Placed[]; inline: boolean } {
  const origin = container.getBoundingClientRect();
  const live = origin.width > 0 && origin.height > 0 ? origin : null;
  const members: Placed[] = [];
  let inlineCount = 0;
  for (const element of childElements(container)) {
    const place = placeOf(element, live);
    if (!place) continue;
    if (cellValue(element) === null) continue; // overlays, buttons: not cells
    if (place.inline) inlineCount++;
    members.push({ element, x: place.x, y: place.y });
  }
  return { members, inline: inlineCount === members.length };
}

function readPositioned(layout: PositionedLayout): Grid {
  const { members } = placedMembers(layout.container);
  if (members.length < 2) throw new BoardReadError('tooFewTiles');
  const xs = members.map((m) => m.x);
  const ys = members.map((m) => m.y);
  let pitchX = pitchOf(xs);
  let pitchY = pitchOf(ys);
  // Tiles two or more cells apart: the smaller pitch of the other axis, or the tiles' own size, tells the cell.
  if (pitchX !== null && pitchY !== null) {
    const small = Math.min(pitchX, pitchY);
    const ratio = Math.max(pitchX, pitchY) / small;
    if (Math.abs(ratio - Math.round(ratio)) < 0.08) pitchX = pitchY = small;
  }
  pitchX ??= pitchY;
  pitchY ??= pitchX;
  if (pitchX === null || pitchY === null) throw new BoardReadError('notAGrid');
  const size = extentOf(members[0].element, 'width');
  if (size !== null && size > 4) {
    const cellsPerPitch = Math.round(pitchX / (size * 1.12));
    if (cellsPerPitch >= 2) {
      pitchX /= cellsPerPitch;
      pitchY /= cellsPerPitch;
    }
  }
  const ax = axisOf(xs, pitchX, extentOf(layout.container, 'width'));
  const ay = axisOf(ys, pitchY, extentOf(layout.container, 'height'));
  let rows = ay.count;
  let cols = ax.count;
  if (!extentOf(layout.container, 'width') && !extentOf(layout.container, 'height')) rows = cols = Math.max(rows, cols);
  if (!isBoardSize(rows, cols)) throw new BoardReadError('boardSize', rows, cols);
  const cells = new Array<number>(rows * cols).fill(0);
  for (const m of members) {
    const fx = (m.x - ax.origin) / ax.pitch;
    const fy = (m.y - ay.origin) / ay.pitch;
    const col = Math.round(fx);
    const row = Math.round(fy);
    if (Math.abs(fx - col) > 0.15 || Math.abs(fy - row) > 0.15) throw new BoardReadError('tilesMoving');
    if (row < 0 || col < 0 || row >= rows || col >= cols) throw new BoardReadError('tileOutside');
    const value = cellValue(m.element);
    if (value === null) continue;
    const index = row * cols + col;
    cells[index] = Math.max(cells[index], checkTile(value, row, col));
  }
  return { rows, cols, cells };
}

// ------------------------------------------------------------- detection

export function readLayout(layout: Layout): Grid {
  switch (layout.kind) {
    case 'rows':
      return readRows(layout);
    case 'cells':
      return readCells(layout);
    case 'positioned':
      return readPositioned(layout);
  }
}
