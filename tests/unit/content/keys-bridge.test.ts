// @vitest-environment jsdom
/**
 * Synthetic keys (every field set, target an element, keydown then keyup) and the main-world bridge:
 * keys handed over as arguments, request/reply, pushes, HMAC tags and sequence numbers (forged, replayed
 * and malformed messages dropped), and a page that patched its built-ins never seeing the secret.
 */
import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { createHmac } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { bridgeEventName, createPageBridge, verifyDetail } from '../../../src/content/bridge';
import { hmacSha256Hex } from '../../../src/content/hmac';
import { EditableFocusError, dispatchMoveKey, focusedEditable, moveKeyInit } from '../../../src/content/keys';
import { makeToken } from '../../../src/shared/bridge-protocol';
import type { BridgeKeys } from '../../../src/shared/bridge-protocol';
import { mainWorldAgent } from '../../../src/page/main-world';
import type { AgentHooks } from '../../../src/page/main-world';
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

  it('sends nothing while a text field has focus (input, textarea, select, contenteditable, inside a shadow root)', () => {
    const win = freshWindow(
      '<input id="i"><input id="r" type="range"><textarea id="t"></textarea><select id="s"><option>a</option></select>' +
        '<div id="e" contenteditable="true"><span id="inner" tabindex="0">x</span></div><div id="host"></div>' +
        '<input id="btn" type="button" value="ok"><div id="off" contenteditable="false" tabindex="0"></div><button id="b">x</button>',
    );
    const doc = win.document;
    let seen = 0;
    win.addEventListener('keydown', () => seen++, true);
    const shadow = (doc.getElementById('host') as HTMLElement).attachShadow({ mode: 'open' });
    shadow.innerHTML = '<input id="deep">';
    const focusables: readonly [() => HTMLElement, boolean][] = [
      [() => doc.getElementById('i') as HTMLElement, true],
      [() => doc.getElementById('r') as HTMLElement, true],
      [() => doc.getElementById('t') as HTMLElement, true],
      [() => doc.getElementById('s') as HTMLElement, true],
      [() => doc.getElementById('inner') as HTMLElement, true],
      [() => shadow.getElementById('deep') as HTMLElement, true],
      [() => doc.getElementById('btn') as HTMLElement, false],
      [() => doc.getElementById('off') as HTMLElement, false],
      [() => doc.getElementById('b') as HTMLElement, false],
    ];
    for (const [element, editable] of focusables) {
      element().focus();
      expect(focusedEditable(doc) !== null, element().id).toBe(editable);
      if (editable) expect(() => dispatchMoveKey(doc, 'up')).toThrow(EditableFocusError);
      else dispatchMoveKey(doc, 'up');
    }
    expect(seen).toBe(3);
    (doc.activeElement as HTMLElement | null)?.blur();
    expect(focusedEditable(doc)).toBeNull();
  });

  it('a document in design mode, and focus in a closed shadow root nobody can look into, count as typing', () => {
    const win = freshWindow('<button id="b">x</button><x-field id="host"></x-field><button id="plain">y</button>');
    const doc = win.document;
    doc.designMode = 'on';
    expect(focusedEditable(doc)).toBe('document');
    expect(() => dispatchMoveKey(doc, 'up')).toThrow(expect.objectContaining({ tag: 'document' }));
    doc.designMode = 'off';
    const closed = (doc.getElementById('host') as HTMLElement).attachShadow({ mode: 'closed' });
    closed.innerHTML = '<button id="inside">ok</button>';
    (closed.getElementById('inside') as HTMLElement).focus();
    // The document sees the host; what has focus inside cannot be told: no key.
    expect(doc.activeElement?.id).toBe('host');
    expect(focusedEditable(doc)).toBe('shadow');
    expect(() => dispatchMoveKey(doc, 'up')).toThrow(expect.objectContaining({ tag: 'shadow' }));
    (doc.getElementById('plain') as HTMLElement).focus();
    expect(focusedEditable(doc)).toBeNull();
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


function keys(): BridgeKeys {
  return { secret: makeToken(43), channel: makeToken(22) };
}

/** The agent as Chrome injects it: its source alone, evaluated in a fresh realm (no module bindings). */
function injectedAgent(): typeof mainWorldAgent {
  return runInNewContext(`(${mainWorldAgent.toString()})`, {}) as typeof mainWorldAgent;
}

/** The page's module scripts, as its resource timeline would list them had it run them all. */
function allRan(win: Window): { name: string; initiatorType: string }[] {
  return Array.from(win.document.querySelectorAll('script[src]'), (s) => ({ name: (s as HTMLScriptElement).src, initiatorType: 'script' }));
}

function install(win: Window, k: BridgeKeys, hooks: Omit<AgentHooks, 'win'> = {}): boolean {
  return injectedAgent()(k.secret, k.channel, { win, resources: () => allRan(win), ...hooks });
}

/** Every `detail` the agent sends on the channel, as the page could see it. */
function recordToContent(win: Window, k: BridgeKeys): string[] {
  const seen: string[] = [];
  win.addEventListener(bridgeEventName(k.secret, 'to-content', 'http://127.0.0.1'), (e) => seen.push(String((e as CustomEvent).detail)));
  return seen;
}

describe('main-world agent', () => {
  it('is self-contained (runs from its source alone, its parts written into it) and carries no zod', () => {
    const source = mainWorldAgent.toString();
    expect(source).not.toMatch(/zod|__zod/);
    for (const part of ['agentText', 'agentHmac', 'agentPage', 'agentStore']) expect(source).toContain(`function ${part}(`);
    const win = freshWindow();
    expect(install(win, keys())).toBe(true);
  });

  it('refuses malformed keys', () => {
    const win = freshWindow();
    expect(install(win, { secret: 'short', channel: makeToken(22) })).toBe(false);
    expect(install(win, { secret: makeToken(43), channel: 'bad channel!' })).toBe(false);
  });

  it('tags what it sends with HMAC-SHA-256 under the secret, as node:crypto computes it', () => {
    const win = freshWindow();
    const k = keys();
    const seen = recordToContent(win, k);
    install(win, k);
    expect(seen).toHaveLength(1); // the "ready" push
    const [body, tag] = seen[0].split('~');
    expect(JSON.parse(body)).toEqual({ seq: 1, kind: 'push', type: 'ready', payload: { agent: 1 } });
    expect(tag).toBe(createHmac('sha256', k.secret).update(body).digest('hex'));
  });

  it('the content side HMAC agrees with node:crypto on many texts and keys', () => {
    for (let i = 0; i < 200; i++) {
      const key = makeToken(32 + (i % 33));
      let text = '';
      for (let j = 0; j < i * 3; j++) text += String.fromCharCode(32 + ((i * 7 + j * 13) % 95));
      expect(hmacSha256Hex(key, text)).toBe(createHmac('sha256', key).update(text).digest('hex'));
    }
  });
});

describe('main-world bridge', () => {
  it('answers hello and key requests', async () => {
    const win = freshWindow();
    const k = keys();
    const bridge = createPageBridge(win, k);
    install(win, k);
    expect(await bridge.connect(200)).toBe(true);
    let keysSeen = 0;
    win.document.addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).which === 39 && (e as KeyboardEvent).key === 'ArrowRight') keysSeen++;
    });
    await bridge.request('key', { direction: 'right' });
    expect(keysSeen).toBe(1);
  });

  it('drops forged, replayed and malformed messages, and agents of other keys', async () => {
    const win = freshWindow();
    const k = keys();
    const seen = recordToContent(win, k);
    const bridge = createPageBridge(win, k);
    const pushes: unknown[] = [];
    bridge.on('store/state', (p) => pushes.push(p));
    install(win, k);
    expect(await bridge.connect(200)).toBe(true);
    const toContent = bridgeEventName(k.secret, 'to-content', 'http://127.0.0.1');
    const forge = (detail: unknown): void => {
      win.dispatchEvent(new win.CustomEvent(toContent, { detail }));
    };
    const board = { state: 'playing', score: 0, board: [[2, 0, 0], [0, 0, 0], [0, 0, 0]] };
    const body = (seq: number): string => JSON.stringify({ seq, kind: 'push', type: 'store/state', payload: board });
    forge(`${body(50)}~${'0'.repeat(64)}`); // no valid tag
    forge(`${body(51)}~${createHmac('sha256', makeToken(43)).update(body(51)).digest('hex')}`); // another secret
    forge(body(52)); // no tag at all
    forge({ text: body(53) }); // not a string
    const [validBody, validTag] = seen[seen.length - 1].split('~');
    forge(`${validBody}~${validTag}`); // a replay of the agent's own last message
    forge(`${validBody.replace('"seq":', '"seq":9')}~${validTag}`); // changed text, old tag
    // A second agent injected with other keys (e.g. an earlier injection) is ignored too.
    install(win, keys());
    expect(pushes).toEqual([]);
    // A well-tagged message with a newer number is accepted: the check is the tag, not the sender.
    forge(`${body(60)}~${hmacSha256Hex(k.secret, body(60))}`);
    expect(pushes).toEqual([board]);
    expect(verifyDetail(`${body(61)}~${hmacSha256Hex(k.secret, body(61))}`, k.secret)).not.toBeNull();
    await expect(bridge.request('no-such-thing')).rejects.toThrow(expect.objectContaining({ status: { code: 'failed', params: ['BridgeError'] } }));
  });

  it('ignores requests it does not know and unknown directions', async () => {
    const win = freshWindow();
    const k = keys();
    install(win, k);
    let keysSeen = 0;
    win.document.addEventListener('keydown', () => keysSeen++);
    const toPage = bridgeEventName(k.secret, 'to-page', 'http://127.0.0.1');
    for (const detail of ['1:key:sideways', '2:eval:alert(1)', 'x:key:left', '3', { id: 4 }, `${'9'.repeat(20)}:key:left`]) {
      win.dispatchEvent(new win.CustomEvent(toPage, { detail }));
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(keysSeen).toBe(0);
  });

  it('connects when the agent is injected after the content script started asking', async () => {
    const win = freshWindow();
    const k = keys();
    const bridge = createPageBridge(win, k);
    const connecting = bridge.connect(1_000);
    await new Promise((r) => setTimeout(r, 150));
    install(win, k);
    expect(await connecting).toBe(true);
    expect(bridge.connected).toBe(true);
  });

  it('a page that throws at the store: the agent says only its fixed code, the bridge a status of its own', async () => {
    const win = freshWindow('<script type="module" src="/assets/index.js"></script>');
    const k = keys();
    const seen = recordToContent(win, k);
    const { store } = fakeStore();
    const words = 'VISIT evil.example NOW ' + 'x'.repeat(10_000);
    const hostile = { ...store, move: () => { throw new Error(words); } };
    const bridge = createPageBridge(win, k);
    install(win, k, { importModule: async () => ({ g: hostile }) });
    const adapter = new StoreAdapter({ document: win.document, window: win, bridge });
    expect(await adapter.detect()).toBeGreaterThan(0.9);
    const failure = await adapter.sendMove('left').then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({ status: { code: 'pageScriptFailed' } });
    expect(seen.join('\n')).not.toContain('VISIT');
    expect(JSON.stringify(failure)).not.toContain('VISIT');
  });

  it('the store adapter sends no move while a text field has focus, as the keys do', async () => {
    const win = freshWindow('<input id="q"><script type="module" src="/assets/index.js"></script>');
    const k = keys();
    const { store, moves } = fakeStore();
    const bridge = createPageBridge(win, k);
    install(win, k, { importModule: async () => ({ g: store }) });
    const adapter = new StoreAdapter({ document: win.document, window: win, bridge });
    expect(await adapter.detect()).toBeGreaterThan(0.9);
    (win.document.getElementById('q') as HTMLInputElement).focus();
    await expect(adapter.sendMove('left')).rejects.toThrow(EditableFocusError);
    expect(moves).toEqual([]);
  });

  it('the agent leaves on an authenticated dispose: no listener, no store subscription, no answer; a forged one is ignored', async () => {
    const win = freshWindow('<script type="module" src="/assets/index.js"></script>');
    const k = keys();
    const listeners = new Set<unknown>();
    const store = {
      subscribe(cb: (g: unknown) => void) {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
      move() {},
      sanitize() {},
    };
    const added: string[] = [];
    const removed: string[] = [];
    const toPage = bridgeEventName(k.secret, 'to-page', 'http://127.0.0.1');
    const realAdd = win.EventTarget.prototype.addEventListener;
    const realRemove = win.EventTarget.prototype.removeEventListener;
    win.EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
      if (type === toPage) added.push(type);
      return Reflect.apply(realAdd, this, [type, ...rest]) as void;
    } as typeof realAdd;
    win.EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
      if (type === toPage) removed.push(type);
      return Reflect.apply(realRemove, this, [type, ...rest]) as void;
    } as typeof realRemove;
    const bridge = createPageBridge(win, k);
    install(win, k, { importModule: async () => ({ g: store }) });
    expect(await bridge.request('store/find', undefined, 500)).toMatchObject({ found: true });
    expect(listeners.size).toBe(1);
    // The page learned the channel: its own dispose, without the tag, changes nothing.
    win.dispatchEvent(new win.CustomEvent(toPage, { detail: '77:dispose:' + '0'.repeat(64) }));
    expect(await bridge.request('hello', undefined, 500)).toEqual({ agent: 1 });
    bridge.dispose();
    expect(added).toHaveLength(1);
    expect(removed).toHaveLength(1);
    expect(listeners.size).toBe(0);
    const again = createPageBridge(win, k);
    expect(await again.connect(60)).toBe(false);
  });

  it('times out when no agent answers', async () => {
    const win = freshWindow();
    const bridge = createPageBridge(win, keys());
    expect(await bridge.connect(30)).toBe(false);
    await expect(bridge.request('store/find', undefined, 30)).rejects.toThrow(expect.objectContaining({ status: { code: 'pageScriptNoAnswer' } }));
  });

  it('a page that patched its built-ins before the injection never sees the secret', async () => {
    const win = freshWindow('<script type="module" src="/assets/index.js"></script>');
    const k = keys();
    const seen: unknown[] = [];
    const callers: unknown[] = [];
    const record = (args: unknown[]): void => {
      for (const a of args) seen.push(a);
    };
    // What a hostile page does first: wrap every built-in the agent might use, and look up its callers.
    const proto = win.EventTarget.prototype;
    for (const name of ['dispatchEvent', 'addEventListener'] as const) {
      const original = proto[name] as (...args: unknown[]) => unknown;
      (proto as unknown as Record<string, unknown>)[name] = function patched(this: unknown, ...args: unknown[]) {
        record(args);
        try {
          // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
          callers.push((patched as unknown as { caller: Function | null }).caller);
        } catch {
          callers.push('strict');
        }
        return original.apply(this, args);
      };
    }
    const OriginalCustomEvent = win.CustomEvent;
    (win as unknown as Record<string, unknown>).CustomEvent = class extends OriginalCustomEvent<unknown> {
      constructor(type: string, init?: CustomEventInit) {
        record([type, init?.detail]);
        super(type, init);
      }
    };
    const bridge = createPageBridge(win, k);
    const { store } = fakeStore();
    install(win, k, { importModule: async () => ({ g: store }) });
    const adapter = new StoreAdapter({ document: win.document, window: win, bridge });
    expect(await adapter.detect()).toBeGreaterThan(0.9);
    await adapter.sendMove('left');
    await bridge.request('key', { direction: 'up' });
    const text = JSON.stringify(seen.map((v) => (typeof v === 'function' ? String(v) : v)));
    expect(seen.length).toBeGreaterThan(3);
    expect(text).not.toContain(k.secret);
    for (const caller of callers) {
      // No patched function can reach the agent's frame (and so its arguments) through `caller`.
      if (typeof caller === 'function') expect(String(caller)).not.toContain('MainWorldAgent');
    }
  });

  it('finds the game module export, pushes validated snapshots and plays through the store', async () => {
    const win = freshWindow('<script type="module" src="/assets/consent.js"></script><script type="module" src="/assets/index.js"></script>');
    const { store, game, moves } = fakeStore();
    const modules: Record<string, unknown> = {
      'http://127.0.0.1/assets/consent.js': { subscribe: () => undefined, version: '1' },
      'http://127.0.0.1/assets/index.js': { v: '2.4.1', g: store },
    };
    const k = keys();
    const bridge = createPageBridge(win, k);
    install(win, k, { importModule: async (url) => modules[url] });
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
    await new Promise((r) => setTimeout(r, 0));
    expect(adapter.readBoard().status).toBe('unknown');
    // Fixed wording: the page's own state name never reaches the popup.
    expect(adapter.readBoard().note).toBe('pausedPowerup');
    game.state = '<img src=x onerror=alert(1)>'.repeat(100);
    store.sanitize();
    expect(adapter.readBoard().note).toBe('pausedUnknownState');
    game.state = 'gameWon';
    store.sanitize();
    expect(adapter.readBoard().status).toBe('won');
    expect(await adapter.continueAfterWin()).toBe('continued');
    expect(adapter.readBoard().status).toBe('playing');
  });

  it('publishes only boards of tiles: a game object of another shape is not sent', () => {
    const win = freshWindow('<script type="module" src="/assets/index.js"></script>');
    const k = keys();
    const seen = recordToContent(win, k);
    const listeners: ((g: unknown) => void)[] = [];
    const store = { subscribe: (cb: (g: unknown) => void) => listeners.push(cb), move() {}, sanitize() {} };
    install(win, k, { importModule: async () => ({ store }) });
    return (async () => {
      win.dispatchEvent(new win.CustomEvent(bridgeEventName(k.secret, 'to-page', 'http://127.0.0.1'), { detail: '1:store/find:' }));
      await new Promise((r) => setTimeout(r, 10));
      const before = seen.length;
      for (const game of [
        { state: 'playing', board: [[{ value: 'two' }, null], [null, null]] },
        { board: 'nope' },
        { state: 'playing', board: [[2, 0, 0], [0, 0]] },
        { state: 'x"},"board":[[2048]]', score: 1, board: [[2, 0, 0], [0, 0, 0], [0, 0, 0]] },
      ]) {
        for (const l of listeners) l(game);
      }
      const sent = seen.slice(before).map((d) => verifyDetail(d, k.secret));
      // Only the last one is a board; its state text lost its quote and cannot break out of the string.
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ kind: 'push', type: 'store/state', payload: { state: 'x},board:[[2048]]', board: [[2, 0, 0], [0, 0, 0], [0, 0, 0]] } });
    })();
  });
});

describe('nothing on the page that names the extension', () => {
  /** Every event type listened for or dispatched on `win` from now on. */
  function traceEventNames(win: Window & typeof globalThis): Set<string> {
    const names = new Set<string>();
    const proto = win.EventTarget.prototype;
    const add = proto.addEventListener;
    const fire = proto.dispatchEvent;
    proto.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
      names.add(type);
      return Reflect.apply(add, this, [type, ...rest]) as void;
    } as typeof add;
    proto.dispatchEvent = function (this: EventTarget, event: Event) {
      names.add(event.type);
      return Reflect.apply(fire, this, [event]) as boolean;
    };
    return names;
  }

  it('the names of its events on two pages of two sites: 32 hex digits, no fixed text, nothing in common', async () => {
    const seen: string[][] = [];
    for (const url of ['http://127.0.0.1/', 'http://localhost:8080/game/']) {
      const win = new JSDOM('<!DOCTYPE html><html><body></body></html>', { url }).window as unknown as Window & typeof globalThis;
      const names = traceEventNames(win);
      const k = keys();
      const bridge = createPageBridge(win, k);
      expect(install(win, k)).toBe(true);
      expect(await bridge.connect(500)).toBe(true);
      await bridge.request('key', { direction: 'up' });
      bridge.dispose();
      const ours = [...names].filter((n) => n !== 'keydown' && n !== 'keyup');
      expect(ours.length).toBe(2);
      for (const name of ours) expect(name).toMatch(/^[0-9a-f]{32}$/);
      // Each is the HMAC of its direction and the page's origin under the secret, as node:crypto computes it,
      // and nothing else: no fixed text (a random name's "2048" would be chance: about 1 name in 2 000 has one).
      const origin = new URL(url).origin;
      const derived = (purpose: string): string => createHmac('sha256', k.secret).update(`${purpose}|${origin}`).digest('hex').slice(0, 32);
      expect(ours.sort()).toEqual([derived('to-page'), derived('to-content')].sort());
      seen.push(ours);
    }
    // No name, and no piece of ten characters of one, appears on the other site (by chance: about 2 runs in 10^9).
    const pieces = (name: string): string[] => Array.from({ length: name.length - 9 }, (_, i) => name.slice(i, i + 10));
    for (const name of seen[0]) for (const piece of pieces(name)) expect(seen[1].some((other) => other.includes(piece))).toBe(false);
  });

  it('imports only module scripts of the page’s own origin that the page ran (a planted one is never fetched)', async () => {
    const win = freshWindow(
      '<script type="module" src="/assets/planted.js"></script><script type="module" src="https://cdn.example/x.js"></script><script type="module" src="/assets/index.js"></script>',
    );
    const k = keys();
    const { store } = fakeStore();
    const imported: string[] = [];
    const ran = [
      { name: 'https://cdn.example/x.js', initiatorType: 'script' },
      { name: 'http://127.0.0.1/assets/index.js', initiatorType: 'script' },
      // Fetched, but not as a script.
      { name: 'http://127.0.0.1/assets/planted.js', initiatorType: 'fetch' },
    ];
    const bridge = createPageBridge(win, k);
    install(win, k, {
      resources: () => ran,
      importModule: async (url) => {
        imported.push(url);
        return url.endsWith('/index.js') ? { g: store } : { nothing: true };
      },
    });
    const found = await bridge.request<{ found: boolean }>('store/find');
    expect(found.found).toBe(true);
    expect(imported).toEqual(['http://127.0.0.1/assets/index.js']);
    bridge.dispose();
  });
});
