/**
 * The game history against hostile input (a property test): stored logs and import files that mix valid
 * games with huge replays, dates like 1e300, NaN, 10 MB strings, unknown strategies and formula cells.
 * Whatever comes: no valid game is lost (each is in the log, or counted as not fitting), the history
 * view renders a row per game, JSON and CSV exports import back to the same games, no exception escapes.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { STRATEGY_NAMES } from '../../../src/engine/types';
import { GameRecordSchema } from '../../../src/shared/messages';
import type { GameRecord } from '../../../src/shared/messages';
import { RECORD_BYTE_CAP, RESYNC, packMoves, replayFrames } from '../../../src/shared/history';
import type { Replay } from '../../../src/shared/history';
import { gameKey, importIntoLog, readLog, recordSize } from '../../../src/shared/game-log';
import { exportCsv, exportJson, importGames } from '../../../src/shared/game-log-io';
import { randomReplay } from '../../support/replays';

vi.mock('../../../src/ui/panel/charts', () => ({
  ReachChart: class {
    rebuild(): void {}
    update(): void {}
  },
}));

const T0 = Date.UTC(2026, 0, 1);

const playedReplay = (n: number, seed: number): Replay => randomReplay(n, seed, { thinkMs: 50, pauseMs: 0, depth: null, playouts: 100 }, (i) => i % 90);

/** A replay of a page that desynced every move: a whole board per move, ~2.4 MB. */
function hugeReplay(): Replay {
  const n = 20_000;
  const resyncs: Record<string, number[]> = {};
  for (let i = 0; i < n; i++) resyncs[String(i)] = new Array<number>(16).fill(1 << 17);
  const spawns = btoa(String.fromCharCode(RESYNC).repeat(n));
  return { v: 1, rows: 4, cols: 4, start: new Array<number>(16).fill(2), n, moves: packMoves(new Array<number>(n).fill(1)), spawns, resyncs };
}

const REPLAYS = [playedReplay(40, 1), playedReplay(120, 2), playedReplay(8, 3)];
const HUGE = hugeReplay();

/** -0 and 0 are one number in JSON and CSV. */
const plain = (n: number): number => n + 0;

const validGame: fc.Arbitrary<GameRecord> = fc
  .record(
    {
      gameId: fc.stringMatching(/^[a-z0-9-]{1,20}$/),
      site: fc.oneof(fc.stringMatching(/^[a-z0-9.:-]{0,30}$/), fc.constantFrom('', 'unknown', '-dash.test', '127.0.0.1:8000', '[::1]:80')),
      adapter: fc.constantFrom('classic', 'store', 'geometry', 'canvas', 'saved-state', 'unknown'),
      strategy: fc.constantFrom(...STRATEGY_NAMES),
      score: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 4_000_000 }), fc.double({ min: 0, max: 1e9, noNaN: true }).map(plain)),
      bestTile: fc.constantFrom(0, 2, 64, 2048, 1 << 17),
      moves: fc.integer({ min: 0, max: 100_000 }),
      ms: fc.double({ min: 0, max: 1e9, noNaN: true }).map(plain),
      desyncs: fc.integer({ min: 0, max: 1_000 }),
      endedAt: fc.integer({ min: T0, max: T0 + 1e10 }),
      outcome: fc.constantFrom('over' as const, 'won' as const, 'stopped' as const),
      replay: fc.constantFrom(...REPLAYS),
      coach: fc.constant({ graded: 2, accuracy: 50, counts: { best: 1, good: 0, inaccuracy: 0, mistake: 0, blunder: 1 }, marks: '!X-', better: '-l-', resyncs: 0 }),
    },
    { requiredKeys: ['site', 'adapter', 'strategy', 'score', 'bestTile', 'moves', 'ms', 'desyncs', 'endedAt', 'outcome'] },
  )
  .filter((game) => GameRecordSchema.safeParse(game).success);

const HUGE_STRING = 'x'.repeat(10_000_000);

/** Records that must not validate, one hostile field each. */
const hostileGame: fc.Arbitrary<unknown> = fc.tuple(validGame, fc.integer({ min: 0, max: 9 })).map(([game, kind]) => {
  switch (kind) {
    case 0:
      return { ...game, endedAt: 1e300 };
    case 1:
      return { ...game, bestTile: Number.NaN };
    case 2:
      return { ...game, site: HUGE_STRING };
    case 3:
      return { ...game, strategy: 'tables' };
    case 4:
      return { ...game, site: '=HYPERLINK("https://example.test","x")' };
    case 5:
      return { ...game, adapter: '+cmd|calc' };
    case 6:
      return { ...game, moves: -1 };
    case 7:
      return { ...game, replay: { ...REPLAYS[0], n: 1e12 } };
    case 8:
      return { ...game, ms: Number.POSITIVE_INFINITY };
    default:
      return 'junk';
  }
});

/**
 * Up to 30 valid games (one of them, maybe, with a ~2.4 MB replay) and 6 hostile records, in any order;
 * at most one 10 MB string per file.
 */
const mixed = fc
  .tuple(fc.uniqueArray(validGame, { maxLength: 30, selector: (g) => `${g.endedAt}|${g.site}|${g.moves}` }), fc.array(hostileGame, { maxLength: 6 }), fc.nat(), fc.boolean())
  .map(([games, hostile, seed, huge]) => {
    // Distinct games: distinct ids where they have one.
    const valid = games.map((game, i) => ({ ...(game.gameId === undefined ? game : { ...game, gameId: `g-${i}` }), ...(huge && i === 0 ? { replay: HUGE } : {}) }));
    let long = 0;
    const bad = hostile.filter((item) => typeof item !== 'object' || item === null || (item as { site?: string }).site !== HUGE_STRING || long++ === 0);
    const items: unknown[] = [...valid, ...bad];
    for (let i = items.length - 1; i > 0; i--) {
      const j = (seed + i * 7919) % (i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return { valid, bad, items };
  });

const byKey = (games: readonly GameRecord[]): GameRecord[] => [...games].sort((a, b) => (gameKey(a) < gameKey(b) ? -1 : 1));

// ----------------------------------------------------------------------------------- the view (jsdom)

let dom: JSDOM;
beforeAll(() => {
  dom = new JSDOM(readFileSync(new URL('../../../src/ui/panel/index.html', import.meta.url), 'utf8'));
  vi.stubGlobal('document', dom.window.document);
  vi.stubGlobal('Option', dom.window.Option);
});
afterAll(() => {
  vi.unstubAllGlobals();
  dom.window.close();
});

async function renderView(storedGames: unknown[], aside: unknown[]): Promise<{ rows: number; unreadable: string }> {
  vi.stubGlobal('chrome', {
    storage: {
      local: { get: () => Promise.resolve({ games: storedGames, gamesUnreadable: aside }) },
      session: { get: () => Promise.resolve({}) },
      onChanged: { addListener: () => undefined },
    },
  });
  const { HistoryView } = await import('../../../src/ui/panel/history-view');
  const view = new HistoryView();
  dom.window.document.getElementById('view-history')!.hidden = false;
  await view.show();
  const table = dom.window.document.getElementById('games-table') as HTMLTableElement;
  return { rows: table.tBodies[0].rows.length, unreadable: dom.window.document.getElementById('history-unreadable')!.textContent ?? '' };
}

describe('the history against hostile records', () => {
  it('keeps every valid game of an import, renders, and round-trips through JSON and CSV', async () => {
    await fc.assert(
      fc.asyncProperty(mixed, async ({ valid, bad, items }) => {
        // The import: every valid game read, every hostile record counted.
        const imported = importGames(JSON.stringify({ format: '2048-autopilot-games', version: 1, games: items }));
        expect(imported.skipped).toBe(bad.length);
        expect(byKey(imported.games).map(gameKey)).toEqual(byKey(valid).map(gameKey));
        for (const game of imported.games) expect(recordSize(game)).toBeLessThanOrEqual(RECORD_BYTE_CAP);

        // Into the log: each game is kept (or counted as not fitting, or as dated in the future), a huge replay cut short and marked.
        const change = importIntoLog(readLog([]), imported.games);
        expect(change.log.games.length + change.refused + change.future).toBe(valid.length);
        for (const game of change.log.games) {
          if (game.replay?.truncated) expect(game.replay.n).toBeLessThan(HUGE.n);
          if (game.replay) expect(() => replayFrames(game.replay!)).not.toThrow();
        }

        // The stored form with the hostile records in it: they move aside, the games stay.
        const stored = [...change.log.games, ...bad];
        const log = readLog(stored);
        expect(log.games).toEqual(change.log.games);
        // (Aside is bounded: what does not fit there is counted.)
        expect(log.aside.length + (log.droppedAside ?? 0)).toBe(bad.length);

        // JSON and CSV exports import back to the same games.
        expect(importGames(exportJson(log.games)).games).toEqual(log.games);
        const csv = exportCsv(log.games);
        expect(csv).not.toMatch(/(^|,)[=+@]/m);
        expect(importGames(csv).games).toEqual(log.games);

        // The view draws a row per game and says how many records it cannot read.
        const view = await renderView(stored, []);
        expect(view.rows).toBe(log.games.length);
        if (log.aside.length > 0) expect(view.unreadable).toContain(String(log.aside.length));
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
