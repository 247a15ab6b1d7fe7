/**
 * The Firefox harness, and host access as Firefox grants it: the add-on starts without access to any
 * site (a Firefox user grants an MV3 add-on's hosts, or not); the popup says what to allow, Solve then
 * fails with that message and sends no key, and the popup's button grants access (a real click).
 */
import { describe, expect, it } from 'vitest';
import { FirefoxSession, clickButton, keysSeen, popupText, sleep, useFirefoxSession, waitFor, waitForPopupText } from './support/harness';

let session: FirefoxSession;
useFirefoxSession(
  (started) => {
    session = started;
  },
  { grantHostAccess: false },
);

describe('Firefox: the add-on and host access', () => {
  it('installs the Firefox test build and opens the popup for a fixture page given as ?tabId=N', async () => {
    expect(session.ext.baseUrl).toMatch(/^moz-extension:\/\/[0-9a-f-]{36}\/$/);
    const game = await session.openGame('/pages/react-like/');
    expect(game.tabId).toBeGreaterThan(0);
    expect(await game.page.evaluate(() => location.origin)).toBe(session.origin);
    const popup = await session.openPopup(game.tabId);
    expect(await popup.evaluate(() => location.search)).toBe(`?tabId=${game.tabId}`);
    expect(await popupText(popup)).toContain('Solve');
  });

  it('without host access the popup says what to allow, Solve explains and sends no key; Allow grants it', async () => {
    expect(await session.hasHostAccess(session.origin)).toBe(false);
    const game = await session.openGame('/classic/');
    const popup = await session.openPopup(game.tabId);
    await waitForPopupText(popup, 'Allow 2048 Autopilot on the sites it plays on (127.0.0.1, localhost)', {
      timeoutMs: 10_000,
    });

    await clickButton(popup, 'solve');
    await waitForPopupText(popup, 'No permission to play on this site', { timeoutMs: 10_000 });
    await sleep(300);
    expect(await keysSeen(game.page)).toBe(0);

    await clickButton(popup, 'allow');
    await waitFor(() => session.hasHostAccess(session.origin), (granted) => granted, { what: 'host access', timeoutMs: 10_000 });
    await waitFor(() => popup.evaluate(() => (document.getElementById('permission') as HTMLElement).hidden), (hidden) => hidden, {
      what: 'the permission box to go',
      timeoutMs: 5_000,
    });

    await clickButton(popup, 'step');
    const status = await session.waitForStatus(game.tabId, (s) => s.moves === 1 && !s.running, { what: 'one move after the grant' });
    expect(status.state).not.toBe('error');
  });
});
