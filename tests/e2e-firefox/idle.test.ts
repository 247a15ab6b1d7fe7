/**
 * Firefox unloads an idle background event page (here after 2 s instead of 30 s): the run's state is in
 * storage.session, so after the unload the popup still shows it, and the next command wakes the page,
 * which starts its solver workers again and plays on from where the game is.
 */
import { describe, expect, it } from 'vitest';
import { maxTile } from '../e2e/support/classic-board';
import { FirefoxSession, clickButton, readClassicSavedBoard, useFirefoxSession, waitFor, waitForPopupText } from './support/harness';

let session: FirefoxSession;
useFirefoxSession(
  (started) => {
    session = started;
  },
  { backgroundIdleMs: 2_000 },
);

describe('Firefox: the background event page unloaded while idle', () => {
  it('keeps the run state and plays on after the event page was unloaded', async () => {
    const game = await session.openGame('/classic/');
    await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'solve');
    const played = await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= 10, { what: 'ten moves', timeoutMs: 30_000 });
    expect(played.state).not.toBe('error');
    await clickButton(popup, 'stop');
    const stopped = await session.waitForRest(game.tabId);

    expect(await session.backgroundRunning()).toBe(true);
    await waitFor(() => session.backgroundRunning(), (running) => !running, { what: 'Firefox to unload the idle event page', timeoutMs: 20_000 });
    expect((await session.status(game.tabId))?.moves).toBe(stopped.moves);
    await waitForPopupText(popup, String(stopped.moves), { timeoutMs: 2_000 });

    await clickButton(popup, 'step');
    const stepped = await session.waitForStatus(game.tabId, (s) => s.moves === stopped.moves + 1 && !s.running, {
      what: 'one more move from the woken event page',
      timeoutMs: 20_000,
    });
    expect(stepped.state).not.toBe('error');
    expect(await session.backgroundRunning()).toBe(true);

    await clickButton(popup, 'solve');
    await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= stepped.moves + 5, { what: 'play to go on', timeoutMs: 20_000 });
    await clickButton(popup, 'stop');
    await session.waitForRest(game.tabId);
  });
});
