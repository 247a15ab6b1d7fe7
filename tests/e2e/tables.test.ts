/**
 * Endgame tables in the extension (issue 15), in real Chromium with the test build (dist-e2e, whose
 * solver host builds the small rows8 set in seconds):
 *
 * - Solve on a fresh profile: the tables are built in the background while the game plays on, the popup
 *   shows "Endgame tables: N % built", then that they are ready (stored in IndexedDB).
 * - A game started in the tables' formation (`?start=endgame`: the rows8 snake ending in a 32, two 16s
 *   under it): one Step plays the table's move ("left", the 16s merge into the 32 next to the anchor),
 *   counted as a table move in the status and the popup.
 */
import { describe, expect, it } from 'vitest';
import { E2ESession, useE2ESession, clickButton, waitForPopupText } from './support/harness';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

describe('endgame tables in the extension', () => {
  it('are prepared in the background on first use, with progress in the popup, while play goes on', async () => {
    const game = await session.openGame('/pages/react-like/');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    const building = await session.waitForStatus(game.tabId, (s) => s.tables?.state === 'building' || s.state === 'error', {
      what: 'the tables being prepared',
      timeoutMs: 30_000,
    });
    expect(building.state, building.message ?? '').not.toBe('error');
    await waitForPopupText(popup, /\d{1,3} % built/, { timeoutMs: 30_000 });
    const movesWhileBuilding = (await session.status(game.tabId))?.moves ?? 0;
    const ready = await session.waitForStatus(game.tabId, (s) => s.tables?.state !== 'building' || s.state === 'error' || s.state === 'over', {
      what: 'the tables to be ready',
      timeoutMs: 180_000,
    });
    expect(ready.tables?.state, ready.message ?? '').toBe('ready');
    expect(ready.moves, 'moves played while the tables were prepared').toBeGreaterThan(0);
    expect(ready.moves).toBeGreaterThanOrEqual(movesWhileBuilding);
    await waitForPopupText(popup, /\d+ played/, { timeoutMs: 10_000 });
    // Stored in the extension's IndexedDB: one record per table of the test set (rows8, anchors 32..256).
    const keys = await session.inExtension(
      (name) =>
        new Promise<string[]>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const request = open.result.transaction('tables').objectStore('tables').getAllKeys();
            request.onsuccess = () => resolve(request.result.map(String).sort());
            request.onerror = () => reject(request.error);
          };
        }),
      '2048-autopilot-tables',
    );
    expect(keys).toEqual(['rows8-goal128-sum512-v1', 'rows8-goal256-sum1024-v1', 'rows8-goal32-sum128-v1', 'rows8-goal64-sum256-v1'].sort());
    await clickButton(popup, 'Stop');
    await session.waitForRest(game.tabId);
  });

  it('plays the table move on a board in the formation', async () => {
    const game = await session.openGame('/pages/react-like/?start=endgame');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Step');
    const after = await session.waitForStatus(game.tabId, (s) => s.moves >= 1 || s.state === 'error', { what: 'one move', timeoutMs: 30_000 });
    expect(after.state, after.message ?? '').not.toBe('error');
    expect(after.lastMove).toBe('left');
    expect(after.tables).toEqual({ state: 'ready', percent: 100, moves: 1 });
    expect(after.board?.cells.slice(0, 9)).toEqual([4096, 2048, 1024, 512, 32, 64, 128, 256, 32]);
    await waitForPopupText(popup, /\b1 played/, { timeoutMs: 10_000 });
  });
});
