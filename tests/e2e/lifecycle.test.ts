/**
 * The lifecycle of a run in real Chromium: two tabs solving at once stay
 * independent (and one tab's content script cannot reach the other's search), leaving the page mid-game
 * stops the run and the back-forward cache does not bring it back, an extension reload mid-game leaves
 * an orphaned content script that stands down (its agent leaves with it) while a fresh one plays the same
 * game on, and a game is recorded once — stopped, paused, finished or interrupted by an update.
 * The browser keeps its back-forward cache on for this file (Playwright turns it off by default).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { E2ESession, useE2ESession, clickButton, keysSeen, sleep, waitFor } from './support/harness';
import type { GameTab } from './support/harness';
import { classicActuations, maxTile, readClassicSavedBoard, setClassicBoard } from './support/classic-board';
import type { GameRecord } from '../../src/shared/messages';

let session: E2ESession;
useE2ESession(
  (started) => {
    session = started;
  },
  { backForwardCache: true },
);

async function startedGame(path = '/classic/'): Promise<GameTab> {
  const game = await session.openGame(path);
  await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
  return game;
}

async function runningGame(minMoves: number, path = '/classic/'): Promise<{ game: GameTab; popup: Page }> {
  const game = await startedGame(path);
  const popup = await session.openPopup(game.tabId);
  await clickButton(popup, 'Solve');
  await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= minMoves, { what: `${minMoves} moves`, timeoutMs: 30_000 });
  return { game, popup };
}

/** Send a popup command for any tab from an extension page (what the popup's buttons do). */
async function command(popup: Page, tabId: number, name: 'solve' | 'stop'): Promise<unknown> {
  return popup.evaluate(([tab, c]) => chrome.runtime.sendMessage({ kind: 'popup/command', tabId: tab, command: c }), [tabId, name] as const);
}

async function games(): Promise<readonly GameRecord[]> {
  return (await session.storedLog()).games;
}

async function clearGames(): Promise<void> {
  await session.setStoredGames([]);
}

/**
 * Evaluate `expression` in the extension's isolated world of `page` (where its content script runs), as
 * a content script that turned hostile would: over the DevTools protocol, since Playwright reaches only
 * the main world.
 */
async function inContentWorld(page: Page, expression: string): Promise<unknown> {
  const cdp = await session.context.newCDPSession(page);
  try {
    const contexts: { id: number; origin: string; auxData?: { type?: string } }[] = [];
    cdp.on('Runtime.executionContextCreated', (event) => contexts.push(event.context as (typeof contexts)[number]));
    await cdp.send('Runtime.enable');
    const ours = `chrome-extension://${session.extensionId}`;
    const world = await waitFor(
      async () => contexts.find((c) => c.auxData?.type === 'isolated' && c.origin === ours),
      (c) => c !== undefined,
      { what: "the content script's isolated world", timeoutMs: 5_000 },
    );
    const result = await cdp.send('Runtime.evaluate', { contextId: world?.id, expression, awaitPromise: true, returnByValue: true });
    return result.result.value;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

describe('lifecycle of a run', () => {
  it('two tabs solving at once stay independent, and one tab cannot touch the other’s search', async () => {
    const one = await startedGame('/classic/');
    const twoPage = await session.context.newPage();
    const twoUrl = `${session.origin}/pages/react-like/`;
    await twoPage.goto(twoUrl);
    const two = await session.tabIdOf(twoUrl);
    await session.inExtension((key) => chrome.storage.session.remove(key), `status:${two}`);
    try {
      const popup = await session.openPopup(one.tabId);
      expect(await command(popup, one.tabId, 'solve')).toMatchObject({ ok: true });
      expect(await command(popup, two, 'solve')).toMatchObject({ ok: true });
      await session.waitForStatus(one.tabId, (s) => s.running && s.moves >= 3, { what: 'tab one to play' });
      await session.waitForStatus(two, (s) => s.running && s.moves >= 3, { what: 'tab two to play' });

      // Tab two's content script, turned hostile, asks the solver host directly for searches on tab
      // one's channel (which would replace tab one's search) and to cancel them.
      const hostile = await inContentWorld(
        twoPage,
        `(async () => {
          const board = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] };
          const replies = [];
          for (let i = 0; i < 20; i++) {
            replies.push(await chrome.runtime.sendMessage({ kind: 'offscreen/solve', requestId: 'x' + i, strategy: 'random', board, options: {}, channel: 'tab:${one.tabId}' }));
            replies.push(await chrome.runtime.sendMessage({ kind: 'offscreen/cancel', requestId: 'x' + i, channel: 'tab:${one.tabId}' }));
            await new Promise((r) => setTimeout(r, 50));
          }
          return replies;
        })()`,
      );
      expect(Array.isArray(hostile)).toBe(true);
      for (const reply of hostile as { ok?: boolean; error?: string }[]) expect(reply).toMatchObject({ ok: false, error: expect.stringMatching(/Refused/) });

      // Each reaches its goal, on its own page.
      const doneOne = await session.waitForStatus(one.tabId, (s) => s.bestTile >= 128 || !s.running, { what: 'tab one to reach 128', timeoutMs: 90_000 });
      const doneTwo = await session.waitForStatus(two, (s) => s.bestTile >= 128 || !s.running, { what: 'tab two to reach 128', timeoutMs: 90_000 });
      expect(doneOne).toMatchObject({ running: true, state: expect.not.stringMatching(/error/) });
      expect(doneTwo).toMatchObject({ running: true, state: expect.not.stringMatching(/error/) });
      expect(doneOne.bestTile).toBeGreaterThanOrEqual(128);
      expect(doneTwo.bestTile).toBeGreaterThanOrEqual(128);

      // Stopping tab one (which cancels its search) leaves tab two playing.
      expect(await command(popup, one.tabId, 'stop')).toMatchObject({ ok: true });
      const stopped = await session.waitForRest(one.tabId);
      const onPage = await readClassicSavedBoard(one.page);
      expect(stopped.board?.cells).toEqual(onPage?.cells);
      const fromTwo = await session.status(two);
      expect(fromTwo?.running).toBe(true);
      const stillTwo = await session.waitForStatus(two, (s) => s.moves >= (fromTwo?.moves ?? 0) + 10 || !s.running, {
        what: 'tab two to play on',
        timeoutMs: 30_000,
      });
      expect(stillTwo.running).toBe(true);
      expect(stillTwo.state).not.toBe('error');
      expect(stillTwo.desyncs).toBe(0);
      // Moves per tab: the keys each page saw are its own run's.
      expect(await keysSeen(one.page)).toBeGreaterThanOrEqual(stopped.moves);
      expect(await keysSeen(twoPage)).toBeGreaterThanOrEqual(stillTwo.moves);
      const restOne = await classicActuations(one.page);
      await sleep(800);
      expect(await classicActuations(one.page)).toBe(restOne);
      expect(await command(popup, two, 'stop')).toMatchObject({ ok: true });
      await session.waitForRest(two);
    } finally {
      await twoPage.close();
    }
  });

  it('leaving the page mid-game stops the run; the back-forward cache does not bring it back; one record', async () => {
    await clearGames();
    // The copy of the game served without no-store, so that the browser may keep it in its back-forward cache.
    const { game, popup } = await runningGame(5, '/classic-cacheable/');

    await game.page.goto(`${session.origin}/e2e-pages/plain/`);
    const ended = await session.waitForStatus(game.tabId, (s) => !s.running, { what: 'the run to end with the page', timeoutMs: 10_000 });
    expect(ended.state).toBe('idle');
    await sleep(1_000);
    expect(await keysSeen(game.page)).toBe(0);

    // A page restored from the back-forward cache fires no load event: wait for the commit, then for pageshow.
    await game.page.goBack({ waitUntil: 'commit' });
    // The game page came back from the back-forward cache, content script and all.
    await waitFor(() => game.page.evaluate(() => (window as unknown as { __e2eRestored?: boolean }).__e2eRestored === true), (r) => r, {
      what: 'the page to come back from the back-forward cache',
      timeoutMs: 5_000,
    });
    const keys = await keysSeen(game.page);
    const updates = await classicActuations(game.page);
    await sleep(1_500);
    expect(await keysSeen(game.page)).toBe(keys);
    expect(await classicActuations(game.page)).toBe(updates);
    await sleep(3_000);
    expect(await keysSeen(game.page)).toBe(keys);
    // The run ended cleanly with the page (not with an error from a content script left hanging).
    const after = await session.status(game.tabId);
    expect(after).toMatchObject({ running: false, state: 'idle' });

    // Solve again on the restored page plays the same game on; its record stays one record.
    await clickButton(popup, 'Solve');
    const again = await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= (after?.moves ?? 0) + 3, {
      what: 'play on the restored page',
      timeoutMs: 30_000,
    });
    expect(again.state).not.toBe('error');
    await clickButton(popup, 'Stop');
    const rest = await session.waitForRest(game.tabId);
    await sleep(500);
    const log = await games();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ outcome: 'stopped' });
    expect(log[0].moves).toBeGreaterThan(ended.moves);
    expect(log[0].moves).toBeLessThanOrEqual(rest.moves);
  });

  it('an extension reload mid-game: the orphaned script stands down, the game is recorded, Solve goes on with the same game; the old tables’ database is gone', async () => {
    await clearGames();
    // What an earlier version left: the endgame tables' IndexedDB database.
    await session.inExtension(
      () =>
        new Promise<void>((done, fail) => {
          const request = indexedDB.open('2048-autopilot-tables', 1);
          request.onupgradeneeded = () => request.result.createObjectStore('tables');
          request.onsuccess = () => {
            request.result.close();
            done();
          };
          request.onerror = () => fail(request.error);
        }),
      null,
    );
    const { game } = await runningGame(5);
    const interrupted = await session.waitForStatus(game.tabId, (s) => s.running && s.gameId !== undefined, { what: 'the game id' });
    await session.reloadExtension();

    // The orphaned content script sends no key.
    await sleep(1_000);
    const keys = await keysSeen(game.page);
    const updates = await classicActuations(game.page);
    await sleep(1_500);
    expect(await keysSeen(game.page)).toBe(keys);
    expect(await classicActuations(game.page)).toBe(updates);
    // The game in progress is in the history already (the background's record of it, from before the update).
    const recovered = await waitFor(games, (log) => log.length === 1, { what: 'the interrupted game in the log', timeoutMs: 10_000 });
    expect(recovered[0]).toMatchObject({ gameId: interrupted.gameId, outcome: 'stopped' });
    // The old tables' database was deleted when the new version started.
    const databases = await session.inExtension(() => indexedDB.databases().then((list) => list.map((d) => d.name)), null);
    expect(databases).not.toContain('2048-autopilot-tables');

    // The page keeps working for the person.
    for (const key of ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowLeft']) await game.page.keyboard.press(key);
    await waitFor(() => classicActuations(game.page), (n) => n > updates, { what: 'the page to take the person’s keys', timeoutMs: 5_000 });
    await sleep(500);

    // Solve works again, with one player only (one key per move), and goes on with the same game.
    const keysBefore = await keysSeen(game.page);
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    // The new content script sent what the orphaned one handed over (its record, with the replay).
    const handed = await waitFor(games, (log) => log.length === 1 && log[0].replay !== undefined, { what: 'the handed-over record', timeoutMs: 10_000 });
    expect(handed[0].moves).toBeGreaterThanOrEqual(recovered[0].moves);
    const playing = await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= handed[0].moves + 10, { what: 'play after the reload', timeoutMs: 30_000 });
    expect(playing.state).not.toBe('error');
    expect(playing.gameId).toBe(interrupted.gameId);
    await clickButton(popup, 'Stop');
    const rest = await session.waitForRest(game.tabId);
    const sent = (await keysSeen(game.page)) - keysBefore;
    const resumed = await waitFor(games, (log) => log.length === 1 && log[0].moves === rest.moves, { what: 'the game’s record after the reload' });
    expect(rest.desyncs).toBe(0);
    const playedHere = rest.moves - handed[0].moves;
    expect(sent).toBeGreaterThanOrEqual(playedHere);
    expect(sent).toBeLessThanOrEqual(playedHere + 2);
    // One record of the game, with a replay of every move (before and after the update).
    expect(resumed[0].gameId).toBe(interrupted.gameId);
    expect(resumed[0].replay?.n).toBe(rest.moves);
  });

  it('Stop, then a re-injection after an update: exactly one agent listens on the page, with one store subscription', async () => {
    const game = await session.openGame('/e2e-pages/agent-count/');
    const agents = (): Promise<{ listening: number; channels: number; subscriptions: number }> =>
      game.page.evaluate(() => {
        const a = (window as unknown as { __agents: { listening(): number; channels(): number; subscriptions(): number } }).__agents;
        return { listening: a.listening(), channels: a.channels(), subscriptions: a.subscriptions() };
      });
    let popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= 5, { what: '5 moves', timeoutMs: 30_000 });
    await clickButton(popup, 'Stop');
    await session.waitForRest(game.tabId);
    expect(await agents()).toEqual({ listening: 1, channels: 1, subscriptions: 1 });

    await session.reloadExtension();
    // The orphaned content script sent its agent away.
    await waitFor(agents, (a) => a.listening === 0 && a.subscriptions === 0, { what: 'the old agent to leave', timeoutMs: 10_000 });
    popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    const played = await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= 3, { what: 'play after the re-injection', timeoutMs: 30_000 });
    expect(played.adapter).toBe('store');
    await clickButton(popup, 'Stop');
    await session.waitForRest(game.tabId);
    expect(await agents()).toEqual({ listening: 1, channels: 2, subscriptions: 1 });
  });

  it('Pause, then New Game: the first game is recorded, and the next one is another game', async () => {
    await clearGames();
    const { game, popup } = await runningGame(5);
    // The person takes over: a key of their own pauses the run.
    await game.page.keyboard.press('ArrowLeft');
    const paused = await session.waitForStatus(game.tabId, (s) => s.state === 'paused', { what: 'the pause', timeoutMs: 10_000 });
    await game.page.click('.restart-button');
    await clickButton(popup, 'Solve');
    await session.waitForStatus(game.tabId, (s) => s.running && s.gameId !== paused.gameId && s.moves >= 3, { what: 'the new game', timeoutMs: 30_000 });
    await clickButton(popup, 'Stop');
    await session.waitForRest(game.tabId);
    const log = await waitFor(games, (list) => list.length === 2, { what: 'both games in the log', timeoutMs: 10_000 });
    const first = log.find((g) => g.gameId === paused.gameId);
    expect(first).toMatchObject({ outcome: 'stopped' });
    expect(first?.moves).toBeGreaterThanOrEqual(5);
    expect(first?.replay?.n).toBe(first?.moves);
    expect(log.filter((g) => g.gameId !== paused.gameId)).toHaveLength(1);
  });

  it('records a game once: stopped, resumed and finished is one record', async () => {
    await clearGames();
    const { game, popup } = await runningGame(3);
    await clickButton(popup, 'Stop');
    const first = await session.waitForRest(game.tabId);
    await waitFor(games, (log) => log.length === 1, { what: 'the stopped game in the log', timeoutMs: 5_000 });

    // Near the end of the same game: a full board but for one cell and no merge, so one move is left
    // (right or down), after which the spawned tile merges with nothing.
    await setClassicBoard(game.page, [
      [8, 16, 8, 32],
      [16, 8, 16, 64],
      [8, 16, 8, 128],
      [256, 512, 1024, 0],
    ]);
    await clickButton(popup, 'Solve');
    const over = await session.waitForStatus(game.tabId, (s) => s.state === 'over', { what: 'the game to end', timeoutMs: 30_000 });
    await sleep(500);
    const log = await games();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ outcome: 'over' });
    expect(log[0].moves).toBe(over.moves);
    expect(log[0].moves).toBeGreaterThan(first.moves);
  });
});
