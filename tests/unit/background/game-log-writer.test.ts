import { describe, expect, it } from 'vitest';
import { GameLogWriter } from '../../../src/background/game-log-writer';
import type { StorageArea } from '../../../src/background/game-log-writer';
import { LiveGames, isNewSession } from '../../../src/background/live-games';
import { OLD_TABLES_DATABASE, deleteOldTables } from '../../../src/background/old-data';
import { GAME_CHUNKS, chunkOf, gamesChunkKey, readStoredLog } from '../../../src/shared/game-log-parts';
import type { GameRecord, RunStatus } from '../../../src/shared/messages';

const T0 = 1_700_000_000_000;

/** A storage area in memory; `refuse` makes every write fail as a full storage does. */
function area(initial: Record<string, unknown> = {}): StorageArea & { items: Record<string, unknown>; refuse: boolean; writes: number; written: string[][] } {
  const store = {
    items: { ...initial },
    refuse: false,
    writes: 0,
    /** The keys of each write, in order. */
    written: [] as string[][],
    get: (keys: string[]) => Promise.resolve(Object.fromEntries(keys.filter((k) => k in store.items).map((k) => [k, structuredClone(store.items[k])]))),
    set: async (items: Record<string, unknown>) => {
      await Promise.resolve();
      if (store.refuse) throw new Error('QUOTA_BYTES quota exceeded');
      store.writes++;
      store.written.push(Object.keys(items));
      Object.assign(store.items, structuredClone(items));
    },
    remove: (keys: string[]) => {
      for (const key of keys) delete store.items[key];
      return Promise.resolve();
    },
  };
  return store;
}

/** The games the area holds, as the popup and the panel read them. */
function stored(local: { items: Record<string, unknown> }): readonly GameRecord[] {
  return readStoredLog(local.items).games;
}

function game(i: number, extra: Partial<GameRecord> = {}): GameRecord {
  return { gameId: `g-${i}`, site: 'a.test', adapter: 'classic', strategy: 'greedy', score: i, bestTile: 64, moves: 10 + i, ms: 5, desyncs: 0, endedAt: T0 + i, outcome: 'over', ...extra };
}

describe('the game log’s one writer', () => {
  it('an import and a recording at the same time: both are kept', async () => {
    const local = area({ games: [game(1)] });
    const writer = new GameLogWriter(local, area());
    const imported = [game(2), game(3), game(4)];
    const [reply] = await Promise.all([writer.importGames(imported), writer.record(game(5)), writer.record(game(6))]);
    expect(reply).toMatchObject({ added: 3, failed: false });
    expect(stored(local).map((g) => g.gameId)).toEqual(['g-1', 'g-2', 'g-3', 'g-4', 'g-5', 'g-6']);
  });

  it('keeps records it cannot read aside, through every write, until the history is cleared', async () => {
    const local = area({ games: [game(1), { ...game(2), strategy: 'tables' }] });
    const writer = new GameLogWriter(local, area());
    await writer.record(game(3));
    expect(local.items.gamesUnreadable).toEqual([{ ...game(2), strategy: 'tables' }]);
    await writer.deleteGame('g-1');
    await writer.record(game(4));
    expect(local.items.gamesUnreadable).toHaveLength(1);
    expect(stored(local).map((g) => g.gameId)).toEqual(['g-3', 'g-4']);
    expect(await writer.clear()).toMatchObject({ deleted: 3 });
    expect(stored(local)).toEqual([]);
    expect(local.items).toMatchObject({ gamesUnreadable: [] });
    expect(local.items.games).toBeUndefined();
  });

  it('a write the storage refuses changes nothing, and the notice counts the games not saved', async () => {
    const local = area({ games: [game(1)] });
    const session = area();
    const writer = new GameLogWriter(local, session, () => T0 + 42);
    local.refuse = true;
    expect(await writer.record(game(2))).toMatchObject({ failed: true, added: 0 });
    expect(await writer.record(game(3))).toMatchObject({ failed: true });
    expect(await writer.importGames([game(4)])).toMatchObject({ failed: true });
    expect(stored(local)).toEqual([game(1)]);
    expect(session.items.historyNotice).toEqual({ unsaved: 2, full: 0, short: 0, future: 0, unreadable: 0, lost: 0, since: T0 + 42 });
    // Room made (a game deleted): the notice goes.
    local.refuse = false;
    await writer.deleteGame('g-1');
    expect(session.items.historyNotice).toBeUndefined();
  });
});

describe('the log in parts', () => {
  it('a game recorded writes its own part and the part of the game it made room with, no other', async () => {
    const other = Array.from({ length: 40 }, (_, i) => game(100 + i, { site: 'b.test', endedAt: T0 - 1_000 + i }));
    const mine = Array.from({ length: 300 }, (_, i) => game(1_000 + i, { endedAt: T0 + i }));
    const local = area();
    const writer = new GameLogWriter(local, area(), () => T0 + 10_000);
    await writer.importGames([...other, ...mine]);
    expect(Object.keys(local.items).filter((key) => key.startsWith('games:'))).toHaveLength(GAME_CHUNKS);
    const newest = game(2_000, { endedAt: T0 + 5_000 });
    expect(await writer.record(newest)).toMatchObject({ added: 1, evicted: 1 });
    // The site's oldest game (1 000) made room.
    expect(local.written.at(-1)?.sort()).toEqual([...new Set([gamesChunkKey(chunkOf(newest)), gamesChunkKey(chunkOf(mine[0]))])].sort());
    expect(stored(local)).toEqual([...other, ...mine.slice(1), newest]);
    // Each part holds its own games, in end-time order.
    for (let chunk = 0; chunk < GAME_CHUNKS; chunk++) {
      expect(local.items[gamesChunkKey(chunk)]).toEqual(stored(local).filter((g) => chunkOf(g) === chunk));
    }
    // A game deleted: its part alone.
    await writer.deleteGame('g-1100');
    expect(local.written.at(-1)).toEqual([gamesChunkKey(chunkOf(game(1_100)))]);
  });

  it('an earlier version’s whole log is read, and moves into the parts when a session starts or at the next change', async () => {
    const old = [game(1), { junk: true }, game(2), game(3)];
    const local = area({ games: old });
    // Read as it is: the unreadable record aside.
    expect(readStoredLog(local.items)).toEqual({ games: [game(1), game(2), game(3)], aside: [{ junk: true }] });
    const writer = new GameLogWriter(local, area(), () => T0 + 100);
    await writer.migrate();
    expect(local.items.games).toBeUndefined();
    expect(stored(local)).toEqual([game(1), game(2), game(3)]);
    expect(local.items.gamesUnreadable).toEqual([{ junk: true }]);
    // Nothing more to move: no write.
    const writes = local.writes;
    await writer.migrate();
    expect(local.writes).toBe(writes);

    // Stopped between writing the parts and removing the old log: a game in both counts once, as its part has it.
    const both = area({ games: [game(1), game(2, { score: 7 })], [gamesChunkKey(chunkOf(game(2)))]: [game(2)] });
    expect(stored(both)).toEqual([game(1), game(2)]);
    await new GameLogWriter(both, area(), () => T0 + 100).record(game(4));
    expect(both.items.games).toBeUndefined();
    expect(stored(both)).toEqual([game(1), game(2), game(4)]);
  });

  it('a part that is not a list is kept aside whole', () => {
    const odd = { note: 'an object, not a list' };
    expect(readStoredLog({ [gamesChunkKey(3)]: odd, [gamesChunkKey(5)]: [game(1)] })).toEqual({ games: [game(1)], aside: [odd] });
  });
});

describe('what the history does not keep, it says', () => {
  it('a game dated after tomorrow, a stopped game of 2 moves, a game its site has no room for, games a page let go: each counted in the notice', async () => {
    const local = area({ games: [game(1)] });
    const session = area();
    const writer = new GameLogWriter(local, session, () => T0 + 100);
    expect(await writer.record(game(2, { endedAt: Date.UTC(2199, 0, 1) }))).toMatchObject({ added: 0, future: 1, failed: false });
    expect(await writer.record(game(3, { moves: 2, outcome: 'stopped' }))).toMatchObject({ added: 0, short: 1 });
    // Neither is read into the log nor rewrites it (a page resetting its board sends one per reset).
    expect(local.writes).toBe(0);
    // A finished game of 2 moves is a game: kept.
    expect(await writer.record(game(4, { moves: 2, outcome: 'over' }))).toMatchObject({ added: 1 });
    await writer.noteLost(5);
    expect(session.items.historyNotice).toMatchObject({ unsaved: 0, full: 0, short: 1, future: 1, unreadable: 0, lost: 5, since: T0 + 100 });
    expect(stored(local).map((g) => g.gameId)).toEqual(['g-1', 'g-4']);
  });

  it('a site full of its own newer games: the older game is refused and counted, no other site’s game leaves', async () => {
    const other = Array.from({ length: 5 }, (_, i) => game(100 + i, { site: 'b.test', endedAt: T0 - 1_000 + i }));
    const mine = Array.from({ length: 300 }, (_, i) => game(1_000 + i, { site: 'a.test', endedAt: T0 + i }));
    const local = area({ games: [...other, ...mine] });
    const session = area();
    const writer = new GameLogWriter(local, session, () => T0 + 10_000);
    // Newer: the site's own oldest game makes room.
    expect(await writer.record(game(2_000, { endedAt: T0 + 5_000 }))).toMatchObject({ added: 1, evicted: 1, refused: 0 });
    // Older than all 300 of its site: refused, counted.
    expect(await writer.record(game(2_001, { endedAt: T0 - 5 }))).toMatchObject({ added: 0, evicted: 0, refused: 1 });
    const kept = stored(local);
    expect(kept.filter((g) => g.site === 'b.test')).toEqual(other);
    expect(kept.filter((g) => g.site === 'a.test')).toHaveLength(300);
    expect(session.items.historyNotice).toMatchObject({ full: 1 });
  });

  it('unreadable records beyond the room aside are dropped, counted; a `games` value that is no list is kept aside', async () => {
    const junk = Array.from({ length: 130 }, (_, i) => ({ junk: i }));
    const local = area({ games: [game(1), ...junk] });
    const session = area();
    const writer = new GameLogWriter(local, session, () => T0 + 100);
    await writer.record(game(2));
    expect(local.items.gamesUnreadable).toHaveLength(100);
    expect(session.items.historyNotice).toMatchObject({ unreadable: 30 });
    const odd = area({ games: { '0': game(1), note: 'an object, not a list' } });
    await new GameLogWriter(odd, area(), () => T0 + 100).record(game(3));
    expect(odd.items.gamesUnreadable).toEqual([{ '0': game(1), note: 'an object, not a list' }]);
    expect(stored(odd)).toEqual([game(3)]);
  });
});

describe('games in play across an extension update', () => {
  const playing = (gameId: string, moves: number): RunStatus => ({
    state: 'moving',
    running: true,
    gameId,
    site: 'a.test',
    adapter: 'classic',
    strategy: 'expectimax',
    score: 100,
    bestTile: 64,
    moves,
    movesPerSecond: 10,
    depth: 2,
    desyncs: 0,
    lastMove: 'left',
    updatedAt: T0,
  });

  it('keeps the game of a playing tab in storage.local (throttled), and forgets it when the run stops', async () => {
    const local = area();
    const live = new LiveGames(local, { record: () => Promise.reject(new Error('not now')) }, Promise.resolve(false));
    await live.note(7, playing('g-a', 5), T0);
    await live.note(7, playing('g-a', 6), T0 + 500);
    expect(local.writes).toBe(1);
    await live.note(7, playing('g-a', 30), T0 + 2_500);
    expect((local.items.liveGames as Record<string, GameRecord>)['7']).toMatchObject({ gameId: 'g-a', moves: 30, outcome: 'stopped' });
    await live.note(7, { ...playing('g-a', 31), state: 'idle', running: false }, T0 + 2_600);
    expect(local.items.liveGames).toEqual({});
  });

  it('a new session records the games left in play as fallbacks, once', async () => {
    const session = area();
    expect(await isNewSession(session, T0)).toBe(true);
    expect(await isNewSession(session, T0 + 1)).toBe(false);
    const local = area({ liveGames: { '7': game(1, { outcome: 'stopped' }), '8': { junk: true } } });
    const recorded: [GameRecord, unknown][] = [];
    const live = new LiveGames(local, { record: (r, o) => (recorded.push([r, o]), Promise.resolve({ added: 1, duplicates: 0, evicted: 0, refused: 0, short: 0, future: 0, truncated: 0, deleted: 0, failed: false })) }, Promise.resolve(true));
    await live.settled();
    expect(recorded).toEqual([[game(1, { outcome: 'stopped' }), { fallback: true }]]);
    expect(local.items.liveGames).toBeUndefined();
  });

  it('the old endgame tables’ database is deleted, and a browser without IndexedDB is no failure', async () => {
    const asked: string[] = [];
    const factory = {
      deleteDatabase(name: string) {
        asked.push(name);
        const request = {} as IDBOpenDBRequest;
        setTimeout(() => (request.onsuccess as (() => void) | null)?.(), 1);
        return request;
      },
    };
    await deleteOldTables(factory);
    expect(asked).toEqual([OLD_TABLES_DATABASE]);
    await expect(deleteOldTables(undefined)).resolves.toBeUndefined();
  });
});
