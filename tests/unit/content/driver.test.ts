/**
 * The play loop with a fake adapter (a real game kept by the engine's rules) and a fake solver behind a
 * fake sendMessage: step = one move, stop within one move, desync counted and recovered, an ignored move
 * retried then an error, the person taking over pauses, hint sends no key, a page without a board gets
 * the error and no key, a restarted background is retried, settings apply on the next move.
 */
import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { applyMove, createRng, legalMoves, spawnRandomTile } from '../../../src/engine/index';
import type { Direction, Grid, MoveChoice } from '../../../src/engine/types';
import { Driver, PAUSED_MESSAGE } from '../../../src/content/driver';
import type { DriverEnvironment } from '../../../src/content/driver-environment';
import { BoardReadError } from '../../../src/content/adapters/types';
import type { Adapter, AdapterFactory, BoardReading, ContinueResult, GameStatus, SettleResult } from '../../../src/content/adapters/types';
import { EditableFocusError } from '../../../src/content/keys';
import { GameRecordSchema, RunStatusSchema } from '../../../src/shared/messages';
import type { Command, GameRecord, Message, ReplyOf, RunStatus } from '../../../src/shared/messages';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import type { Settings } from '../../../src/shared/settings';

const SETTINGS: Settings = { ...DEFAULT_SETTINGS, strategy: 'priority', thinkMs: 10, pauseMs: 0 };

function grid(rows: number[][]): Grid {
  return { rows: rows.length, cols: rows[0].length, cells: rows.flat() };
}

class FakeGame implements Adapter {
  readonly name = 'fake';
  keys: Direction[] = [];
  ignoreNext = 0;
  status: GameStatus = 'playing';
  note: BoardReading['note'];
  continued = 0;
  /** Called after each accepted move (e.g. to change the board behind the driver's back). */
  afterMove: ((game: FakeGame) => void) | null = null;
  private readonly rng = createRng(7);

  constructor(
    public board: Grid,
    private readonly confidence = 0.8,
  ) {}

  async detect(): Promise<number> {
    return this.confidence;
  }
  boardRect(): null {
    return null;
  }
  readBoard(): BoardReading {
    const reading: BoardReading = { grid: this.board, score: null, status: this.status };
    return this.note ? { ...reading, note: this.note } : reading;
  }
  /** An element standing for a focused text field: sendMove refuses, as sendKeyMove does. */
  focusedField: Element | null = null;
  async sendMove(direction: Direction): Promise<void> {
    if (this.focusedField) throw new EditableFocusError(this.focusedField);
    this.keys.push(direction);
    if (this.ignoreNext > 0) {
      this.ignoreNext--;
      return;
    }
    const { grid: moved, moved: changed } = applyMove(this.board, direction);
    if (!changed) return;
    this.board = spawnRandomTile(moved, this.rng);
    this.afterMove?.(this);
  }
  async settled(previous: Grid, timeoutMs: number): Promise<SettleResult> {
    const same = previous.cells.every((v, i) => v === this.board.cells[i]);
    if (!same) return { kind: 'changed', reading: this.readBoard() };
    await new Promise((r) => setTimeout(r, Math.min(timeoutMs, 5)));
    return { kind: 'ignored' };
  }
  continueResult: ContinueResult = 'continued';
  async continueAfterWin(): Promise<ContinueResult> {
    this.continued++;
    if (this.continueResult === 'continued') this.status = 'playing';
    return this.continueResult;
  }
}

const ORDER: readonly Direction[] = ['down', 'right', 'up', 'left'];

interface Harness {
  driver: Driver;
  game: FakeGame;
  statuses: RunStatus[];
  records: GameRecord[];
  requests: number;
  cancels: number;
  window: Window;
  last(): RunStatus;
}

interface HarnessOptions {
  board?: Grid;
  adapters?: AdapterFactory[];
  /** Fails the first n solver requests with this transport error. */
  transientFailures?: number;
  /** Answers the first n solver requests with nothing (a service worker that died before replying). */
  emptyReplies?: number;
  /** Solver delay in ms. */
  solverDelayMs?: number;
  settings?: Partial<Settings>;
  /** The content script's "is my extension still there" (default: always). */
  alive?: () => boolean;
}

function harness(options: HarnessOptions = {}): Harness {
  const dom = new JSDOM('<!DOCTYPE html><html><body></body></html>', { url: 'http://game.test/' });
  const game = new FakeGame(options.board ?? grid([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]));
  const factory: AdapterFactory = { name: 'fake', rank: 1, create: () => game };
  let failures = options.transientFailures ?? 0;
  const h: Harness = {
    driver: undefined as unknown as Driver,
    game,
    statuses: [],
    records: [],
    requests: 0,
    cancels: 0,
    window: dom.window as unknown as Window,
    last: () => h.statuses[h.statuses.length - 1],
  };
  const sendMessage = async (message: Message): Promise<unknown> => {
    switch (message.kind) {
      case 'content/status':
        h.statuses.push(RunStatusSchema.parse(message.status));
        return { ok: true };
      case 'content/game-finished':
        h.records.push(GameRecordSchema.parse(message.record));
        return { ok: true };
      case 'solver/cancel':
        h.cancels++;
        return { ok: true };
      case 'solver/request': {
        h.requests++;
        if (options.emptyReplies && options.emptyReplies > 0) {
          options.emptyReplies--;
          return undefined;
        }
        if (failures > 0) {
          failures--;
          throw new Error(failures % 2 === 0 ? 'Could not establish connection. Receiving end does not exist.' : 'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received');
        }
        if (options.solverDelayMs) await new Promise((r) => setTimeout(r, options.solverDelayMs));
        const legal = legalMoves(message.board);
        const move = ORDER.find((d) => legal.includes(d)) ?? null;
        const choice: MoveChoice = {
          strategy: message.strategy,
          move,
          values: Object.fromEntries(legal.map((d, i) => [d, i])),
          depth: 1,
          nodes: 4,
          ms: 0,
        };
        return { ok: true, choice };
      }
      default:
        return { ok: false, error: 'unexpected' };
    }
  };
  const env: DriverEnvironment = {
    document: dom.window.document,
    window: h.window,
    adapters: options.adapters ?? [factory],
    sendMessage,
    measure: false,
    ...(options.alive ? { alive: options.alive } : {}),
    timing: { settleTimeoutMs: 20, retryBackoffMs: [5, 10, 20], solverRetryMs: [5, 10, 20] },
  };
  h.driver = new Driver(env, { ...SETTINGS, ...options.settings });
  return h;
}

/** A command's outcome as the protocol answers it: the reply, or the error the driver threw. */
async function command(driver: Driver, name: Command, settings: Settings): Promise<({ ok: true } & ReplyOf<'content/command'>) | { ok: false; error: string }> {
  try {
    return { ok: true, ...(await driver.handleCommand(name, settings)) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('driver', () => {
  it('step makes exactly one move and reports it', async () => {
    const h = harness();
    const reply = await command(h.driver, 'step', SETTINGS);
    expect(reply.ok).toBe(true);
    expect(h.game.keys).toEqual(['down']);
    expect(h.driver.getStatus()).toMatchObject({ moves: 1, running: false, state: 'idle', lastMove: 'down', adapter: 'fake', site: 'game.test' });
    expect(h.last().moves).toBe(1);
  });

  it('solve plays to game over and records the game', async () => {
    const h = harness({ board: grid([[2, 4, 2], [4, 2, 4], [0, 0, 0]]) });
    const reply = await command(h.driver, 'solve', SETTINGS);
    expect(reply.ok).toBe(true);
    await until(() => h.last().state === 'over');
    const status = h.last();
    expect(status.running).toBe(false);
    expect(status.moves).toBe(h.game.keys.length);
    expect(h.records).toHaveLength(1);
    expect(h.records[0]).toMatchObject({ outcome: 'over', adapter: 'fake', moves: status.moves, strategy: 'priority' });
    expect(status.score).toBeGreaterThan(0);
    // About one status message per move (the background writes each one to storage).
    expect(h.statuses.length).toBeLessThanOrEqual(status.moves + 4);
  });

  it('stop ends the run within one move', async () => {
    const h = harness({ solverDelayMs: 2 });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 3);
    await command(h.driver, 'stop', SETTINGS);
    const atStop = h.game.keys.length;
    const status = h.driver.getStatus();
    expect(status.running).toBe(false);
    expect(status.state).toBe('idle');
    await new Promise((r) => setTimeout(r, 40));
    expect(h.game.keys.length).toBe(atStop);
    expect(h.records.at(-1)?.outcome).toBe('stopped');
  });

  it('counts a desync when the board changes behind its back, and goes on from the board shown', async () => {
    const h = harness();
    let injected = false;
    h.game.afterMove = (game) => {
      if (injected || h.game.keys.length !== 2) return;
      injected = true;
      const cells = [...game.board.cells];
      cells[cells.indexOf(0)] = 64;
      game.board = { ...game.board, cells };
    };
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 6);
    await command(h.driver, 'stop', SETTINGS);
    const status = h.driver.getStatus();
    expect(status.desyncs).toBe(1);
    expect(status.bestTile).toBeGreaterThanOrEqual(64);
    expect(status.state).not.toBe('error');
  });

  it('re-sends a move the page ignored, then gives up with a clear error', async () => {
    const once = harness();
    once.game.ignoreNext = 1;
    await command(once.driver, 'step', SETTINGS);
    expect(once.game.keys).toEqual(['down', 'down']);
    expect(once.driver.getStatus().moves).toBe(1);

    const never = harness();
    never.game.ignoreNext = 100;
    const reply = await command(never.driver, 'step', SETTINGS);
    expect(reply.ok).toBe(false);
    expect(never.game.keys).toHaveLength(4);
    expect(never.driver.getStatus()).toMatchObject({ state: 'error', running: false, moves: 0 });
    expect(never.driver.getStatus().message).toEqual({ code: 'moveIgnored', params: ['down', '4'] });
  });

  it('pauses at once when the person takes over, cancels the search, and resumes on solve', async () => {
    const h = harness({ solverDelayMs: 30 });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 1);
    // An untrusted (synthetic) key does not count as the person.
    h.window.dispatchEvent(new (h.window as Window & typeof globalThis).KeyboardEvent('keydown', { key: 'ArrowUp' }));
    expect(h.driver.getStatus().state).not.toBe('paused');
    await until(() => h.requests > h.driver.getStatus().moves); // a search is under way
    const keys = h.game.keys.length;
    h.driver.pauseForUser();
    expect(h.last()).toMatchObject({ state: 'paused', message: PAUSED_MESSAGE, running: false });
    await new Promise((r) => setTimeout(r, 80));
    expect(h.game.keys.length).toBe(keys);
    expect(h.cancels).toBeGreaterThanOrEqual(1);
    expect(h.driver.getStatus()).toMatchObject({ state: 'paused', message: PAUSED_MESSAGE });

    const moves = h.driver.getStatus().moves;
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= moves + 2);
    expect(h.driver.getStatus().state).not.toBe('paused');
    await command(h.driver, 'stop', SETTINGS);
  });

  it('hint answers with the choice and sends no key', async () => {
    const h = harness();
    const reply = await command(h.driver, 'hint', SETTINGS);
    expect(reply.ok).toBe(true);
    if (reply.ok) expect(reply.hint?.move).toBe('down');
    expect(h.game.keys).toEqual([]);
    expect(h.driver.getStatus().moves).toBe(0);
  });

  it('a page without a board gets the error naming what was tried, and no key', async () => {
    const h = harness({ adapters: [] });
    const none: AdapterFactory = { name: 'classic', rank: 3, create: () => new FakeGame(grid([[0, 0, 0], [0, 0, 0], [0, 0, 0]]), 0) };
    const h2 = harness({ adapters: [none] });
    for (const x of [h, h2]) {
      await command(x.driver, 'solve', SETTINGS);
      await until(() => x.driver.getStatus().state === 'error');
      expect(x.driver.getStatus().message?.code).toBe('noBoard');
      expect(x.requests).toBe(0);
    }
    expect(h2.driver.getStatus().message).toEqual({ code: 'noBoard', params: ['classic'] });
    const step = await command(h2.driver, 'step', SETTINGS);
    expect(step.ok).toBe(false);
  });

  it('retries the solver when the background was restarted mid-request', async () => {
    const h = harness({ transientFailures: 2 });
    const reply = await command(h.driver, 'step', SETTINGS);
    expect(reply.ok).toBe(true);
    expect(h.requests).toBe(3);
    expect(h.driver.getStatus().moves).toBe(1);
    const silent = harness({ emptyReplies: 2 });
    expect((await command(silent.driver, 'step', SETTINGS)).ok).toBe(true);
    expect(silent.requests).toBe(3);
    const broken = harness({ transientFailures: 10 });
    const failed = await command(broken.driver, 'step', SETTINGS);
    expect(failed.ok).toBe(false);
    expect(broken.driver.getStatus().message?.code).toBe('solverUnreachable');
    expect(broken.game.keys).toEqual([]);
  });

  it('takes a strategy change on the next move and shows it', async () => {
    const h = harness({ solverDelayMs: 1 });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 2);
    h.driver.updateSettings({ ...SETTINGS, strategy: 'greedy' });
    const moves = h.driver.getStatus().moves;
    await until(() => h.driver.getStatus().moves >= moves + 2);
    expect(h.last().strategy).toBe('greedy');
    await command(h.driver, 'stop', SETTINGS);
  });

  it('at 2048 keeps playing or stops, per the setting', async () => {
    const board = grid([[2048, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]);
    const keep = harness({ board });
    keep.game.status = 'won';
    await command(keep.driver, 'step', SETTINGS);
    expect(keep.game.continued).toBe(1);
    expect(keep.driver.getStatus().moves).toBe(1);

    const stop = harness({ board, settings: { continueAfterWin: false } });
    stop.game.status = 'won';
    await command(stop.driver, 'solve', { ...SETTINGS, continueAfterWin: false });
    await until(() => stop.driver.getStatus().state === 'won');
    expect(stop.game.keys).toEqual([]);
    expect(stop.driver.getStatus().message).toEqual({ code: 'wonStopped' });
  });

  it('at 2048 stops with "Won — continue by hand" when the page cannot be continued', async () => {
    const board = grid([[2048, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]);
    for (const result of ['no-control', 'still-shown'] as const) {
      const h = harness({ board });
      h.game.status = 'won';
      h.game.continueResult = result;
      await h.driver.handleCommand('solve', SETTINGS);
      await until(() => !h.driver.isRunning && h.driver.getStatus().state === 'won');
      expect(h.game.continued).toBe(1);
      expect(h.game.keys).toEqual([]);
      expect(h.driver.getStatus().message?.code).toMatch(/^won(NoControl|StillShown)$/);
    }
  });

  it('pauses with a message, sending no key, while a text field has focus', async () => {
    const h = harness();
    h.game.focusedField = h.window.document.createElement('input');
    await h.driver.handleCommand('solve', SETTINGS);
    await until(() => !h.driver.isRunning && h.driver.getStatus().state === 'paused');
    expect(h.game.keys).toEqual([]);
    expect(h.driver.getStatus().message?.code).toBe('pausedTyping');
    expect(h.driver.getStatus().moves).toBe(0);
  });

  it('detects again once when the board cannot be read, and names the cell when it still cannot', async () => {
    const h = harness();
    let failures = 1;
    const read = h.game.readBoard.bind(h.game);
    h.game.readBoard = () => {
      if (failures > 0) {
        failures--;
        throw new BoardReadError('tilesMoving');
      }
      return read();
    };
    expect((await command(h.driver, 'step', SETTINGS)).ok).toBe(true);
    expect(h.driver.getStatus().moves).toBe(1);

    const bad = harness();
    bad.game.readBoard = () => {
      throw new BoardReadError('cellNotTile', 2, 3);
    };
    const reply = await command(bad.driver, 'step', SETTINGS);
    expect(reply.ok).toBe(false);
    expect(bad.driver.getStatus().message?.code).toBe('cannotRead');
    // The cell, in the extension's own words: a code and two numbers, nothing the page wrote.
    expect(bad.driver.getStatus().message).toEqual({ code: 'cannotRead', params: ['fake'], detail: { failure: 'cellNotTile', values: [2, 3] } });
    expect(bad.game.keys).toEqual([]);
  });

  it('pauses with the reason in a game state it does not know', async () => {
    const h = harness();
    h.game.status = 'unknown';
    h.game.note = 'pausedPowerup';
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().state === 'paused');
    expect(h.driver.getStatus().message).toEqual({ code: 'pausedPowerup' });
    expect(h.game.keys).toEqual([]);
  });
});

describe('driver lifecycle', () => {
  const big = (): Grid => grid([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]);

  it('pagehide stops the run at once and records its game; nothing resumes afterwards', async () => {
    const h = harness({ board: big(), solverDelayMs: 5 });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.game.keys.length >= 3);
    h.driver.pageHidden();
    expect(h.records).toHaveLength(1);
    expect(h.records[0]).toMatchObject({ outcome: 'stopped' });
    await until(() => !h.driver.isRunning && h.last().state === 'idle');
    const keys = h.game.keys.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(h.game.keys.length).toBe(keys);
    // The loop's own end reports the same game again: one game id across every record.
    expect(new Set(h.records.map((r) => r.gameId)).size).toBe(1);
  });

  it('sends no key once its extension is gone (an orphaned content script)', async () => {
    let alive = true;
    const h = harness({ board: big(), solverDelayMs: 5, alive: () => alive });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.game.keys.length >= 2);
    alive = false;
    const keys = h.game.keys.length;
    await until(() => !h.driver.isRunning);
    await new Promise((r) => setTimeout(r, 60));
    // At most the move whose key was already on its way when the extension went.
    expect(h.game.keys.length).toBeLessThanOrEqual(keys + 1);
    const settled = h.game.keys.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(h.game.keys.length).toBe(settled);
  });

  it('pause, then a new game by hand: the first game is recorded with its replay, the next is another game', async () => {
    const h = harness({ board: big(), solverDelayMs: 5 });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 3);
    h.driver.pauseForUser();
    await until(() => !h.driver.isRunning && h.records.length === 1);
    const first = h.records[0];
    expect(first).toMatchObject({ outcome: 'stopped' });
    expect(first.replay?.n).toBe(first.moves);
    // The page left while paused: nothing new to record, nothing sent twice.
    h.driver.pageHidden();
    expect(h.records).toHaveLength(1);
    // New Game on the page: less on the board than before.
    h.game.board = big();
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 2 && h.driver.getStatus().gameId !== first.gameId);
    await command(h.driver, 'stop', SETTINGS);
    const second = h.records[h.records.length - 1];
    expect(second.gameId).not.toBe(first.gameId);
    // The status counts the new game's moves, and so does its record.
    expect(second.moves).toBe(h.driver.getStatus().moves);
    expect(second.moves).toBeLessThan(first.moves + second.moves);
    expect(h.records.filter((r) => r.gameId === first.gameId)).toHaveLength(1);
  });

  it('the extension goes away mid-game: the game is recorded, waits, and the page’s next content script sends it and plays it on as the same game', async () => {
    let alive = true;
    const h = harness({ board: big(), solverDelayMs: 5, alive: () => alive });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 3);
    alive = false;
    h.driver.dispose();
    await until(() => !h.driver.isRunning);
    const handover = h.driver.games.handover();
    expect(h.records).toHaveLength(0);
    expect(handover.games).toHaveLength(1);
    const interrupted = handover.games[0];
    expect(handover.resume).toEqual(interrupted);
    expect(interrupted).toMatchObject({ outcome: 'stopped' });

    const next = harness({ board: h.game.board, solverDelayMs: 5 });
    expect(next.driver.games.adopt(handover.games, handover.resume ?? undefined, Date.now())?.gameId).toBe(interrupted.gameId);
    await until(() => next.records.length === 1);
    expect(next.records[0]).toEqual(interrupted);
    await command(next.driver, 'solve', SETTINGS);
    await until(() => next.game.keys.length >= 2);
    await command(next.driver, 'stop', SETTINGS);
    const last = next.records[next.records.length - 1];
    expect(last.gameId).toBe(interrupted.gameId);
    expect(last.moves).toBe(interrupted.moves + next.game.keys.length);
    expect(last.replay?.n).toBe(last.moves);
  });

  it('a game stopped before the extension was updated is the same game when Solve is pressed again on the page', async () => {
    let alive = true;
    const h = harness({ board: big(), solverDelayMs: 5, alive: () => alive });
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.driver.getStatus().moves >= 3);
    await command(h.driver, 'stop', SETTINGS);
    const stopped = h.records[h.records.length - 1];
    alive = false;
    h.driver.dispose();
    const handover = h.driver.games.handover();
    expect(handover.games).toEqual([]);
    expect(handover.resume).toEqual(stopped);
    const next = harness({ board: h.game.board, solverDelayMs: 5 });
    next.driver.games.adopt(handover.games, handover.resume ?? undefined, Date.now());
    await command(next.driver, 'step', SETTINGS);
    expect(next.records.at(-1)).toBeUndefined();
    await command(next.driver, 'stop', SETTINGS);
    await command(next.driver, 'solve', SETTINGS);
    await until(() => next.game.keys.length >= 2);
    await command(next.driver, 'stop', SETTINGS);
    expect(next.records.every((r) => r.gameId === stopped.gameId)).toBe(true);
    expect(next.records.at(-1)?.moves).toBe(stopped.moves + next.game.keys.length);
  });

  it('a game stopped and then played to its end is one game: every record carries its id and the last has every move', async () => {
    const h = harness({ board: grid([[2, 4, 2], [4, 2, 4], [0, 0, 0]]) });
    await command(h.driver, 'step', SETTINGS);
    await command(h.driver, 'solve', SETTINGS);
    await command(h.driver, 'stop', SETTINGS);
    await until(() => !h.driver.isRunning);
    await command(h.driver, 'solve', SETTINGS);
    await until(() => h.last().state === 'over');
    const ids = new Set(h.records.map((r) => r.gameId));
    expect(ids.size).toBe(1);
    const last = h.records[h.records.length - 1];
    expect(last).toMatchObject({ outcome: 'over', moves: h.game.keys.length });
  });
});
