/**
 * Requests over ports (src/platform/port-transport.ts: sendOverPort, onRawPort), against a fake `chrome` whose
 * runtime.connect hands the other end of the port to every onConnect listener, as the browsers do: a
 * request reaches only the context it names, one port carries many requests with their answers matched
 * even out of order, a port that closes fails its open requests with a transient error and the next request
 * opens a new one, and a request nobody there answers fails with a clear message. Then the protocol's own
 * `send` and `listen` over them (the background's kinds), with the sender checked. Last, the channel that
 * carries the background's requests to the offscreen document: acknowledged, answered, a request that
 * nobody hears fails as a missing receiver, and one whose receiver dies while working on it fails as transient
 * (while a receiver that keeps working past the silence limit is waited for: it beats).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Handlers } from '../../../src/shared/protocol';

type Listener = (data: unknown) => void;

interface FakePort {
  name: string;
  sender?: { id: string; url: string; tab?: { id: number }; frameId?: number };
  onMessage: { addListener(l: Listener): void };
  onDisconnect: { addListener(l: () => void): void };
  postMessage(data: unknown): void;
  disconnect(): void;
}

function fakeRuntime(sender: { id: string; url: string; tab?: { id: number }; frameId?: number } = { id: 'abc', url: 'chrome-extension://abc/sw.js' }) {
  const connectListeners = new Set<(port: FakePort) => void>();
  const opened: { client: FakePort; server: FakePort; close(error?: string): void }[] = [];
  const runtime = {
    id: 'abc',
    lastError: undefined as { message: string } | undefined,
    getURL: (path: string) => `chrome-extension://abc/${path}`,
    getManifest: () => ({ background: { service_worker: 'sw.js' } }),
    onMessage: { addListener: () => undefined, removeListener: () => undefined },
    onConnect: { addListener: (l: (port: FakePort) => void) => connectListeners.add(l), removeListener: (l: (port: FakePort) => void) => connectListeners.delete(l) },
    connect({ name }: { name: string }): FakePort {
      const toServer = new Set<Listener>();
      const toClient = new Set<Listener>();
      const clientGone: (() => void)[] = [];
      let open = true;
      const close = (error?: string) => {
        if (!open) return;
        open = false;
        runtime.lastError = error ? { message: error } : undefined;
        clientGone.forEach((l) => l());
        runtime.lastError = undefined;
      };
      const client: FakePort = {
        name,
        onMessage: { addListener: (l) => toClient.add(l) },
        onDisconnect: { addListener: (l) => clientGone.push(l) },
        postMessage: (data) => {
          if (!open) throw new Error('Attempting to use a disconnected port object');
          const copy = structuredClone(data);
          queueMicrotask(() => toServer.forEach((l) => l(copy)));
        },
        disconnect: () => (open = false),
      };
      const server: FakePort = {
        name,
        sender,
        onMessage: { addListener: (l) => toServer.add(l) },
        onDisconnect: { addListener: () => undefined },
        postMessage: (data) => {
          const copy = structuredClone(data);
          queueMicrotask(() => open && toClient.forEach((l) => l(copy)));
        },
        disconnect: () => close(),
      };
      opened.push({ client, server, close });
      queueMicrotask(() => {
        connectListeners.forEach((l) => l(server));
        if (connectListeners.size === 0) close('Could not establish connection. Receiving end does not exist.');
      });
      return client;
    },
  };
  return { chrome: { runtime }, opened, connectListeners };
}

/** The transports, loaded afresh on a fake `chrome` (one module graph: the ports and channels share it). */
async function load(fake: ReturnType<typeof fakeRuntime>) {
  vi.stubGlobal('chrome', fake.chrome);
  vi.resetModules();
  const [runtime, ports, channels, protocol] = await Promise.all([
    import('../../../src/platform/runtime'),
    import('../../../src/platform/port-transport'),
    import('../../../src/platform/channel-transport'),
    import('../../../src/shared/protocol'),
  ]);
  return { ...runtime, ...ports, ...channels, isTransientFailure: protocol.isTransientFailure };
}

let fake: ReturnType<typeof fakeRuntime>;
beforeEach(() => {
  fake = fakeRuntime();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('requests over ports', () => {
  it('reach the context they name only, with the sender, and one port carries them all (answers matched out of order)', async () => {
    const runtime = await load(fake);
    const offscreenHeard: unknown[] = [];
    runtime.onRawPort('offscreen', (message) => {
      offscreenHeard.push(message);
      return false;
    });
    const senders: unknown[] = [];
    runtime.onRawPort('background', (message, sender, respond) => {
      senders.push(sender);
      const { n } = message as { n: number };
      // The first request is answered last.
      setTimeout(() => respond({ twice: n * 2 }), n === 1 ? 20 : 0);
      return true;
    });
    const replies = await Promise.all([1, 2, 3].map((n) => runtime.sendOverPort('background', { n })));
    expect(replies).toEqual([{ twice: 2 }, { twice: 4 }, { twice: 6 }]);
    expect(fake.opened).toHaveLength(1);
    expect(fake.opened[0].client.name).toBe('rpc:background');
    expect(offscreenHeard).toEqual([]);
    expect(senders[0]).toEqual({ id: 'abc', url: 'chrome-extension://abc/sw.js' });
  });

  it('fail with a transient error when the port closes before the answer, and the next request opens a new port', async () => {
    const runtime = await load(fake);
    let answer = false;
    runtime.onRawPort('background', (_message, _sender, respond) => {
      if (answer) respond({ fine: true });
      return true;
    });
    const pending = runtime.sendOverPort('background', { first: true });
    await new Promise((done) => setTimeout(done, 5));
    fake.opened[0].close(); // the service worker stopped
    const error = await pending.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    expect(runtime.isTransientFailure(error)).toBe(true);
    answer = true;
    await expect(runtime.sendOverPort('background', { second: true })).resolves.toEqual({ fine: true });
    expect(fake.opened).toHaveLength(2);
  });

  it('resetRequestPorts lets every port go (a page back from the back-forward cache): the next request opens a new one', async () => {
    const runtime = await load(fake);
    runtime.onRawPort('background', (_message, _sender, respond) => (respond('pong'), true));
    await expect(runtime.sendOverPort('background', 'ping')).resolves.toBe('pong');
    runtime.resetRequestPorts();
    await expect(runtime.sendOverPort('background', 'ping')).resolves.toBe('pong');
    expect(fake.opened).toHaveLength(2);
  });

  it('with nobody listening, fail in the browser words that mean "try again" (the context is starting)', async () => {
    const runtime = await load(fake);
    const error = await runtime.sendOverPort('offscreen', { hello: 1 }).catch((err: unknown) => err);
    expect(String(error)).toMatch(/Receiving end does not exist/);
    expect(runtime.isTransientFailure(error)).toBe(true);
  });

  it('a request that the listening context does not answer fails with a clear message, not silence', async () => {
    const runtime = await load(fake);
    runtime.onRawPort('background', () => false);
    await expect(runtime.sendOverPort('background', { kind: 'nobody/knows' })).rejects.toThrow(/Nothing in the background answers/);
  });

  it('leave other ports (the content scripts\' lifelines) to their own listeners', async () => {
    const runtime = await load(fake);
    runtime.onRawPort('background', () => false);
    runtime.acceptLifelines();
    const lifeline = fake.chrome.runtime.connect({ name: 'content-lifeline' });
    let dropped = false;
    lifeline.onDisconnect.addListener(() => (dropped = true));
    const request = fake.chrome.runtime.connect({ name: 'rpc:offscreen' });
    let requestDropped = false;
    request.onDisconnect.addListener(() => (requestDropped = true));
    await new Promise((done) => setTimeout(done, 5));
    // The lifeline has no tab here, so acceptLifelines lets it go; the other context's request port stays.
    expect(dropped).toBe(true);
    expect(requestDropped).toBe(false);
  });
});

describe('the protocol over request ports', () => {
  const fromTab = { id: 'abc', url: 'http://127.0.0.1/game/', tab: { id: 3 }, frameId: 0 };

  async function backgroundListening(heard: unknown[]) {
    const messages = await import('../../../src/platform/messaging');
    // Only the kind under test is handled here; the table is typed for all of the background's kinds.
    const handlers = { 'solver/cancel': (request: unknown) => (heard.push(request), {}) } as unknown as Handlers<'background'>;
    messages.listen('background', handlers);
    return messages;
  }

  it('send reaches listen in the background over its port, the sender checked, the reply validated', async () => {
    fake = fakeRuntime(fromTab);
    await load(fake);
    const heard: unknown[] = [];
    const messages = await backgroundListening(heard);
    await expect(messages.send('solver/cancel', { requestId: 'r7' })).resolves.toEqual({});
    expect(heard).toEqual([{ kind: 'solver/cancel', requestId: 'r7' }]);
    expect(fake.opened.map((p) => p.client.name)).toEqual(['rpc:background']);
  });

  it('a sender the kind does not accept gets a refusal', async () => {
    fake = fakeRuntime({ id: 'abc', url: 'https://example.com/' });
    await load(fake);
    const heard: unknown[] = [];
    const messages = await backgroundListening(heard);
    await expect(messages.send('solver/cancel', { requestId: 'r7' })).rejects.toThrow(/Refused: solver\/cancel/);
    expect(heard).toEqual([]);
  });
});

describe('requests over channels (background to the offscreen document)', () => {
  it('reach the listening context, acknowledged and answered; one it does not answer fails with a clear message', async () => {
    const runtime = await load(fake);
    const heard: unknown[] = [];
    const stop = runtime.onRawChannel('offscreen-test', (message, sender, respond) => {
      heard.push({ message, sender });
      if ((message as { n?: number }).n === undefined) return false;
      setTimeout(() => respond({ twice: (message as { n: number }).n * 2 }), 5);
      return true;
    });
    try {
      await expect(Promise.all([runtime.sendOverChannel('offscreen-test', { n: 1 }), runtime.sendOverChannel('offscreen-test', { n: 2 })])).resolves.toEqual([
        { twice: 2 },
        { twice: 4 },
      ]);
      expect(heard[0]).toMatchObject({ message: { n: 1 }, sender: { id: 'abc' } });
      await expect(runtime.sendOverChannel('offscreen-test', { other: true })).rejects.toThrow(/Nothing in the offscreen-test answers/);
    } finally {
      stop();
    }
  });

  it('with nobody listening (the document closed itself), fail in the words of a missing receiver (transient)', async () => {
    const runtime = await load(fake);
    const error = await runtime.sendOverChannel('nobody-here', { n: 1 }).catch((err: unknown) => err);
    expect(String(error)).toMatch(/Receiving end does not exist/);
    expect(runtime.isTransientFailure(error)).toBe(true);
  });

  it('a receiver that dies while working fails the request as transient; one that works long but beats is waited for', async () => {
    const runtime = await load(fake);
    const saved = { ...runtime.CHANNEL_TIMING };
    // A silence limit of 25 beats: beats of a loaded test runner (npm test runs it beside two browsers on 2
    // cores) came more than 150 ms apart, which failed the slow request as silent.
    Object.assign(runtime.CHANNEL_TIMING, { ackMs: 500, beatMs: 20, silentMs: 500 });
    const pending: ((reply: unknown) => void)[] = [];
    const stop = runtime.onRawChannel('offscreen-dies', (_message, _sender, respond) => {
      pending.push(respond);
      return true;
    });
    try {
      // Works four times the silence limit, beating meanwhile: the answer arrives.
      const slow = runtime.sendOverChannel('offscreen-dies', { n: 1 });
      setTimeout(() => pending[0]({ done: true }), 2_000);
      await expect(slow).resolves.toEqual({ done: true });
      // Dies (its channel closes, its beats stop) with the request acknowledged and unanswered.
      const orphan = runtime.sendOverChannel('offscreen-dies', { n: 2 });
      const started = Date.now();
      setTimeout(stop, 50);
      const error = await orphan.catch((err: unknown) => err);
      expect(String(error)).toMatch(/stopped answering/);
      expect(runtime.isTransientFailure(error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      stop();
      Object.assign(runtime.CHANNEL_TIMING, saved);
    }
  });

  it('a listener that throws answers with its error instead of leaving the request waiting', async () => {
    const runtime = await load(fake);
    const stop = runtime.onRawChannel('offscreen-throws', () => {
      throw new Error('broken handler');
    });
    try {
      await expect(runtime.sendOverChannel('offscreen-throws', { n: 1 })).rejects.toThrow(/offscreen-throws failed on this message: broken handler/);
    } finally {
      stop();
    }
  });
});
