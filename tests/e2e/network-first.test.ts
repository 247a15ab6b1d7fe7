/**
 * The learned network's own strategy chosen before anything loaded it (a fresh browser, "Learned network
 * (instant)" selected, then Solve): the network loads, and the moves are valued by it, not by the heuristic
 * it stands in for meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { E2ESession, clickButton, selectStrategy, useE2ESession, waitFor } from './support/harness';
import { maxTile, readClassicSavedBoard } from './support/classic-board';
import { NETWORK_STATUS_KEY, readNetworkStatus } from '../../src/shared/network-status';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

describe('the "network" strategy as the first search (Chromium)', () => {
  it('loads the network and plays with it', async () => {
    const game = await session.openGame('/classic/');
    await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
    const popup = await session.openPopup(game.tabId);
    await selectStrategy(popup, 'network');
    await clickButton(popup, 'Solve');
    const status = await session.waitForStatus(game.tabId, (s) => (s.evaluation === 'network' && s.moves >= 20) || s.state === 'error' || s.state === 'over', {
      what: 'twenty moves of the network strategy valued by the network',
      timeoutMs: 60_000,
    });
    const network = readNetworkStatus(await session.inExtension((key) => chrome.storage.session.get(key).then((items) => items[key] ?? null), NETWORK_STATUS_KEY));
    expect(status.state, JSON.stringify(network)).not.toBe('error');
    expect(status.state).not.toBe('over');
    expect(status.evaluation).toBe('network');
    expect(network).toMatchObject({ state: 'ready' });
    await clickButton(popup, 'Stop');
    await session.waitForRest(game.tabId);
  });
});
