/**
 * A history no page can flush (src/shared/game-log.ts, src/shared/history.ts): a site makes room with its
 * own oldest games only (300 a site, 600 in all), stopped games shorter than 3 moves are not kept, a replay
 * keeps at most 200 whole boards, nothing dated later than a day from now is kept, and every refusal is
 * counted in what the change says.
 */
import { describe, expect, it } from 'vitest';
import { addGame, importCandidates, importIntoLog, readLog, recordSize } from '../../../src/shared/game-log';
import type { GameLog } from '../../../src/shared/game-log';
import { MAX_RESYNC_BOARDS, RESYNC, ReplayRecorder, base64ToBytes, replayFrames } from '../../../src/shared/history';
import { capResyncs } from '../../../src/shared/replay-cut';
import type { Replay } from '../../../src/shared/history';
import { GameRecordSchema } from '../../../src/shared/messages';
import type { GameRecord } from '../../../src/shared/messages';
import type { Grid } from '../../../src/engine/types';

const NOW = Date.UTC(2026, 10, 28);
let nextId = 0;

function game(site: string, endedAt: number, extra: Partial<GameRecord> = {}): GameRecord {
  nextId++;
  return { gameId: `g-${nextId}`, site, adapter: 'classic', strategy: 'expectimax', score: 100, bestTile: 64, moves: 40, ms: 1_000, desyncs: 0, endedAt, outcome: 'over', ...extra };
}

/** A board the page shows that no move explains: a lone tile of `value` in cell `at`. */
function odd(value: number, at: number): Grid {
  const cells = new Array<number>(16).fill(0);
  cells[at] = value;
  return { rows: 4, cols: 4, cells };
}

/** The replay of a page that desyncs every move (every board shown is not one move + one spawn later). */
function desyncingReplay(moves: number): Replay {
  const recorder = new ReplayRecorder();
  let board = odd(2, 0);
  for (let i = 0; i < moves; i++) {
    const after = odd(2 << (i % 10), (i * 7) % 16);
    recorder.add({ before: board, move: 'left', after, thinkMs: 10 });
    board = after;
  }
  return recorder.finish() as Replay;
}

/** The other site's games: 250 games of b.test, older than anything a.test records. */
function otherSite(): GameRecord[] {
  return Array.from({ length: 250 }, (_, i) => game('b.test', NOW - 10_000_000 + i));
}

describe('a history no page can flush', () => {
  it('400 board resets during Solve: no stopped game under 3 moves is kept, the other site’s games all stay', () => {
    let log: GameLog = { games: otherSite(), aside: [] };
    let short = 0;
    for (let i = 0; i < 400; i++) {
      const change = addGame(log, game('a.test', NOW + i, { moves: 1 + (i % 2), outcome: 'stopped' }), { now: NOW });
      short += change.short;
      log = change.log;
    }
    expect(short).toBe(400);
    expect(log.games).toEqual(otherSite().map((g, i) => ({ ...g, gameId: log.games[i].gameId })));
    expect(log.games.every((g) => g.site === 'b.test')).toBe(true);
  });

  it('a site that records game after game (400 of 3 moves) makes room with its own oldest only: 300 of it, every game of the other site stays', () => {
    const other = otherSite();
    let log: GameLog = { games: other, aside: [] };
    let evicted = 0;
    for (let i = 0; i < 400; i++) {
      const change = addGame(log, game('a.test', NOW + i, { moves: 3, outcome: 'stopped' }), { now: NOW });
      evicted += change.evicted;
      log = change.log;
    }
    expect(log.games.filter((g) => g.site === 'b.test')).toEqual(other);
    const mine = log.games.filter((g) => g.site === 'a.test');
    expect(mine).toHaveLength(300);
    expect(mine[0].endedAt).toBe(NOW + 100);
    expect(evicted).toBe(100);
  });

  it('a page that desyncs every one of 2 000 moves: its replay keeps 200 boards, its records never push out another site’s games', () => {
    const replay = desyncingReplay(2_000);
    expect(Object.keys(replay.resyncs ?? {})).toHaveLength(MAX_RESYNC_BOARDS);
    expect(replay.truncated).toBe(true);
    expect(replay.n).toBe(MAX_RESYNC_BOARDS);
    expect(() => replayFrames(replay)).not.toThrow();
    const other = otherSite();
    let log: GameLog = { games: other, aside: [] };
    for (let i = 0; i < 50; i++) {
      const record = game('a.test', NOW + i, { moves: 2_000, desyncs: 2_000, replay });
      expect(GameRecordSchema.safeParse(record).success).toBe(true);
      expect(recordSize(record)).toBeLessThan(30_000);
      log = addGame(log, record, { now: NOW }).log;
    }
    expect(log.games.filter((g) => g.site === 'b.test')).toEqual(other);
  });

  it('a record of 1 MB per game (a replay of many boards from elsewhere) is capped to 200 boards, and no site evicts another even at 6 MB', () => {
    // An import's replay with a board per move: 5 000 of them.
    const recorder = desyncingReplay(150);
    const boards: Record<string, number[]> = {};
    for (let i = 0; i < 5_000; i++) boards[String(i)] = [...odd(4, i % 16).cells];
    const spawns = btoa(String.fromCharCode(...new Array<number>(5_000).fill(RESYNC)));
    const big: Replay = { ...recorder, n: 5_000, moves: btoa('\0'.repeat(1_250)), spawns, think: undefined, resyncs: boards, truncated: undefined };
    const capped = capResyncs(big);
    expect(Object.keys(capped.resyncs ?? {})).toHaveLength(MAX_RESYNC_BOARDS);
    expect(capped.n).toBe(MAX_RESYNC_BOARDS);
    expect(capped.truncated).toBe(true);
    expect(base64ToBytes(capped.spawns)).toHaveLength(MAX_RESYNC_BOARDS);
    // Through the log: capped on the way in.
    const change = addGame({ games: [], aside: [] }, game('a.test', NOW, { replay: big }), { now: NOW });
    expect(change.truncated).toBe(1);
    expect(Object.keys(change.log.games[0].replay?.resyncs ?? {})).toHaveLength(MAX_RESYNC_BOARDS);
  });

  it('600 games in all: a third site’s game is refused when the two others fill it, none of theirs leaves', () => {
    const a = Array.from({ length: 300 }, (_, i) => game('a.test', NOW - 5_000 + i));
    const b = Array.from({ length: 300 }, (_, i) => game('b.test', NOW - 9_000 + i));
    const change = addGame({ games: [...a, ...b], aside: [] }, game('c.test', NOW), { now: NOW });
    expect(change).toMatchObject({ added: 0, refused: 1, evicted: 0 });
    expect(change.log.games).toHaveLength(600);
  });

  it('a stopped game of 2 moves is not kept; a stopped game of 3, and a finished one of 1, are', () => {
    const empty: GameLog = { games: [], aside: [] };
    expect(addGame(empty, game('a.test', NOW, { moves: 2, outcome: 'stopped' }), { now: NOW })).toMatchObject({ added: 0, short: 1 });
    expect(addGame(empty, game('a.test', NOW, { moves: 3, outcome: 'stopped' }), { now: NOW })).toMatchObject({ added: 1, short: 0 });
    expect(addGame(empty, game('a.test', NOW, { moves: 1, outcome: 'over' }), { now: NOW })).toMatchObject({ added: 1, short: 0 });
  });
});

describe('dates from the future', () => {
  it('an import of 300 games dated 2199: none taken, the stored games stay, and a game played after it is recorded', () => {
    const stored = Array.from({ length: 300 }, (_, i) => game('a.test', NOW - 1_000_000 + i));
    const future = Array.from({ length: 300 }, (_, i) => game('a.test', Date.UTC(2199, 0, 1) + i));
    const candidates = importCandidates(future, { now: NOW });
    expect(candidates).toMatchObject({ games: [], refused: 0, future: 300 });
    const change = importIntoLog({ games: stored, aside: [] }, future, { now: NOW });
    expect(change).toMatchObject({ added: 0, future: 300, evicted: 0 });
    expect(change.log.games).toEqual(stored);
    const next = addGame(change.log, game('a.test', NOW + 5), { now: NOW });
    expect(next).toMatchObject({ added: 1, evicted: 1 });
    expect(next.log.games.at(-1)?.endedAt).toBe(NOW + 5);
  });

  it('up to a day ahead is a clock that differs: kept', () => {
    const change = importIntoLog({ games: [], aside: [] }, [game('a.test', NOW + 23 * 3_600_000), game('a.test', NOW + 25 * 3_600_000)], { now: NOW });
    expect(change).toMatchObject({ added: 1, future: 1 });
  });
});

describe('what cannot be read', () => {
  it('a `games` value that is not a list is kept aside whole; aside is bounded, the rest counted', () => {
    expect(readLog('a string, not a list')).toEqual({ games: [], aside: ['a string, not a list'] });
    expect(readLog({ some: 'object' }, [1])).toEqual({ games: [], aside: [1, { some: 'object' }] });
    expect(readLog(undefined)).toEqual({ games: [], aside: [] });
    const log = readLog(Array.from({ length: 150 }, (_, i) => ({ junk: i })));
    expect(log.aside).toHaveLength(100);
    expect(log.droppedAside).toBe(50);
    const big = readLog([{ blob: 'x'.repeat(600_000) }, { blob: 'y'.repeat(600_000) }]);
    expect(big.aside).toHaveLength(1);
    expect(big.droppedAside).toBe(1);
  });
});
