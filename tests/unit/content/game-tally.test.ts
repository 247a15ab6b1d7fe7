import { describe, expect, it } from 'vitest';
import { GameTally } from '../../../src/content/game-tally';
import { GameReporter } from '../../../src/content/game-reporter';
import { createSend } from '../../../src/shared/protocol';
import type { Message } from '../../../src/shared/messages';
import { addGame } from '../../../src/shared/game-log';
import type { LogBounds } from '../../../src/shared/game-log';
import { initialStatus } from '../../../src/shared/messages';
import type { GameRecord } from '../../../src/shared/messages';
import type { Grid } from '../../../src/engine/types';

const STATUS = { ...initialStatus('expectimax', 0), site: 'x.test' };
const board = (cells: number[]): Grid => ({ rows: 2, cols: 2, cells });
/** A game's record (with an id, or without one as before ids), `moves` long, ended as `outcome`. */
const record = (gameId: string | undefined, moves: number, outcome: GameRecord['outcome'] = 'stopped'): GameRecord => ({
  ...(gameId ? { gameId } : {}),
  site: 'x.test',
  adapter: 'fake',
  strategy: 'expectimax',
  score: 0,
  bestTile: 2,
  moves,
  ms: 0,
  desyncs: 0,
  endedAt: 1_700_000_000_000,
  outcome,
});

describe('GameTally: one id per game', () => {
  it('keeps the game across a stop, and counts every move of it', () => {
    const tally = new GameTally();
    tally.observe(board([2, 0, 0, 2]), 0);
    tally.count(0, false);
    const stopped = tally.finish('stopped', STATUS, 'expectimax', 'fake', 10);
    tally.observe(board([4, 2, 0, 0]), 20);
    tally.count(4, false);
    const over = tally.finish('over', STATUS, 'expectimax', 'fake', 30);
    expect(stopped?.gameId).toBeDefined();
    expect(over?.gameId).toBe(stopped?.gameId);
    expect(over?.moves).toBe(2);
  });

  it('keeps recording the replay across a stop: the last record holds every move of the game', () => {
    const tally = new GameTally();
    const a = board([2, 0, 0, 2]);
    const b = board([4, 0, 2, 0]);
    const c = board([4, 2, 0, 2]);
    tally.observe(a, 0);
    tally.count(0, false, { before: a, move: 'left', after: b, thinkMs: 5 });
    const stopped = tally.finish('stopped', STATUS, 'expectimax', 'fake', 10);
    tally.observe(b, 20);
    tally.count(0, false, { before: b, move: 'down', after: c, thinkMs: 6 });
    const over = tally.finish('over', STATUS, 'expectimax', 'fake', 30);
    expect(stopped?.replay?.n).toBe(1);
    expect(over?.replay?.n).toBe(2);
    expect(over?.replay?.start).toEqual(a.cells);
    // The game ended: the next one starts a fresh replay.
    tally.observe(a, 40);
    tally.count(0, false, { before: a, move: 'left', after: b, thinkMs: 5 });
    expect(tally.finish('stopped', STATUS, 'expectimax', 'fake', 50)?.replay?.n).toBe(1);
  });

  it('starts a new game after one ended, and when the board holds less than before', () => {
    const tally = new GameTally();
    tally.observe(board([2, 2, 4, 8]), 0);
    tally.count(0, false);
    const first = tally.id;
    tally.finish('over', STATUS, 'expectimax', 'fake', 1);
    expect(tally.id).not.toBe(first);
    const second = tally.id;
    tally.count(0, false);
    tally.observe(board([2, 0, 0, 2]), 2); // a new game was started by hand
    expect(tally.id).not.toBe(second);
    expect(tally.finish('stopped', STATUS, 'expectimax', 'fake', 3)).toBeNull();
  });

  it('an undo is the same game: the board holds at most the tiles its moves spawned less', () => {
    const tally = new GameTally();
    tally.observe(board([8, 4, 4, 2]), 0);
    tally.count(0, false);
    const id = tally.id;
    tally.observe(board([8, 4, 4, 0]), 1); // one move undone: its spawned 2 is gone
    expect(tally.id).toBe(id);
    tally.observe(board([8, 4, 0, 0]), 2); // and one more: its 4
    expect(tally.id).toBe(id);
    tally.observe(board([0, 2, 0, 2]), 3); // a fresh board is a new game whatever the drop
    expect(tally.id).not.toBe(id);
  });
});

describe('the game log records a game once', () => {
  const appendGame = (games: readonly GameRecord[], next: GameRecord, options?: LogBounds & { fallback?: boolean }): readonly GameRecord[] =>
    addGame({ games, aside: [] }, next, options).log.games;

  it('replaces an earlier record of the same game, keeps other games', () => {
    let log = appendGame([], record('g-1', 3, 'stopped'));
    log = appendGame(log, record('g-2', 5, 'over'));
    log = appendGame(log, record('g-1', 9, 'over'));
    expect(log.map((r) => [r.gameId, r.moves, r.outcome])).toEqual([
      ['g-2', 5, 'over'],
      ['g-1', 9, 'over'],
    ]);
  });

  it('a fallback guess (the background’s, when a page went away) leaves a known game with as many moves as it is', () => {
    const log = appendGame([record('g-1', 9, 'stopped')], record('g-1', 4, 'stopped'), { fallback: true });
    expect(log).toEqual([record('g-1', 9, 'stopped')]);
    expect(appendGame(log, record('g-3', 3, 'stopped'), { fallback: true })).toHaveLength(2);
    // A guess with more moves (the game went on after its last record) takes its numbers.
    expect(appendGame(log, record('g-1', 12, 'stopped'), { fallback: true })).toEqual([record('g-1', 12, 'stopped')]);
  });

  it('appends records without an id as before', () => {
    expect(appendGame([record(undefined, 1, 'over')], record(undefined, 1, 'over'))).toHaveLength(2);
  });
});

describe('GameReporter: a game is sent until the background answers', () => {
  const until = async (check: () => boolean): Promise<void> => {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 2));
    }
  };

  it('again after failures, the newest record of a game only, and nothing more once answered', async () => {
    let failures = 3;
    const delivered: GameRecord[] = [];
    const send = createSend(async (message: Message) => {
      if (message.kind !== 'content/game-finished') return { ok: false, error: 'unexpected' };
      if (failures-- > 0) throw new Error('Could not establish connection. Receiving end does not exist.');
      delivered.push(message.record);
      return { ok: true };
    });
    const reporter = new GameReporter(send, () => true, [1, 2, 4]);
    reporter.report(record('g-1', 3));
    reporter.report(record('g-1', 5));
    reporter.report(record('g-2', 1));
    await until(() => delivered.length === 2);
    expect(delivered.map((r) => [r.gameId, r.moves])).toEqual([
      ['g-1', 5],
      ['g-2', 1],
    ]);
    expect(reporter.unsent()).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(delivered).toHaveLength(2);
  });

  it('games beyond the 20 that may wait are let go, never without a word: the count goes with the next record sent', async () => {
    let reachable = false;
    const delivered: { record: GameRecord; lost?: number }[] = [];
    const send = createSend(async (message: Message) => {
      if (message.kind !== 'content/game-finished') return { ok: false, error: 'unexpected' };
      if (!reachable) throw new Error('Could not establish connection. Receiving end does not exist.');
      delivered.push({ record: message.record, ...(message.lost !== undefined ? { lost: message.lost } : {}) });
      return { ok: true };
    });
    const reporter = new GameReporter(send, () => true, [1]);
    for (let i = 0; i < 25; i++) reporter.report(record(`g-${i}`, 10 + i));
    expect(reporter.unsent()).toHaveLength(20);
    reachable = true;
    reporter.report(record('g-25', 50));
    await until(() => delivered.length === 20);
    // The oldest five (and g-5, pushed out by g-25) went: six told, once.
    expect(delivered.map((d) => d.lost ?? 0).reduce((a, b) => a + b, 0)).toBe(6);
    expect(delivered[0].lost).toBe(6);
    expect(delivered.slice(1).every((d) => d.lost === undefined)).toBe(true);
  });

  it('a refusal is an answer (not sent again); without the extension, records wait for the handover', async () => {
    let calls = 0;
    const refusing = createSend(async () => {
      calls++;
      return { ok: false, error: 'Malformed message' };
    });
    const reporter = new GameReporter(refusing, () => true, [1]);
    reporter.report(record('g-1', 1));
    await until(() => reporter.unsent().length === 0);
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBe(1);

    const orphan = new GameReporter(refusing, () => false, [1]);
    orphan.report(record('g-2', 2));
    await new Promise((r) => setTimeout(r, 10));
    expect(orphan.unsent()).toEqual([record('g-2', 2)]);
    expect(calls).toBe(1);
  });
});
