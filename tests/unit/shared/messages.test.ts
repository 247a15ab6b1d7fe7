import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryError, ProtocolError, createSend, dispatch, errorReply, parseMessage, parseReply, senderFits } from '../../../src/shared/protocol';
import { PROTOCOL } from '../../../src/shared/messages';
import type { Handlers } from '../../../src/shared/protocol';
import type { Message } from '../../../src/shared/messages';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { parseWorkerRequest, parseWorkerResponse } from '../../../src/solver/protocol';

const BOARD = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] };
const STATUS = {
  state: 'thinking',
  strategy: 'expectimax',
  score: 120,
  bestTile: 16,
  moves: 12,
  movesPerSecond: 8.5,
  depth: 3,
  desyncs: 0,
  lastMove: 'left',
  running: true,
  updatedAt: 1_700_000_000_000,
};

describe('parseMessage: good messages', () => {
  it.each([
    { kind: 'popup/command', tabId: 3, command: 'solve' },
    { kind: 'content/command', command: 'hint', settings: DEFAULT_SETTINGS },
    { kind: 'content/ping' },
    { kind: 'content/status', status: STATUS },
    { kind: 'content/status', status: { ...STATUS, note: { code: 'solverFailed', params: ['a worker crashed'] }, board: BOARD, values: { left: 1, up: 0.5 } } },
    {
      kind: 'content/game-finished',
      record: {
        site: '127.0.0.1',
        adapter: 'classic',
        strategy: 'greedy',
        score: null,
        bestTile: 512,
        moves: 300,
        ms: 9000,
        desyncs: 1,
        endedAt: 1_700_000_000_000,
        outcome: 'over',
      },
    },
    { kind: 'solver/request', requestId: 'r1', strategy: 'montecarlo', board: BOARD, options: { playouts: 200, seed: 4 } },
    { kind: 'solver/cancel', requestId: 'r1' },
    { kind: 'offscreen/solve', requestId: 'r1', strategy: 'expectimax', board: BOARD, options: { timeMs: 50, rootMoves: ['up'] }, channel: 'tab:3' },
    { kind: 'offscreen/cancel', requestId: 'r1', channel: 'tab:3' },
  ])('accepts $kind', (message) => {
    expect(parseMessage(message)).toEqual(message);
  });
});

describe('parseMessage: bad messages', () => {
  it.each([
    [null, /Malformed/],
    ['popup/command', /Malformed/],
    [{}, /kind/],
    [{ kind: 'popup/explode' }, /kind/],
    [{ kind: 'popup/command', tabId: -1, command: 'solve' }, /tabId/],
    [{ kind: 'popup/command', tabId: 1.5, command: 'solve' }, /tabId/],
    [{ kind: 'popup/command', tabId: 1, command: 'rm -rf' }, /command/],
    [{ kind: 'solver/request', requestId: '', strategy: 'expectimax', board: BOARD, options: {} }, /requestId/],
    [{ kind: 'solver/request', requestId: 'x', strategy: 'alphazero', board: BOARD, options: {} }, /strategy/],
    [{ kind: 'solver/request', requestId: 'x', strategy: 'expectimax', board: { rows: 4, cols: 4, cells: [2] }, options: {} }, /cells/],
    [{ kind: 'solver/request', requestId: 'x', strategy: 'expectimax', board: { ...BOARD, rows: 99 }, options: {} }, /rows/],
    [{ kind: 'solver/request', requestId: 'x', strategy: 'expectimax', board: BOARD, options: { timeMs: 1e9 } }, /timeMs/],
    [{ kind: 'content/status', status: { ...STATUS, state: 'dancing' } }, /state/],
    [{ kind: 'content/status', status: { ...STATUS, moves: -1 } }, /moves/],
    [{ kind: 'content/command', command: 'solve', settings: { ...DEFAULT_SETTINGS, thinkMs: 0 } }, /thinkMs/],
    [{ kind: 'offscreen/solve', requestId: 'r', strategy: 'expectimax', board: BOARD, options: {}, channel: 'x'.repeat(101) }, /channel/],
  ])('rejects %j', (message, problem) => {
    expect(() => parseMessage(message)).toThrow(ProtocolError);
    expect(() => parseMessage(message)).toThrow(problem);
  });

  it('never throws anything but a ProtocolError on hostile input', () => {
    const kinds = Object.keys(PROTOCOL);
    const hostile = fc.oneof(
      fc.anything(),
      fc.record({ kind: fc.constantFrom(...kinds) }, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom('kind', 'tabId', 'command', 'status', 'board', 'options', 'requestId', '__proto__', 'constructor'), fc.anything()).map(
        (d) => ({ ...d, kind: kinds[Object.keys(d).length % kinds.length] }),
      ),
    );
    fc.assert(
      fc.property(hostile, (data) => {
        try {
          const message = parseMessage(data);
          expect(kinds).toContain(message.kind);
        } catch (err) {
          expect(err).toBeInstanceOf(ProtocolError);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('senders', () => {
  const id = 'abc';
  const origin = `chrome-extension://${id}/`;
  const popup = { id, url: `${origin}src/ui/popup/index.html` };
  const content = { id, url: 'http://127.0.0.1:8080/classic/', tab: { id: 4 }, frameId: 0 };
  const background = `${origin}service-worker-loader.js`;
  const fits = (kind: keyof typeof PROTOCOL, sender: object): boolean => senderFits(PROTOCOL[kind].from, sender, { id, origin, background });

  it('takes popup commands only from our pages and content messages only from a tab’s top frame', () => {
    expect(fits('popup/command', popup)).toBe(true);
    expect(fits('popup/command', content)).toBe(false);
    expect(fits('content/status', content)).toBe(true);
    expect(fits('solver/request', content)).toBe(true);
    expect(fits('content/status', { ...content, frameId: 3 })).toBe(false);
    expect(fits('content/status', { ...popup, tab: { id: 4 } })).toBe(false);
    expect(fits('content/status', { ...content, id: 'other' })).toBe(false);
    expect(fits('popup/command', { ...popup, id: 'other' })).toBe(false);
    expect(fits('offscreen/solve', { id: 'other' })).toBe(false);
    expect(fits('offscreen/solve', { id, url: background })).toBe(true);
  });

  it('takes solver-host messages and commands to a tab only from the background, never from a content script or the popup', () => {
    const fromBackground = { id, url: background };
    for (const kind of ['offscreen/solve', 'offscreen/cancel', 'content/command', 'content/ping'] as const) {
      expect(fits(kind, fromBackground)).toBe(true);
      expect(fits(kind, content)).toBe(false);
      expect(fits(kind, popup)).toBe(false);
      expect(fits(kind, { id })).toBe(false);
      expect(fits(kind, { ...fromBackground, tab: { id: 4 } })).toBe(false);
    }
    // Where the manifest cannot be read (the offscreen document): our script-only sender, not a page, not a tab.
    expect(senderFits('background', fromBackground, { id, origin })).toBe(true);
    expect(senderFits('background', popup, { id, origin })).toBe(false);
    expect(senderFits('background', content, { id, origin })).toBe(false);
    expect(senderFits('background', { ...content, url: 'http://127.0.0.1/evil.js' }, { id, origin })).toBe(false);
    expect(senderFits('background', { ...fromBackground, tab: { id: 4 } }, { id, origin })).toBe(false);
  });

  it('turns any failure into an error reply', () => {
    expect(errorReply(new Error('x'))).toEqual({ ok: false, error: 'x' });
    expect(errorReply('y')).toEqual({ ok: false, error: 'y' });
  });
});

describe('replies', () => {
  it('validates a reply against its kind', () => {
    expect(parseReply('content/ping', { ok: true, version: 1 })).toEqual({ version: 1 });
    expect(parseReply('solver/cancel', { ok: true })).toEqual({});
    expect(() => parseReply('content/ping', { ok: true, version: 'one' })).toThrow(/not understood at version/);
    expect(() => parseReply('popup/command', { ok: 'yes' })).toThrow(/not understood/);
  });

  it('turns an error reply into a remote DeliveryError with its text, and no reply into a transient one', () => {
    const remote = (() => {
      try {
        parseReply('popup/command', { ok: false, error: 'No 2048 board found on this page' });
      } catch (err) {
        return err;
      }
    })();
    expect(remote).toBeInstanceOf(DeliveryError);
    expect(remote).toMatchObject({ message: 'No 2048 board found on this page', remote: true, transient: false });
    expect(() => parseReply('content/ping', undefined)).toThrow(expect.objectContaining({ transient: true }));
  });

  it('sends through a transport and marks closed channels and missing receivers transient', async () => {
    const sent: Message[] = [];
    const send = createSend(async (message) => {
      sent.push(message);
      return { ok: true, version: 2 };
    });
    await expect(send('content/ping', {}, { tabId: 1 })).resolves.toEqual({ version: 2 });
    expect(sent).toEqual([{ kind: 'content/ping' }]);
    for (const text of [
      'Could not establish connection. Receiving end does not exist.',
      'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received',
      'The message port closed before a response was received.',
    ]) {
      const failing = createSend(() => Promise.reject(new Error(text)));
      await expect(failing('content/ping', {})).rejects.toMatchObject({ transient: true });
    }
    const refused = createSend(() => Promise.reject(new Error('Extension context invalidated.')));
    await expect(refused('content/ping', {})).rejects.toMatchObject({ transient: false });
  });
});

describe('dispatch (the one listener)', () => {
  const own = { id: 'abc', origin: 'chrome-extension://abc/', background: 'chrome-extension://abc/service-worker-loader.js' };
  const fromBackground = { id: 'abc', url: own.background };
  const content = { id: 'abc', url: 'http://127.0.0.1/', tab: { id: 4 }, frameId: 0 };
  const handlers: Handlers<'content'> = {
    'content/ping': () => ({ version: 7 }),
    'content/settings': () => ({}),
    'content/command': () => {
      throw new Error('No 2048 board found on this page');
    },
  };

  it('answers its own kinds with the handler’s reply or error', async () => {
    await expect(dispatch('content', handlers, { kind: 'content/ping' }, fromBackground, own)).resolves.toEqual({ ok: true, version: 7 });
    await expect(dispatch('content', handlers, { kind: 'content/command', command: 'hint', settings: DEFAULT_SETTINGS }, fromBackground, own)).resolves.toEqual({
      ok: false,
      error: 'No 2048 board found on this page',
    });
  });

  it('stays silent for other contexts’ kinds, unknown kinds and foreign senders', () => {
    expect(dispatch('content', handlers, { kind: 'solver/request' }, content, own)).toBeNull();
    expect(dispatch('content', handlers, { kind: 'nope' }, own, own)).toBeNull();
    expect(dispatch('content', handlers, 'content/ping', own, own)).toBeNull();
    expect(dispatch('content', handlers, { kind: 'content/ping' }, { id: 'other' }, own)).toBeNull();
  });

  it('refuses a sender its kind does not allow, and a malformed message of its own kind', async () => {
    const background = { 'content/status': () => ({}) } as unknown as Handlers<'background'>;
    await expect(dispatch('background', background, { kind: 'content/status', status: STATUS }, { id: 'abc', url: 'chrome-extension://abc/x.html' }, own)).resolves.toMatchObject({
      ok: false,
      error: expect.stringMatching(/Refused/),
    });
    await expect(dispatch('content', handlers, { kind: 'content/command', command: 'dance' }, fromBackground, own)).resolves.toMatchObject({
      ok: false,
      error: expect.stringMatching(/Malformed message at command/),
    });
  });

  it('gives every message kind exactly one receiving context', () => {
    for (const route of Object.values(PROTOCOL)) expect(['background', 'content', 'offscreen']).toContain(route.to);
  });
});

describe('worker protocol', () => {
  it('parses starts, cancels, results and errors', () => {
    const start = { type: 'start', id: 1, strategy: 'expectimax', board: BOARD, options: { rootMoves: ['up'] } };
    expect(parseWorkerRequest(start)).toEqual(start);
    expect(parseWorkerRequest({ type: 'cancel', id: 1 })).toEqual({ type: 'cancel', id: 1 });
    const result = { type: 'result', id: 1, choice: { strategy: 'expectimax', move: 'up', values: { up: 1 }, depth: 2, nodes: 9, ms: 1 } };
    expect(parseWorkerResponse(result)).toEqual(result);
    expect(parseWorkerResponse({ type: 'error', id: 1, error: 'x', aborted: true })).toEqual({ type: 'error', id: 1, error: 'x', aborted: true });
  });

  it('returns null for anything else', () => {
    expect(parseWorkerRequest({ type: 'start', id: -1, strategy: 'expectimax', board: BOARD, options: {} })).toBeNull();
    expect(parseWorkerRequest({ type: 'eval', code: '1+1' })).toBeNull();
    expect(parseWorkerResponse({ type: 'result', id: 1, choice: { move: 'sideways' } })).toBeNull();
    fc.assert(fc.property(fc.anything(), (data) => parseWorkerResponse(data) === null || typeof data === 'object'));
  });
});
