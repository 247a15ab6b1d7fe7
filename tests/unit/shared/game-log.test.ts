import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ASIDE_STORAGE_KEY, addGame, deleteFromLog, filterGames, gameKey, importCandidates, importIntoLog, readLog, sitesOf, summarize } from '../../../src/shared/game-log';
import { IMPORT_MAX_CHARS, ImportError, csvField, exportCsv, exportJson, importGames, parseCsv } from '../../../src/shared/game-log-io';
import { median } from '../../../src/shared/statistics';
import { randomReplay } from '../../support/replays';
import type { GameRecord } from '../../../src/shared/messages';

const replayOf = (n: number, seed: number) => randomReplay(n, seed, { thinkMs: 100, pauseMs: 0, depth: 3, playouts: 100 });

const games: GameRecord[] = [
  { gameId: 'g-1-abc', site: 'a.test', adapter: 'classic', strategy: 'expectimax', score: 20_000, bestTile: 2048, moves: 900, ms: 60_000, desyncs: 0, endedAt: 1_700_000_000_000, outcome: 'won', replay: replayOf(50, 1) },
  { site: 'b.test:8080', adapter: 'geometry', strategy: 'expectimax', score: 8_000, bestTile: 512, moves: 500, ms: 30_000, desyncs: 1, endedAt: 1_700_000_100_000, outcome: 'over' },
  { gameId: 'g-2-def', site: 'a.test', adapter: 'classic', strategy: 'random', score: null, bestTile: 128, moves: 120, ms: 2_000, desyncs: 0, endedAt: 1_700_000_200_000, outcome: 'stopped', replay: replayOf(30, 2) },
  { site: 'a.test', adapter: 'classic', strategy: 'expectimax', score: 30_000, bestTile: 4096, moves: 1500, ms: 90_000, desyncs: 0, endedAt: 1_700_000_300_000, outcome: 'over' },
];

describe('history: filters and summary', () => {
  it('filters by strategy and site', () => {
    expect(filterGames(games, { strategy: 'expectimax' })).toHaveLength(3);
    expect(filterGames(games, { strategy: 'expectimax', site: 'a.test' })).toHaveLength(2);
    expect(filterGames(games, {})).toHaveLength(4);
    expect(sitesOf(games)).toEqual(['a.test', 'b.test:8080']);
  });

  it('summarizes per strategy: games, reach rate per tile, median score', () => {
    const [expectimax, random] = summarize(games);
    expect(expectimax.strategy).toBe('expectimax');
    expect(expectimax.games).toBe(3);
    expect(expectimax.reached[512]).toBe(1);
    expect(expectimax.reached[2048]).toBeCloseTo(2 / 3);
    expect(expectimax.reached[4096]).toBeCloseTo(1 / 3);
    expect(expectimax.reached[8192]).toBe(0);
    expect(expectimax.medianScore).toBe(20_000);
    expect(random.strategy).toBe('random');
    expect(random.medianScore).toBeNull();
    expect(median([1, 2, 3, 10])).toBe(2.5);
  });
});

describe('history: export and import', () => {
  it('JSON round-trips every field, replays included', () => {
    const back = importGames(exportJson(games));
    expect(back.skipped).toBe(0);
    expect(back.games).toEqual(games);
  });

  it('CSV round-trips every field, replays included (quotes and commas in the replay and coach fields)', () => {
    const back = importGames(exportCsv(games));
    expect(back.skipped).toBe(0);
    expect(back.games).toEqual(games);
  });

  it('a coached game keeps its grades through CSV and JSON', () => {
    const coached: GameRecord = {
      ...games[0],
      gameId: 'c-1-xyz',
      coach: { graded: 2, accuracy: 62.5, counts: { best: 1, good: 0, inaccuracy: 0, mistake: 1, blunder: 0 }, marks: '!-m', better: '--l', resyncs: 1 },
    };
    for (const text of [exportCsv([coached, games[1]]), exportJson([coached, games[1]])]) {
      const back = importGames(text);
      expect(back.skipped).toBe(0);
      expect(back.games).toEqual([coached, games[1]]);
    }
    // Grades that do not validate: the record is skipped, not imported without them.
    expect(importGames(exportCsv([{ ...coached, coach: { ...coached.coach!, better: 'xyz' } }])).skipped).toBe(1);
  });

  it('CSV without the optional gameId and coach columns (an older export) still imports', () => {
    const old = [games[1], games[3]];
    const lines = exportCsv(old)
      .trimEnd()
      .split('\r\n')
      .map((line) => line.slice(0, line.lastIndexOf(',')))
      .map((line) => line.slice(0, line.lastIndexOf(',')));
    expect(lines[0].endsWith('replay')).toBe(true);
    const back = importGames(lines.join('\r\n'));
    expect(back.skipped).toBe(0);
    expect(back.games).toEqual(old);
  });

  it('skips bad records with a count, and refuses a file that is not an export', () => {
    const json = JSON.stringify({ games: [games[0], { junk: 1 }] });
    expect(importGames(json)).toEqual({ games: [games[0]], skipped: 1, truncated: 0 });
    const csv = exportCsv(games).replace('won', 'maybe');
    expect(importGames(csv).skipped).toBe(1);
    expect(() => importGames('{not json')).toThrow(ImportError);
    expect(() => importGames('a,b\n1,2')).toThrow(ImportError);
    expect(() => importGames('{"x": 1}')).toThrow(ImportError);
  });

  it('CSV parser: any field text survives a round trip', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const text = rows.map((r) => r.map((f) => (/[",\n\r]/.test(f) || f === '' ? `"${f.replace(/"/g, '""')}"` : f)).join(',')).join('\r\n');
        expect(parseCsv(text)).toEqual(rows);
      }),
    );
  });

  it('merging an import adds no game twice and keeps the log in time order', () => {
    const change = importIntoLog(readLog(games.slice(0, 2)), [games[3], games[0], games[2]]);
    expect(change.log.games.map((g) => g.endedAt)).toEqual(games.map((g) => g.endedAt));
    expect(change).toMatchObject({ added: 2, duplicates: 1, evicted: 0, refused: 0 });
  });

  it('CSV cells a spreadsheet would take for formulas get an apostrophe, which the import takes off', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvField(text).replace(/^"/, '')).toMatch(/^'/);
    expect(csvField('a-b')).toBe('a-b');
    const dashed: GameRecord = { ...games[1], site: '-dash.test', gameId: '-g-1' };
    const csv = exportCsv([dashed]);
    expect(csv).toContain(",'-dash.test,");
    expect(importGames(csv).games).toEqual([dashed]);
  });

  it('refuses a file over the size cap, with the reason', () => {
    expect(() => importGames(' '.repeat(IMPORT_MAX_CHARS + 1))).toThrow(expect.objectContaining({ reason: 'tooLarge' }));
  });
});

describe('the stored log keeps what it cannot read', () => {
  it('records that do not validate move aside raw, and stay there through every change', () => {
    const junk = [{ ...games[1], strategy: 'tables' }, { ...games[1], endedAt: 1e300 }, 'x'];
    const log = readLog([games[0], ...junk, games[2]], [{ old: true }]);
    expect(log.games).toEqual([games[0], games[2]]);
    expect(log.aside).toEqual([{ old: true }, ...junk]);
    let next = addGame(log, games[3]).log;
    next = importIntoLog(next, [games[1]]).log;
    next = deleteFromLog(next, gameKey(games[0])).log;
    expect(next.aside).toEqual(log.aside);
    expect(next.games.map(gameKey)).toEqual([games[1], games[2], games[3]].map(gameKey));
    // Exported with the JSON, and imported again where they read.
    const back = importGames(exportJson(next.games, [games[0], 'junk']));
    expect(back.games.map(gameKey).sort()).toEqual([...next.games, games[0]].map(gameKey).sort());
    expect(back.skipped).toBe(1);
    expect(ASIDE_STORAGE_KEY).toBe('gamesUnreadable');
  });

  it('only the games that could enter the log are sent from a large import', () => {
    const many = Array.from({ length: 400 }, (_, i) => ({ ...games[1], endedAt: games[1].endedAt + i }));
    const candidates = importCandidates(many);
    expect(candidates.games).toHaveLength(300);
    expect(candidates.refused).toBe(100);
    expect(candidates.games[0].endedAt).toBe(games[1].endedAt + 100);
  });
});
