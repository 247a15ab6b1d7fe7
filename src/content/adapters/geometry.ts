/**
 * geometry — any DOM board, found by its shape rather than by names (docs: sites.md, "Other clones"): the largest
 * grid-aligned set of elements showing powers of two (as text, or as a value class such as `tile-64`,
 * `field-64`), with empty cells (`.empty`, `field-empty`, blank cells) completing the lattice. Three
 * layouts (rows, cells, positioned: ./geometry-layout.ts reads them), open shadow roots included.
 *
 * Checked on: tests/fixtures/pages/{react-like,vue-like,svelte-like,web-component,size3,no-game}.
 */
import type { Direction, Grid } from '../../engine/types';
import { DETECTION_LIMITS, PER_MOVE_LIMITS, boundedText, clockOf, elementRect, isBoardSize, numberFromText, perMoveBudget, sendKeyMove, waitForBoard } from './common';
import { OVER_TEXT, continueByClicking, findWinControl } from './game-end';
import { BoardReadError } from './types';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading, BoardRect, ContinueResult, GameStatus, SettleResult } from './types';
import { cellValue, childElements, columnsFromBoxes, gridColumns, isDocument, isElement, isShadowRoot, isTileOrEmpty, mostCommonKey, placedMembers, readLayout, TABLE_TAGS } from './geometry-layout';
import type { Container, Layout } from './geometry-layout';

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

/**
 * 'won' / 'over' from a message shown over or beside the board ("You win!", "Game over"), else 'playing'.
 * Bounded (PER_MOVE_LIMITS): the first characters of the text around the board, and at most so many
 * elements within the time budget, however large the page around the board.
 */
function statusAround(layout: Layout): GameStatus {
  const root = isElement(layout.container) ? layout.container.parentElement ?? layout.container : layout.container;
  const text = boundedText(root);
  if (!OVER_TEXT.test(text) && !WON_TEXT.test(text)) return 'playing';
  // Only a message that is shown counts (pages keep a hidden one ready).
  const expired = perMoveBudget(root.ownerDocument?.defaultView);
  const walker = (root.ownerDocument ?? (root as unknown as Document)).createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */);
  for (let n = walker.nextNode(), count = 0; n && count < PER_MOVE_LIMITS.elements; n = walker.nextNode(), count++) {
    if ((count & 63) === 63 && expired()) break;
    const element = n as Element;
    let own = '';
    for (let c = element.firstChild, k = 0; c && k < 50; c = c.nextSibling, k++) if (c.nodeType === 3) own += ` ${c.nodeValue ?? ''}`;
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
    const candidates = root.querySelectorAll('[class*="score" i], [id*="score" i]');
    for (let i = 0; i < candidates.length && i < 50; i++) {
      const element = candidates[i];
      if (/best|high/i.test(`${String(element.className)} ${element.id}`)) continue;
      const value = numberFromText(boundedText(element, 200));
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
    if (!found) throw new BoardReadError('boardGone');
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
      // animations watched from then on (`drawn`: the driver's KeyPacing holds the next key until they end).
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
