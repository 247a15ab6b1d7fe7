// @vitest-environment jsdom
/**
 * The content script's entry against a fake `chrome`: one live instance per document, an orphan (its
 * extension reloaded or updated) stands down — every listener it added removed — as soon as its lifeline
 * drops with the runtime gone, and a new injection is never blocked by an orphan's mark.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const MARK = '__2048autopilotContent';

interface Listeners {
  message: Set<unknown>;
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
    connect: () => ({ onDisconnect: { addListener: (l: () => void) => listeners.disconnect.push(l) }, disconnect: () => undefined }),
  };
  return {
    runtime,
    storage: {
      local: { get: () => Promise.resolve({}) },
      onChanged: { addListener: (l: unknown) => listeners.storage.add(l), removeListener: (l: unknown) => listeners.storage.delete(l) },
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

const fresh = (): Listeners => ({ message: new Set(), storage: new Set(), disconnect: [] });

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
    expect(listeners.storage.size).toBe(1);
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
