// @vitest-environment jsdom
/**
 * Synthetic keys (every field set, target an element, keydown then keyup) and the main-world bridge:
 * nonce hand-over, request/reply, pushes, and rejection of wrong nonces and malformed payloads.
 */
import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { createPageBridge } from '../../../src/content/bridge';
import { dispatchMoveKey, moveKeyInit } from '../../../src/content/keys';
import { NONCE_ATTRIBUTE, channelName, makeNonce } from '../../../src/page/bridge-protocol';
import { findStoreExport, installPageAgent, snapshotOf } from '../../../src/page/page-agent';
import { StoreAdapter } from '../../../src/content/adapters/store';

function freshWindow(body = '<button id="b">x</button>'): Window & typeof globalThis {
  return new JSDOM(`<!DOCTYPE html><html><body>${body}</body></html>`, { url: 'http://127.0.0.1/' }).window as unknown as Window &
    typeof globalThis;
}

describe('keys', () => {
  it('sets key, code, keyCode and which, bubbles, and carries no modifier', () => {
    const init = moveKeyInit('left');
    expect(init).toMatchObject({ key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37, which: 37, bubbles: true, cancelable: true });
    expect(moveKeyInit('down')).toMatchObject({ key: 'ArrowDown', keyCode: 40 });
  });

  it('reaches body, document and window listeners from an element target, keydown then keyup', () => {
    const win = freshWindow();
    const seen: string[] = [];
    const record = (where: string) => (e: Event) => {
      const k = e as KeyboardEvent;
      seen.push(`${where}:${e.type}:${k.key}:${k.code}:${k.keyCode}:${k.which}:${(e.target as Element).tagName}:${k.shiftKey || k.ctrlKey || k.altKey || k.metaKey}`);
    };
    win.addEventListener('keydown', record('window'));
    win.document.addEventListener('keydown', record('document'));
    win.document.body.addEventListener('keydown', record('body'));
    win.document.addEventListener('keyup', record('document'));
    const target = dispatchMoveKey(win.document, 'up');
    expect(target.tagName).toBe('BODY');
    expect(seen).toEqual([
      'body:keydown:ArrowUp:ArrowUp:38:38:BODY:false',
      'document:keydown:ArrowUp:ArrowUp:38:38:BODY:false',
      'window:keydown:ArrowUp:ArrowUp:38:38:BODY:false',
      'document:keyup:ArrowUp:ArrowUp:38:38:BODY:false',
    ]);
  });

  it('goes to the focused element when there is one', () => {
    const win = freshWindow();
    const button = win.document.getElementById('b') as HTMLButtonElement;
    button.focus();
    expect(dispatchMoveKey(win.document, 'right')).toBe(button);
  });
});

interface FakeGame {
  state: string;
  score: number;
  board: ({ position: { x: number; y: number }; value: number } | null)[][];
}

function fakeStore() {
  const listeners: ((game: FakeGame) => void)[] = [];
  const game: FakeGame = {
    state: 'playing',
    score: 0,
    board: [
      [{ position: { x: 0, y: 0 }, value: 2 }, null, null, null],
      [null, null, null, null],
      [null, null, null, { position: { x: 3, y: 2 }, value: 2 }],
      [null, null, null, null],
    ],
  };
  const moves: string[] = [];
  const store = {
    subscribe(cb: (g: FakeGame) => void) {
      listeners.push(cb);
      cb(game);
    },
    sanitize() {
      for (const l of listeners) l(game);
    },
    move(direction: string) {
      moves.push(direction);
      if (direction === 'left') {
        game.board[2][3] = null;
        game.board[2][0] = { position: { x: 0, y: 2 }, value: 2 };
        game.board[3][3] = { position: { x: 3, y: 3 }, value: 4 };
      }
      for (const l of listeners) l(game);
    },
    continueAfterWin() {
      game.state = 'playing';
      for (const l of listeners) l(game);
    },
  };
  return { store, game, moves };
}

describe('main-world bridge', () => {
  it('hands the nonce over through <html> and answers hello and key requests', async () => {
    const win = freshWindow();
    const bridge = createPageBridge(win);
    const nonce = win.document.documentElement.getAttribute(NONCE_ATTRIBUTE);
    expect(nonce).toBe(bridge.nonce);
    installPageAgent(win, bridge.nonce);
    expect(await bridge.connect(200)).toBe(true);
    let keys = 0;
    win.document.addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).which === 39) keys++;
    });
    await bridge.request('key', { direction: 'right' });
    expect(keys).toBe(1);
  });

  it('ignores messages with a wrong nonce and malformed payloads', async () => {
    const win = freshWindow();
    const bridge = createPageBridge(win);
    installPageAgent(win, bridge.nonce);
    let keys = 0;
    win.document.addEventListener('keydown', () => keys++);
    const toPage = channelName(bridge.nonce, 'to-page');
    const send = (detail: unknown): void => {
      win.dispatchEvent(new win.CustomEvent(toPage, { detail }));
    };
    const other = makeNonce();
    send(JSON.stringify({ nonce: other, id: 1, type: 'key', payload: { direction: 'left' } })); // wrong nonce
    send(JSON.stringify({ nonce: bridge.nonce, id: 2, type: 'key', payload: { direction: 'sideways' } }));
    send(JSON.stringify({ nonce: bridge.nonce, id: 3, type: 'eval', payload: 'alert(1)' }));
    send({ nonce: bridge.nonce, id: 4, type: 'key', payload: { direction: 'left' } }); // not a string
    send('{not json');
    send(JSON.stringify({ nonce: bridge.nonce, id: -1, type: 'key', payload: { direction: 'left' } }));
    win.dispatchEvent(new win.CustomEvent(channelName(other, 'to-page'), { detail: JSON.stringify({ nonce: other, id: 5, type: 'key', payload: { direction: 'up' } }) }));
    await new Promise((r) => setTimeout(r, 20));
    expect(keys).toBe(0);

    // Forged replies and pushes to the content side are dropped too.
    const toContent = channelName(bridge.nonce, 'to-content');
    const pushes: unknown[] = [];
    bridge.on('store/state', (p) => pushes.push(p));
    const forge = (detail: unknown): void => {
      win.dispatchEvent(new win.CustomEvent(toContent, { detail }));
    };
    forge(JSON.stringify({ nonce: other, kind: 'push', type: 'store/state', payload: { state: 'playing', score: 0, board: [[2, 0, 0], [0, 0, 0], [0, 0, 0]] } }));
    forge(JSON.stringify({ nonce: bridge.nonce, kind: 'push', type: 'store/state', payload: { state: 'playing', score: 0, board: [[3]] } }));
    forge(JSON.stringify({ nonce: bridge.nonce, kind: 'push', type: 'store/state', payload: { state: 'playing', score: -1, board: 'x' } }));
    expect(pushes).toEqual([]);
    await expect(bridge.request('no-such-thing')).rejects.toThrow(/Unknown bridge request/);
  });

  it('connects when the main-world script is injected after the content script started asking', async () => {
    const win = freshWindow();
    const bridge = createPageBridge(win);
    const connecting = bridge.connect(1_000);
    await new Promise((r) => setTimeout(r, 150));
    installPageAgent(win, bridge.nonce);
    expect(await connecting).toBe(true);
    expect(bridge.connected).toBe(true);
  });

  it('times out when no main-world script answers', async () => {
    const win = freshWindow();
    const bridge = createPageBridge(win);
    expect(await bridge.connect(30)).toBe(false);
    await expect(bridge.request('store/find', undefined, 30)).rejects.toThrow(/did not answer/);
  });

  it('finds the game module export, pushes validated snapshots and plays through the store', async () => {
    const win = freshWindow('<script type="module" src="/assets/consent.js"></script><script type="module" src="/assets/index.js"></script>');
    const { store, game, moves } = fakeStore();
    const modules: Record<string, unknown> = {
      'http://127.0.0.1/assets/consent.js': { subscribe: () => undefined, version: '1' },
      'http://127.0.0.1/assets/index.js': { v: '2.4.1', g: store },
    };
    const bridge = createPageBridge(win);
    installPageAgent(win, bridge.nonce, { importModule: async (url) => modules[url] });
    const adapter = new StoreAdapter({ document: win.document, window: win, bridge });
    expect(await adapter.detect()).toBeGreaterThan(0.9);
    const before = adapter.readBoard();
    expect(before.grid.cells.filter((v) => v > 0)).toEqual([2, 2]);
    const settled = adapter.settled(before.grid, 1_000, 'left');
    await adapter.sendMove('left');
    const result = await settled;
    expect(moves).toEqual(['left']);
    expect(result.kind).toBe('changed');
    if (result.kind === 'changed') expect(result.reading.grid.cells[8]).toBe(2);

    game.state = 'powerupSelection';
    store.sanitize();
    expect(adapter.readBoard().status).toBe('unknown');
    expect(adapter.readBoard().note).toContain('powerupSelection');
    game.state = 'gameWon';
    store.sanitize();
    expect(adapter.readBoard().status).toBe('won');
    expect(await adapter.continueAfterWin()).toBe(true);
    expect(adapter.readBoard().status).toBe('playing');
  });

  it('recognises store exports and game objects strictly', () => {
    expect(findStoreExport({ a: 1, b: { subscribe() {}, move() {} } })).toBeNull();
    const store = { subscribe() {}, move() {}, sanitize() {} };
    expect(findStoreExport({ x: 'y', g: store })).toBe(store);
    expect(findStoreExport(null)).toBeNull();
    expect(snapshotOf({ state: 'playing', score: 4, board: [[null, { value: 2 }, null], [null, null, null], [{ value: 4 }, null, null]] })).toEqual({
      state: 'playing',
      score: 4,
      board: [
        [0, 2, 0],
        [0, 0, 0],
        [4, 0, 0],
      ],
    });
    expect(snapshotOf({ state: 'playing', board: [[{ value: 'two' }, null], [null, null]] })).toBeNull();
    expect(snapshotOf({ board: 'nope' })).toBeNull();
  });
});
