/**
 * A build whose packaged network is corrupt (a copy of the test build, damaged by the test: the production
 * code is the same): Solve plays with the heuristic, and the popup says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR, E2ESession, clickButton, useE2ESession, waitFor, waitForPopupText } from './support/harness';
import { maxTile, readClassicSavedBoard } from './support/classic-board';
import { buildWithDamagedNetwork } from '../support/damaged-network';
import type { DamagedBuild } from '../support/damaged-network';

let damaged: DamagedBuild;
beforeAll(() => {
  damaged = buildWithDamagedNetwork(DIST_DIR, 'corrupt');
});
afterAll(() => damaged?.remove());

let session: E2ESession;
useE2ESession(
  (started) => {
    session = started;
  },
  { extensionDir: () => damaged.dir },
);

describe('a corrupt network asset (Chromium)', () => {
  it('the heuristic plays and the popup says the network did not load, and why', async () => {
    const game = await session.openGame('/classic/');
    await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    const status = await session.waitForStatus(game.tabId, (s) => (s.evaluation === 'heuristic' && s.moves >= 5) || s.state === 'error', {
      what: 'five moves valued by the heuristic',
      timeoutMs: 60_000,
    });
    expect(status.state).not.toBe('error');
    // The heuristic plays from the first move on, while the network loads: its failure comes after some moves.
    const networkStatus = (): Promise<unknown> => session.inExtension(() => chrome.storage.session.get('solver:network').then((items) => items['solver:network'] as unknown), null);
    const network = await waitFor(networkStatus, (n) => (n as { state?: string } | undefined)?.state === 'failed', { what: 'the network to fail', timeoutMs: 30_000 });
    expect(network).toMatchObject({ state: 'failed', reason: { code: 'networkLoadFailed', params: [expect.stringMatching(/corrupt/)] } });
    await waitForPopupText(popup, /Evaluation: the heuristic\. The learned network did not load \(the network file is corrupt/, { timeoutMs: 5_000 });
    await clickButton(popup, 'Stop');
    await session.waitForRest(game.tabId);
  });
});
