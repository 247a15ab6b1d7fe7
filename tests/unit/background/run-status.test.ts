import { describe, expect, it } from 'vitest';
import { SITE_GAMES_CAP, addGame, readGames, readLog } from '../../../src/shared/game-log';
import { readStatus, statusKey } from '../../../src/shared/run-status-store';
import { ShownBadges, badgeFor, shortTile } from '../../../src/background/badge';
import { errorStatus, injectionError, statusAfterPageEnd, stoppedGameRecord, toggleCommand } from '../../../src/background/run-status';
import { GameRecordSchema, RunStatusSchema } from '../../../src/shared/messages';
import type { GameRecord, RunStatus } from '../../../src/shared/messages';

const RUNNING: RunStatus = {
  state: 'moving',
  adapter: 'classic',
  site: '127.0.0.1',
  strategy: 'expectimax',
  score: 1_000,
  bestTile: 128,
  moves: 90,
  movesPerSecond: 10,
  depth: 3,
  desyncs: 1,
  lastMove: 'down',
  running: true,
  updatedAt: 5,
};
const IDLE: RunStatus = { ...RUNNING, state: 'idle', running: false };

function record(i: number): GameRecord {
  return { site: 's', adapter: 'a', strategy: 'greedy', score: i, bestTile: 2, moves: i, ms: 1, desyncs: 0, endedAt: T0 + i, outcome: 'over' };
}
const T0 = 1_700_000_000_000;
const appendGame = (stored: unknown, next: GameRecord, bounds: { cap?: number } = {}): readonly GameRecord[] => addGame(readLog(stored), next, bounds).log.games;

describe('storage keys', () => {
  it('keeps a tab status under status:<tabId>', () => {
    expect(statusKey(42)).toBe('status:42');
  });
});

describe('page end (reload, navigation, closed tab)', () => {
  it('rewrites a running status to idle with the reason', () => {
    const after = statusAfterPageEnd(RUNNING, 'reloaded', 99);
    expect(after).toMatchObject({ state: 'idle', running: false, message: { code: 'stoppedReloaded' }, updatedAt: 99, moves: 90 });
    expect(RunStatusSchema.safeParse(after).success).toBe(true);
    expect(statusAfterPageEnd(RUNNING, 'left', 1)?.message).toEqual({ code: 'stoppedLeft' });
    expect(statusAfterPageEnd({ ...RUNNING, running: false, state: 'paused' }, 'reloaded', 1)?.state).toBe('idle');
  });

  it('leaves a status at rest alone', () => {
    expect(statusAfterPageEnd(IDLE, 'reloaded', 1)).toBeNull();
    expect(statusAfterPageEnd({ ...IDLE, state: 'over' }, 'reloaded', 1)).toBeNull();
    expect(statusAfterPageEnd(null, 'closed', 1)).toBeNull();
  });

  it('records the interrupted game as stopped', () => {
    const game = stoppedGameRecord(RUNNING, T0 + 1234);
    expect(GameRecordSchema.safeParse(game).success).toBe(true);
    expect(game).toMatchObject({ outcome: 'stopped', moves: 90, bestTile: 128, score: 1_000, ms: 9_000, endedAt: T0 + 1234, adapter: 'classic' });
    expect(stoppedGameRecord({ ...RUNNING, moves: 0 }, 1)).toBeNull();
    expect(stoppedGameRecord(IDLE, 1)).toBeNull();
  });
});

describe('game log', () => {
  it('appends, drops invalid entries and caps the log, oldest out first', () => {
    expect(appendGame(undefined, record(1))).toEqual([record(1)]);
    expect(appendGame([record(1), { junk: true }, 'x'], record(2))).toEqual([record(1), record(2)]);
    const full = Array.from({ length: SITE_GAMES_CAP }, (_, i) => record(i));
    const next = appendGame(full, record(5_000));
    expect(next).toHaveLength(SITE_GAMES_CAP);
    expect(next[0]).toEqual(record(1));
    expect(next[next.length - 1]).toEqual(record(5_000));
    expect(appendGame([record(3), record(4), record(5)], record(6), { cap: 2 })).toEqual([record(5), record(6)]);
  });

  it('reads only valid records and statuses', () => {
    expect(readGames({ not: 'an array' })).toEqual([]);
    expect(readStatus(RUNNING)).toEqual(RUNNING);
    expect(readStatus({ state: 'idle' })).toBeNull();
  });
});

describe('badge', () => {
  it('shows the best tile while playing, a mark for paused and errors, nothing at rest', () => {
    expect(badgeFor(RUNNING).text).toBe('128');
    expect(badgeFor({ ...RUNNING, bestTile: 0 }).text).toBe('▶');
    expect(badgeFor({ ...RUNNING, bestTile: 16_384 }).text).toBe('16k');
    expect(badgeFor({ ...IDLE, state: 'paused' }).text).toBe('II');
    expect(badgeFor({ ...IDLE, state: 'error' }).text).toBe('!');
    expect(badgeFor(IDLE).text).toBe('');
    expect(badgeFor(null).text).toBe('');
  });

  it('is set again only when it changes, per tab, and after its tab forgot it', () => {
    const shown = new ShownBadges();
    expect(shown.changed(1, badgeFor(RUNNING))).toBe(true);
    // The next moves of the run: the same badge, nothing to set; another tab has its own.
    expect(shown.changed(1, badgeFor({ ...RUNNING, moves: RUNNING.moves + 1 }))).toBe(false);
    expect(shown.changed(2, badgeFor(RUNNING))).toBe(true);
    expect(shown.changed(1, badgeFor({ ...RUNNING, bestTile: 256 }))).toBe(true);
    // The same text in another colour (won, after playing at 256) is a change too.
    expect(shown.changed(1, badgeFor({ ...IDLE, state: 'won', bestTile: 256 }))).toBe(true);
    // The page went: the badge is set again, whatever it was.
    shown.forget(1);
    expect(shown.changed(1, badgeFor({ ...IDLE, state: 'won', bestTile: 256 }))).toBe(true);
  });

  it('fits every tile in four characters', () => {
    for (let v = 2; v <= 1 << 17; v *= 2) expect(shortTile(v).length).toBeLessThanOrEqual(4);
  });
});

describe('errors for the popup', () => {
  it('builds a valid error status that keeps the last numbers', () => {
    const status = errorStatus({ code: 'noPermission' }, 'greedy', RUNNING, 7);
    expect(RunStatusSchema.safeParse(status).success).toBe(true);
    expect(status).toMatchObject({ state: 'error', running: false, message: { code: 'noPermission' }, moves: 90 });
    expect(errorStatus({ code: 'tabGone' }, 'greedy', null, 7)).toMatchObject({ strategy: 'greedy', moves: 0, state: 'error' });
  });

  it('tells refused injections apart, with a code the pages word', () => {
    expect(injectionError(new Error('Cannot access a chrome:// URL'))).toEqual({ code: 'storePage' });
    expect(injectionError(new Error('x'), 'chrome://settings')).toEqual({ code: 'browserPage' });
    expect(injectionError(new Error('Cannot access contents of the page. Extension manifest must request permission to access the respective host.'))).toEqual({
      code: 'noPermission',
    });
    expect(injectionError(new Error('No tab with id: 5.'))).toEqual({ code: 'tabGone' });
    expect(injectionError('weird')).toEqual({ code: 'cannotStart', params: ['weird'] });
  });
});

describe('keyboard toggle', () => {
  it('stops a running game and solves otherwise', () => {
    expect(toggleCommand(RUNNING)).toBe('stop');
    expect(toggleCommand(IDLE)).toBe('solve');
    expect(toggleCommand({ ...IDLE, state: 'paused' })).toBe('solve');
    expect(toggleCommand(null)).toBe('solve');
  });
});
