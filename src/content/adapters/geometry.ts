/**
 * geometry — any DOM board, found by its shape rather than by names (SITES.md §3): the largest
 * grid-aligned set of elements showing powers of two (as text, or as a value class such as `tile-64`,
 * `field-64`), with empty cells (`.empty`, `field-empty`, blank cells) completing the lattice. Three
 * layouts, open shadow roots included:
 *
 * - rows:       a container of 3–8 row elements, each with the same number (3–8) of cells (web components);
 * - cells:      a container whose children are all cells in DOM order, columns from its CSS grid (Vue clones);
 * - positioned: absolutely placed elements (inline left/top, or their boxes in a live page) on a lattice
 *               (React and Svelte clones, 3x3 pages); an element off the lattice is in flight, and the
 *               board is read again once the layout has settled.
 *
 * Checked on: tests/fixtures/pages/{react-like,vue-like,svelte-like,web-component,size3,no-game}.
 */
import type { Direction, Grid } from '../../engine/types';
import { DETECTION_LIMITS, OVER_TEXT, checkTile, cellName, clockOf, continueByClicking, elementRect, findWinControl, isBoardSize, isTileValue, numberFromText, sendKeyMove, waitForBoard } from './common';
import { BoardReadError } from './types';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading, BoardRect, ContinueResult, GameStatus, SettleResult } from './types';

type Container = Element | ShadowRoot;

// Node-type checks rather than instanceof: nodes may come from another realm (a frame, a test's window).
function isElement(node: Node | null | undefined): node is Element {
  return !!node && node.nodeType === 1;
}
function isShadowRoot(node: Node | null | undefined): node is ShadowRoot {
  return !!node && node.nodeType === 11 && 'host' in node;
}
function isDocument(node: Node | null | undefined): node is Document {
  return !!node && node.nodeType === 9;
}

const VALUE_CLASS = /^(?:tile|field|cell|value|num|number|block|square)[-_](\d{1,6})$/i;
const EMPTY_CLASS = /^(?:empty|blank|(?:tile|field|cell|block|square)[-_](?:empty|blank|0))$/i;

/** A cell's value: a number for a tile or an empty cell, null when the element is not a cell at all. */
function cellValue(element: Element): number | null {
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

function isTileOrEmpty(value: number | null): value is number {
  return value !== null && (value === 0 || isTileValue(value));
}

/** Key of an element's kind within its parent: its first class, else its tag. */
function kindKey(element: Element): string {
  const first = element.classList.item(0);
  return first ? `.${first}` : element.tagName;
}

function mostCommonKey(elements: readonly Element[]): { key: string; members: Element[] } {
  const groups = new Map<string, Element[]>();
  for (const e of elements) {
    const k = kindKey(e);
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  let best: { key: string; members: Element[] } = { key: '', members: [] };
  for (const [key, members] of groups) if (members.length > best.members.length) best = { key, members };
  return best;
}

function childElements(container: Container): Element[] {
  return Array.from(container.children);
}

const TABLE_TAGS = new Set(['TABLE', 'TBODY', 'THEAD', 'TR', 'TD', 'TH']);

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
      const text = (cell.textContent ?? '').trim().slice(0, 20);
      throw new BoardReadError(`${cellName(row, col)} shows "${text}": not a tile the autopilot knows`);
    }
    if (row >= rows) throw new BoardReadError('More cells than the board holds');
    return checkTile(value, row, col);
  });
}

function readRows(layout: RowsLayout): Grid {
  const rowEls = childElements(layout.container).filter((e) => kindKey(e) === layout.rowKey);
  const rows = rowEls.length;
  const perRow = rowEls.map((r) => childElements(r).filter((e) => kindKey(e) === layout.cellKey || cellValue(e) !== null));
  const cols = perRow[0]?.length ?? 0;
  if (!isBoardSize(rows, cols) || perRow.some((r) => r.length !== cols)) throw new BoardReadError('The board rows changed shape');
  return { rows, cols, cells: readValues(perRow.flat(), rows, cols) };
}

function cellsOf(container: Container, cellKey: string): Element[] {
  return childElements(container).filter((e) => kindKey(e) === cellKey);
}

function readCells(layout: CellsLayout): Grid {
  const cells = cellsOf(layout.container, layout.cellKey);
  const cols = layout.cols;
  const rows = cells.length / cols;
  if (!isBoardSize(rows, cols)) throw new BoardReadError('The board cells changed in number');
  return { rows, cols, cells: readValues(cells, rows, cols) };
}

/** Columns of a CSS grid container (inline or computed `grid-template-columns`), or null. */
function gridColumns(container: Container, count: number): number | null {
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
function columnsFromBoxes(cells: readonly Element[]): number | null {
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

function placedMembers(container: Element): { members: Placed[]; inline: boolean } {
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
  if (members.length < 2) throw new BoardReadError('Too few tiles on the board');
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
  if (pitchX === null || pitchY === null) throw new BoardReadError('The tiles do not form a grid');
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
  if (!isBoardSize(rows, cols)) throw new BoardReadError(`A board of ${rows}x${cols} is not playable (3x3 to 8x8)`);
  const cells = new Array<number>(rows * cols).fill(0);
  for (const m of members) {
    const fx = (m.x - ax.origin) / ax.pitch;
    const fy = (m.y - ay.origin) / ay.pitch;
    const col = Math.round(fx);
    const row = Math.round(fy);
    if (Math.abs(fx - col) > 0.15 || Math.abs(fy - row) > 0.15) throw new BoardReadError('A tile is in flight');
    if (row < 0 || col < 0 || row >= rows || col >= cols) throw new BoardReadError('A tile lies outside the board');
    const value = cellValue(m.element);
    if (value === null) continue;
    const index = row * cols + col;
    cells[index] = Math.max(cells[index], checkTile(value, row, col));
  }
  return { rows, cols, cells };
}

// ------------------------------------------------------------- detection

function readLayout(layout: Layout): Grid {
  switch (layout.kind) {
    case 'rows':
      return readRows(layout);
    case 'cells':
      return readCells(layout);
    case 'positioned':
      return readPositioned(layout);
  }
}

interface SearchLimits {
  /** A container with more children than this is not examined as a board (its children still are). */
  readonly childrenPerContainer: number;
  readonly elements: number;
  readonly timeMs: number;
}

/**
 * Every element and open shadow root under `root`, depth first, within the limits: `elements` in all
 * (the stack never holds more), and until `expired()` says stop.
 */
function* containers(root: Document | ShadowRoot, limits: SearchLimits, expired: () => boolean): Generator<Container> {
  const stack: Container[] = [isDocument(root) ? root.documentElement : root];
  const seen = new Set<Container>();
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > limits.elements || expired()) return;
    const node = stack.pop() as Container;
    if (seen.has(node)) continue;
    seen.add(node);
    yield node;
    if (isElement(node) && node.shadowRoot) stack.push(node.shadowRoot);
    const children = node.children;
    const count = children.length;
    for (let i = 0; i < count && stack.length < limits.elements; i++) {
      if ((i & 63) === 63 && expired()) return;
      stack.push(children[i]);
    }
  }
}

function layoutsAt(container: Container, limits: SearchLimits): Layout[] {
  const found: Layout[] = [];
  if (isElement(container) && TABLE_TAGS.has(container.tagName)) return found;
  // A container with far more children than a board has cells is no board (and not worth a look).
  if (container.children.length < 2 || container.children.length > limits.childrenPerContainer) return found;
  const children = childElements(container);

  // rows: 3..8 rows of the same kind, each with the same number of cells
  const rows = mostCommonKey(children);
  if (rows.members.length >= 3 && rows.members.length <= 8) {
    const perRow = rows.members.map((r) => mostCommonKey(childElements(r)));
    const cellKey = perRow[0].key;
    const cols = perRow[0].members.length;
    if (cols >= 3 && cols <= 8 && perRow.every((p) => p.key === cellKey && p.members.length === cols)) {
      const values = perRow.flatMap((p) => p.members.map(cellValue));
      if (values.every(isTileOrEmpty)) found.push({ kind: 'rows', container, rowKey: rows.key, cellKey });
    }
  }

  // cells: one element per cell in DOM order
  const cells = mostCommonKey(children);
  const n = cells.members.length;
  if (n >= 9 && n <= 64 && cells.members.every((c) => isTileOrEmpty(cellValue(c)))) {
    const cols = gridColumns(container, n) ?? columnsFromBoxes(cells.members) ?? (Number.isInteger(Math.sqrt(n)) ? Math.sqrt(n) : null);
    if (cols !== null && isBoardSize(n / cols, cols)) found.push({ kind: 'cells', container, cellKey: cells.key, cols });
  }

  // positioned
  if (isElement(container)) {
    const { members } = placedMembers(container);
    if (members.length >= 2) found.push({ kind: 'positioned', container });
  }
  return found;
}

interface Candidate {
  readonly layout: Layout;
  readonly grid: Grid;
  readonly tiles: number;
}

export interface FindBoardOptions {
  readonly limits?: Partial<SearchLimits>;
  /** The clock the time budget is measured on (default: the page's performance.now). */
  readonly now?: () => number;
}

/**
 * The best board-shaped layout on the page, or null. A detection needs ≥ 2 tiles and ≥ 1 empty cell.
 * The search is bounded (DETECTION_LIMITS): a page of 30 000 tiles gets null, not a frozen tab.
 */
export function findBoard(doc: Document, options: FindBoardOptions = {}): Candidate | null {
  const limits: SearchLimits = { ...DETECTION_LIMITS, ...options.limits };
  const now = options.now ?? clockOf(doc.defaultView ?? undefined);
  const deadline = now() + limits.timeMs;
  const expired = (): boolean => now() > deadline;
  let best: Candidate | null = null;
  for (const container of containers(doc, limits, expired)) {
    for (const layout of layoutsAt(container, limits)) {
      let grid: Grid;
      try {
        grid = readLayout(layout);
      } catch {
        continue;
      }
      const tiles = grid.cells.filter((v) => v > 0).length;
      if (tiles < 2 || tiles === grid.cells.length) continue;
      const better = !best || grid.cells.length > best.grid.cells.length || (grid.cells.length === best.grid.cells.length && tiles > best.tiles);
      if (better) best = { layout, grid, tiles };
    }
  }
  return best;
}

// --------------------------------------------------------------- adapter

function rootNodeOf(layout: Layout): Document | ShadowRoot {
  const root = layout.container.getRootNode();
  return isShadowRoot(root) || isDocument(root) ? root : (layout.container.ownerDocument as Document);
}

/** Whether an element is shown: no `hidden` ancestor, not display:none / visibility:hidden / opacity 0. */
function isShown(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  let node: Element | null = element;
  while (node) {
    if (node.hasAttribute('hidden')) return false;
    try {
      const style = view?.getComputedStyle(node);
      if (style && (style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0')) return false;
    } catch {
      // no computed style here
    }
    const parent: Node | null = node.parentNode;
    node = isElement(parent) ? parent : isShadowRoot(parent) ? parent.host : null;
  }
  return true;
}

const WON_TEXT = /you\s*(win|won)|you reached 2048/i;

/** 'won' / 'over' from a message shown over or beside the board ("You win!", "Game over"), else 'playing'. */
function statusAround(layout: Layout): GameStatus {
  const root = isElement(layout.container) ? layout.container.parentElement ?? layout.container : layout.container;
  const text = (root.textContent ?? '').slice(0, 5_000);
  if (!OVER_TEXT.test(text) && !WON_TEXT.test(text)) return 'playing';
  // Only a message that is shown counts (pages keep a hidden one ready).
  for (const element of Array.from(root.querySelectorAll('*'))) {
    const own = Array.from(element.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent ?? '')
      .join(' ');
    const over = OVER_TEXT.test(own);
    const won = WON_TEXT.test(own);
    if ((over || won) && isShown(element)) return over ? 'over' : 'won';
  }
  return 'playing';
}

function scoreNear(layout: Layout): number | null {
  const roots: (Document | ShadowRoot)[] = [rootNodeOf(layout)];
  const doc = layout.container.ownerDocument as Document;
  if (!roots.includes(doc)) roots.push(doc);
  for (const root of roots) {
    for (const element of Array.from(root.querySelectorAll('[class*="score" i], [id*="score" i]'))) {
      if (/best|high/i.test(`${element.className} ${element.id}`)) continue;
      const value = numberFromText(element.textContent);
      if (value !== null) return value;
    }
  }
  return null;
}

export class GeometryAdapter implements Adapter {
  readonly name = 'geometry';
  private layout: Layout | null = null;
  /** Set once the page ignored a move: it drops input while animating (e.g. Svelte clones). */
  private waitForAnimations = false;

  constructor(private readonly context: AdapterContext) {}

  async detect(): Promise<number> {
    const found = findBoard(this.context.document);
    this.layout = found?.layout ?? null;
    if (!found) return 0;
    return found.layout.kind === 'positioned' ? 0.6 : 0.65;
  }

  private currentLayout(): Layout {
    if (this.layout && this.layout.container.isConnected) return this.layout;
    const found = findBoard(this.context.document);
    if (!found) throw new BoardReadError('The board is gone from the page');
    this.layout = found.layout;
    return found.layout;
  }

  readBoard(): BoardReading {
    const layout = this.currentLayout();
    const grid = readLayout(layout);
    return { grid, score: scoreNear(layout), status: statusAround(layout) };
  }

  sendMove(direction: Direction): Promise<void> {
    return sendKeyMove(this.context, direction);
  }

  async settled(previous: Grid, timeoutMs: number, expected?: Direction): Promise<SettleResult> {
    const layout = this.currentLayout();
    const observed = layout.container;
    const animated = isElement(layout.container) ? [layout.container] : Array.from(layout.container.children);
    const result = await waitForBoard({
      window: this.context.window,
      observe: [observed],
      read: () => this.readBoard(),
      previous,
      expected,
      timeoutMs,
      // Boxes move without DOM mutations while a CSS transition runs: look again a few times.
      checkpoints: layout.kind === 'positioned' ? [60, 150, 300, 500] : [],
      // Most pages take the next key while tiles still slide; one that dropped a move gets its
      // animations waited out from then on.
      animationsOf: this.waitForAnimations ? animated : undefined,
    });
    if (result.kind === 'ignored') this.waitForAnimations = true;
    return result;
  }

  /** Only the "Keep going" of the win overlay over the board (findWinControl); never a link, never elsewhere. */
  boardRect(): BoardRect | null {
    let layout: Layout;
    try {
      layout = this.currentLayout();
    } catch {
      return null;
    }
    const container = layout.container;
    return elementRect(isElement(container) ? container : container.host);
  }

  continueAfterWin(): Promise<ContinueResult> {
    const boardElement = (): Element | null => {
      const container = this.layout?.container;
      if (!container) return null;
      return isElement(container) ? container : isShadowRoot(container) ? container.host : null;
    };
    return continueByClicking({
      winShown: () => {
        try {
          return this.readBoard().status === 'won';
        } catch {
          return false;
        }
      },
      findControl: () => {
        const board = boardElement();
        return board ? findWinControl(board) : null;
      },
    });
  }
}

export const geometryAdapter: AdapterFactory = {
  name: 'geometry',
  rank: 2,
  create: (context) => new GeometryAdapter(context),
};
