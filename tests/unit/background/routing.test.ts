/**
 * The background's routing rules, through the protocol's own dispatch (what a message from a given
 * sender ends up doing): the solver host hears only the background, a tab's search runs on the tab's own
 * channel with options rebuilt from the narrow schema, and status texts are bounded.
 */
import { describe, expect, it } from 'vitest';
import { STATUS_PARAM_MAX } from '../../../src/shared/status-message';
import { dispatch } from '../../../src/shared/protocol';
import type { GameRecord, RequestOf, RunStatus } from '../../../src/shared/messages';
import type { Handlers, SenderInfo } from '../../../src/shared/protocol';
import { backgroundHandlers, solverOptions, warmsSolver } from '../../../src/background/routing';
import type { SolverHost } from '../../../src/solver/host';
import type { NetworkStatus } from '../../../src/shared/network-status';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

const own = { id: 'abc', origin: 'chrome-extension://abc/', background: 'chrome-extension://abc/service-worker-loader.js' };
const fromBackground: SenderInfo = { id: 'abc', url: own.background };
const tab = (id: number): SenderInfo => ({ id: 'abc', url: 'http://127.0.0.1/classic/', tab: { id }, frameId: 0, documentId: `doc-${id}` });
const BOARD = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] };
const CHOICE = { strategy: 'expectimax', move: 'up', values: { up: 1 }, depth: 2, nodes: 9, ms: 1 } as const;
const STATUS: RunStatus = {
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
  updatedAt: 1,
};

function background() {
  const solved: RequestOf<'offscreen/solve'>[] = [];
  const cancelled: [string, string][] = [];
  const statuses: [number, RunStatus][] = [];
  const records: GameRecord[] = [];
  const lost: number[] = [];
  const networks: NetworkStatus[] = [];
  const warmed: number[] = [];
  const solverHost: SolverHost = {
    solve: (request) => {
      solved.push(request);
      return Promise.resolve({ choice: CHOICE });
    },
    cancel: (requestId, channel) => {
      cancelled.push([requestId, channel]);
      return Promise.resolve();
    },
    warm: () => {
      warmed.push(1);
      return Promise.resolve();
    },
  };
  const handlers = backgroundHandlers({
    solverHost,
    runCommand: () => Promise.resolve({}),
    saveStatus: (tabId, status) => {
      statuses.push([tabId, status]);
      return Promise.resolve();
    },
    gameLog: {
      record: (record) => {
        records.push(record);
        return Promise.resolve(NO_CHANGE);
      },
      importGames: () => Promise.resolve(NO_CHANGE),
      deleteGame: () => Promise.resolve(NO_CHANGE),
      clear: () => Promise.resolve(NO_CHANGE),
      noteLost: (games) => {
        lost.push(games);
        return Promise.resolve();
      },
    },
    currentSettings: () => Promise.resolve(DEFAULT_SETTINGS),
    saveNetworkStatus: (status) => {
      networks.push(status);
      return Promise.resolve();
    },
  });
  return { handlers, solved, cancelled, statuses, records, networks, lost, warmed };
}

const NO_CHANGE = { added: 0, duplicates: 0, evicted: 0, refused: 0, short: 0, future: 0, truncated: 0, deleted: 0, failed: false };

describe('the solver host hears only the background', () => {
  const offscreen: Handlers<'offscreen'> = {
    'offscreen/solve': () => ({ choice: CHOICE }),
    'offscreen/cancel': () => ({}),
  };
  const solve = { kind: 'offscreen/solve', requestId: 'r1', strategy: 'random', board: BOARD, options: {}, channel: 'tab:4' };
  const cancel = { kind: 'offscreen/cancel', requestId: 'r1', channel: 'tab:4' };

  it('answers the service worker', async () => {
    await expect(dispatch('offscreen', offscreen, solve, fromBackground, own)).resolves.toMatchObject({ ok: true });
    await expect(dispatch('offscreen', offscreen, cancel, fromBackground, own)).resolves.toEqual({ ok: true });
  });

  it('refuses a content script (of any tab) and the popup', async () => {
    const offscreenOwn = { id: own.id, origin: own.origin }; // the offscreen document cannot read the manifest
    for (const sender of [tab(5), { id: 'abc', url: 'chrome-extension://abc/src/ui/popup/index.html' }]) {
      await expect(dispatch('offscreen', offscreen, solve, sender, offscreenOwn)).resolves.toMatchObject({ ok: false });
    }
    await expect(dispatch('offscreen', offscreen, solve, fromBackground, offscreenOwn)).resolves.toMatchObject({ ok: true });
    for (const sender of [tab(5), tab(4), { id: 'abc', url: 'chrome-extension://abc/src/ui/popup/index.html' }]) {
      for (const message of [solve, cancel]) {
        await expect(dispatch('offscreen', offscreen, message, sender, own)).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/Refused/) });
      }
    }
  });
});

describe('the solver host started ahead of the first search', () => {
  const popup: SenderInfo = { id: 'abc', url: 'chrome-extension://abc/src/ui/popup/index.html' };

  it('starts when the popup or the panel says it opened, and a tab cannot start it', async () => {
    const bg = background();
    await expect(dispatch('background', bg.handlers, { kind: 'solver/warm' }, popup, own)).resolves.toEqual({ ok: true });
    expect(bg.warmed).toHaveLength(1);
    await expect(dispatch('background', bg.handlers, { kind: 'solver/warm' }, tab(4), own)).resolves.toMatchObject({ ok: false });
    expect(bg.warmed).toHaveLength(1);
  });

  it('starts beside the injection for every command that searches, not for Stop', () => {
    expect((['solve', 'step', 'hint', 'coach'] as const).every(warmsSolver)).toBe(true);
    expect((['stop', 'coach-stop'] as const).some(warmsSolver)).toBe(false);
  });
});

describe('a tab’s searches', () => {
  it('run on the channel of the sender’s tab, whatever the message says', async () => {
    const bg = background();
    const message = { kind: 'solver/request', requestId: 'r1', strategy: 'expectimax', board: BOARD, options: { timeMs: 50 }, channel: 'tab:4' };
    await expect(dispatch('background', bg.handlers, message, tab(5), own)).resolves.toMatchObject({ ok: true, choice: CHOICE });
    expect(bg.solved.map((r) => r.channel)).toEqual(['tab:5']);
  });

  it('are cancelled only on the sender’s own channel: tab 5 cannot cancel tab 4’s search', async () => {
    const bg = background();
    await dispatch('background', bg.handlers, { kind: 'solver/cancel', requestId: 'r1', channel: 'tab:4' }, tab(5), own);
    await dispatch('background', bg.handlers, { kind: 'solver/cancel', requestId: 'r1' }, tab(4), own);
    expect(bg.cancelled).toEqual([
      ['r1', 'tab:5'],
      ['r1', 'tab:4'],
    ]);
  });

  it('take only time, depth, playouts and seed, within the settings’ bounds; the rest is refused', async () => {
    const bg = background();
    const ask = (options: object) =>
      dispatch('background', bg.handlers, { kind: 'solver/request', requestId: 'r', strategy: 'expectimax', board: BOARD, options }, tab(4), own);
    for (const options of [
      { ttSizeLog2: 26 },
      { reference: true },
      { rootMoves: ['up'] },
      { timeMs: 600_000 },
      { timeMs: 5 },
      { depth: 12 },
      { playouts: 1e9 },
      { seed: -1 },
      { timeMs: 50, extra: 1 },
    ]) {
      await expect(ask(options)).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/Malformed message at options/) });
    }
    expect(bg.solved).toEqual([]);
    await expect(ask({ timeMs: 10_000, depth: 8, playouts: 100_000, seed: 7 })).resolves.toMatchObject({ ok: true });
    expect(bg.solved[0].options).toEqual({ timeMs: 10_000, depth: 8, playouts: 100_000, seed: 7 });
  });

  it('get options built field by field (nothing passed through)', () => {
    const sneaky = { timeMs: 20, ttSizeLog2: 26, reference: true } as unknown as Parameters<typeof solverOptions>[0];
    expect(solverOptions(sneaky)).toEqual({ timeMs: 20 });
    expect(solverOptions({})).toEqual({});
  });
});

describe('status messages', () => {
  it('are codes with bounded parameters: anything else is refused at the boundary', async () => {
    const bg = background();
    const long = 'x'.repeat(STATUS_PARAM_MAX + 1);
    for (const status of [
      { ...STATUS, message: 'Stopped' },
      { ...STATUS, message: { code: 'somethingElse' } },
      { ...STATUS, message: { code: 'failed', params: [long] } },
      { ...STATUS, note: { code: 'failed', params: ['a', 'b', 'c', 'd', 'e'] } },
      { ...STATUS, adapter: '<img src=x>' },
      { ...STATUS, site: 'a b' },
    ]) {
      await expect(dispatch('background', bg.handlers, { kind: 'content/status', status }, tab(4), own)).resolves.toMatchObject({ ok: false });
    }
    expect(bg.statuses).toEqual([]);
    const fits = { ...STATUS, message: { code: 'failed' as const, params: ['y'.repeat(STATUS_PARAM_MAX)] }, adapter: 'saved-state', site: '127.0.0.1:8080' };
    await expect(dispatch('background', bg.handlers, { kind: 'content/status', status: fits }, tab(4), own)).resolves.toEqual({ ok: true });
    expect(bg.statuses).toEqual([[4, fits]]);
  });
});

describe('the learned network’s state', () => {
  const offscreenPage: SenderInfo = { id: 'abc', url: 'chrome-extension://abc/src/offscreen/offscreen.html' };
  const report = { kind: 'solver/network', status: { state: 'loading', percent: 40 } };

  it('is kept when the solver host (an extension page) reports it', async () => {
    const bg = background();
    await expect(dispatch('background', bg.handlers, report, offscreenPage, own)).resolves.toEqual({ ok: true });
    const failed = { kind: 'solver/network', status: { state: 'failed', reason: { code: 'networkLoadFailed', params: ['HTTP 404'] } } };
    await expect(dispatch('background', bg.handlers, failed, offscreenPage, own)).resolves.toEqual({ ok: true });
    expect(bg.networks).toEqual([report.status, failed.status]);
  });

  it('is refused from a content script, and when it is not a state', async () => {
    const bg = background();
    await expect(dispatch('background', bg.handlers, report, tab(3), own)).resolves.toMatchObject({ ok: false });
    const bad = { kind: 'solver/network', status: { state: 'loading', percent: 140 } };
    await expect(dispatch('background', bg.handlers, bad, offscreenPage, own)).resolves.toMatchObject({ ok: false });
    expect(bg.networks).toEqual([]);
  });
});

describe('what a content script gets from the background', () => {
  it('the settings on asking (its only way to them: it reads no storage), and nothing of the history', async () => {
    const bg = background();
    const reply = await dispatch('background', bg.handlers, { kind: 'settings/get' }, tab(3), own);
    expect(reply).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
    expect(JSON.stringify(reply)).not.toMatch(/games|gameId|replay/);
    // Only a tab's content script asks so.
    await expect(dispatch('background', bg.handlers, { kind: 'settings/get' }, fromBackground, own)).resolves.toMatchObject({ ok: false });
  });

  it('a record that comes with games the tab let go: counted for the history’s notice, the record kept', async () => {
    const bg = background();
    const record: GameRecord = { gameId: 'g-1', site: 'a.test', adapter: 'classic', strategy: 'expectimax', score: 10, bestTile: 8, moves: 30, ms: 100, desyncs: 0, endedAt: 1_700_000_000_000, outcome: 'over' };
    await expect(dispatch('background', bg.handlers, { kind: 'content/game-finished', record, lost: 4 }, tab(3), own)).resolves.toEqual({ ok: true });
    expect(bg.lost).toEqual([4]);
    expect(bg.records).toEqual([record]);
  });
});
