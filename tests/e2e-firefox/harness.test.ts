/**
 * The Firefox harness itself: the add-on installs as a temporary add-on, its pages open at the known
 * base URL, fixture pages are served on 127.0.0.1, and the popup opens for a game tab given as ?tabId=N.
 */
import { describe, expect, it } from 'vitest';
import { FirefoxSession, popupText, useFirefoxSession } from './support/harness';

let session: FirefoxSession;
useFirefoxSession((started) => {
  session = started;
});

describe('Firefox harness', () => {
  it('installs dist-firefox and opens the popup for a fixture page given as ?tabId=N', async () => {
    expect(session.ext.baseUrl).toMatch(/^moz-extension:\/\/[0-9a-f-]{36}\/$/);
    const game = await session.openGame('/pages/react-like/');
    expect(game.tabId).toBeGreaterThan(0);
    expect(await game.page.evaluate(() => location.origin)).toBe(session.origin);
    const popup = await session.openPopup(game.tabId);
    expect(await popup.evaluate(() => location.search)).toBe(`?tabId=${game.tabId}`);
    expect(await popupText(popup)).toContain('Solve');
  });
});
