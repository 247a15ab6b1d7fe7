import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_BY, MessageSchema, ProtocolError, errorReply, isOwnSender, parseMessage } from '../../../src/shared/messages';
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
    { kind: 'popup/get-status', tabId: 0 },
    { kind: 'content/command', command: 'hint', settings: DEFAULT_SETTINGS },
    { kind: 'content/ping' },
    { kind: 'content/status', status: STATUS },
    { kind: 'content/status', status: { ...STATUS, note: 'a worker crashed', board: BOARD, values: { left: 1, up: 0.5 } } },
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
        endedAt: 1,
        outcome: 'over',
      },
    },
    { kind: 'solver/request', requestId: 'r1', strategy: 'montecarlo', board: BOARD, options: { playouts: 200, seed: 4 } },
    { kind: 'solver/cancel', requestId: 'r1' },
    { kind: 'offscreen/solve', requestId: 'r1', strategy: 'expectimax', board: BOARD, options: { timeMs: 50, rootMoves: ['up'] }, channel: 'tab:3' },
    { kind: 'offscreen/cancel', requestId: 'r1', channel: 'tab:3' },
    { kind: 'offscreen/ping' },
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
    const kinds = MessageSchema.options.map((option) => option.shape.kind.value);
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

describe('senders and receivers', () => {
  it('accepts only our own extension id', () => {
    expect(isOwnSender({ id: 'ours' }, 'ours')).toBe(true);
    expect(isOwnSender({ id: 'theirs' }, 'ours')).toBe(false);
    expect(isOwnSender({}, 'ours')).toBe(false);
  });

  it('gives every message kind exactly one receiving context', () => {
    const kinds = MessageSchema.options.map((option) => option.shape.kind.value);
    const owners = Object.values(ACCEPTED_BY).flat();
    expect([...owners].sort()).toEqual([...kinds].sort());
  });

  it('turns any failure into an error reply', () => {
    expect(errorReply(new Error('x'))).toEqual({ ok: false, error: 'x' });
    expect(errorReply('y')).toEqual({ ok: false, error: 'y' });
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
