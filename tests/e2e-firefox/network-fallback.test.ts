/**
 * A Firefox build without its packaged network (a copy of the test build with the asset deleted by the test:
 * the production code is the same): Solve plays with the heuristic, and the popup says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIREFOX_DIST_DIR, FirefoxSession, clickButton, useFirefoxSession, waitForPopupText } from './support/harness';
import { buildWithDamagedNetwork } from '../support/damaged-network';
import type { DamagedBuild } from '../support/damaged-network';

let damaged: DamagedBuild;
beforeAll(() => {
  damaged = buildWithDamagedNetwork(FIREFOX_DIST_DIR, 'missing');
});
afterAll(() => damaged?.remove());

let session: FirefoxSession;
useFirefoxSession(
  (started) => {
    session = started;
  },
  { extensionDir: () => damaged.dir },
);

describe('a missing network asset (Firefox)', () => {
  it('the heuristic plays and the popup says the network did not load', async () => {
    const game = await session.openGame('/classic/');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'solve');
    const status = await session.waitForStatus(game.tabId, (s) => (s.evaluation === 'heuristic' && s.moves >= 5) || s.state === 'error', {
      what: 'five moves valued by the heuristic',
      timeoutMs: 60_000,
    });
    expect(status.state).not.toBe('error');
    await waitForPopupText(popup, /Evaluation: the heuristic\. The learned network did not load \(.+\)/, { timeoutMs: 30_000 });
    await clickButton(popup, 'stop');
    await session.waitForRest(game.tabId);
  });
});
