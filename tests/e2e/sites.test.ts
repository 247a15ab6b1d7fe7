/**
 * The real extension on each fixture page (tests/fixtures/pages/<name>/index.html, one per page shape
 * a site adapter handles): Solve must reach the target tile, and the page without a game must get the
 * "No 2048 board found on this page" error and receive no key.
 *
 * The best tile is read from the stored status and, where the fixture exposes `window.__fixture.board()`,
 * checked against the page's own board.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { E2ESession, useE2ESession, clickButton, keysSeen, sleep, waitForPopupText } from './support/harness';

/**
 * Playable fixtures and the tile Solve must reach (a 3x3 board rarely holds 256: 128 there; the
 * Svelte-like page drops every key for 300 ms after a move, so 128 — some 80 moves, each waited out — shows
 * the autopilot copes without ~30 s more of waiting for 256). `dropsKeys`: the page drops keys sent while its
 * tiles slide; after the first dropped key the adapter waits the slide out, so the page drops only a few
 * in the whole game instead of one a move (each would cost a settle timeout and a re-send).
 */
const PLAYABLE: readonly { name: string; target: number; dropsKeys?: true }[] = [
  { name: 'play2048-like', target: 256 },
  { name: 'react-like', target: 256 },
  { name: 'angular-like', target: 256 },
  { name: 'vue-like', target: 256 },
  { name: 'svelte-like', target: 128, dropsKeys: true },
  { name: 'web-component', target: 256 },
  { name: 'canvas-classic', target: 256 },
  { name: 'size5', target: 256 },
  { name: 'size3', target: 128 },
];

/** Largest tile the fixture's own board holds, or null when the fixture exposes no board. */
async function fixtureBestTile(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const fixture = (window as unknown as { __fixture?: { board?: () => unknown } }).__fixture;
    if (!fixture || typeof fixture.board !== 'function') return null;
    const board = fixture.board();
    const values: number[] = [];
    const pending: unknown[] = [board];
    while (pending.length > 0) {
      const v = pending.pop();
      if (Array.isArray(v)) pending.push(...v);
      else if (typeof v === 'number') values.push(v);
      else if (v && typeof v === 'object') {
        const { cells, value } = v as { cells?: unknown; value?: unknown };
        if (cells !== undefined) pending.push(cells);
        else if (typeof value === 'number') values.push(value);
      }
    }
    return values.length === 0 ? null : Math.max(...values);
  });
}

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

describe('fixture pages', () => {
  for (const { name, target, dropsKeys } of PLAYABLE) {
    it(`Solve reaches ${target} on ${name}`, async () => {
      const game = await session.openGame(`/pages/${name}/`);
      const popup = await session.openPopup(game.tabId);
      await clickButton(popup, 'Solve');
      const status = await session.waitForStatus(game.tabId, (s) => s.bestTile >= target || s.state === 'over' || s.state === 'error', {
        what: `the ${target} tile on ${name}`,
        timeoutMs: 100_000,
      });
      expect(status.message?.code, `state ${status.state}`).not.toBe('noBoard');
      expect(status.state).not.toBe('error');
      expect(status.bestTile).toBeGreaterThanOrEqual(target);

      await clickButton(popup, 'Stop');
      const stopped = await session.waitForStatus(game.tabId, (s) => !s.running, { what: 'the run to stop', timeoutMs: 10_000 });
      if (dropsKeys) {
        // A key per move, plus the few the page dropped before the adapter waited its slides out.
        const received = await game.page.evaluate(() => (window as unknown as { __fixture: { keysReceived: number } }).__fixture.keysReceived);
        expect(stopped.moves).toBeGreaterThan(40);
        expect(received - stopped.moves).toBeLessThanOrEqual(8);
      }
      // Every fixture page exposes its board (window.__fixture.board()): the page itself must show the tile.
      const onPage = await fixtureBestTile(game.page);
      expect(onPage, `${name} exposes no board`).not.toBeNull();
      expect(onPage).toBeGreaterThanOrEqual(target);
    });
  }

  it('the page without a game gets the error and receives no key', async () => {
    const game = await session.openGame('/pages/no-game/');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    await waitForPopupText(popup, 'No 2048 board found on this page', { timeoutMs: 15_000 });
    const status = await session.waitForStatus(game.tabId, (s) => s.state === 'error', { what: 'the error status', timeoutMs: 5_000 });
    expect(status.message?.code).toBe('noBoard');
    expect(status.running).toBe(false);
    await sleep(500);
    expect(await keysSeen(game.page)).toBe(0);
    // The page counts the keys its own handler saw; it must be there to say 0.
    const received = await game.page.evaluate(() => (window as unknown as { __fixture?: { keysReceived?: number } }).__fixture?.keysReceived);
    expect(received).toBe(0);
  });
});

describe('play2048-like powerups', () => {
  it('an undo in the middle of a move is a desync the run recovers from; a powerup selection pauses with a message', async () => {
    const game = await session.openGame('/pages/play2048-like/');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    const started = await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= 5, { what: 'five moves', timeoutMs: 30_000 });
    expect(started.adapter).toBe('store');
    expect(started.desyncs).toBe(0);

    // The page's game module (a string, so the test runner does not rewrite the page-side dynamic import).
    const store = "import('/pages/play2048-like/assets/index-Dq3x7Kfa.js').then((m) => m.g)";
    const cellsOf = '(o) => o.board.flat().map((tile) => (tile ? tile.value : 0))';
    const gameCells = (): Promise<number[]> =>
      game.page.evaluate(`${store}.then((g) => { let cells = []; g.subscribe((o) => (cells = (${cellsOf})(o)))(); return cells; })`);

    // The game's own Undo powerup, used behind the autopilot's back (not a trusted input: no takeover), at
    // the one moment that makes it a desync whatever the timing: the autopilot's next move reaches the game
    // and the game undoes its last move instead. The board the autopilot then sees is the board before the
    // one it read, never one move later, so the check after the move must count it.
    const undone = await game.page.evaluate(`${store}.then((g) => new Promise((resolve) => {
      const move = g.move;
      g.move = function () {
        g.move = move;
        resolve(g.undo());
      };
    }))`);
    expect(undone).toBe(true);
    const recovered = await session.waitForStatus(game.tabId, (s) => s.desyncs >= 1 && s.moves >= started.moves + 3, {
      what: 'the undo counted as a desync and play going on',
      timeoutMs: 30_000,
    });
    expect(recovered.state).not.toBe('error');
    expect(recovered.running).toBe(true);
    expect(recovered.desyncs).toBe(1);

    // A powerup selection is a state the autopilot does not play: it pauses and says why.
    expect(await game.page.evaluate(`${store}.then((g) => g.startSwap())`)).toBe(true);
    const paused = await session.waitForStatus(game.tabId, (s) => s.state === 'paused', { what: 'the pause', timeoutMs: 10_000 });
    expect(paused.running).toBe(false);
    expect(paused.message?.code).toBe('pausedPowerup');
    await waitForPopupText(popup, /powerup/i, { timeoutMs: 5_000 });
    const movesPaused = paused.moves;
    await sleep(800);
    const rest = await session.status(game.tabId);
    expect(rest?.moves).toBe(movesPaused);
    // After the undo the autopilot went on from the board the page showed: at rest both boards are one.
    expect(rest?.board?.cells).toEqual(await gameCells());
  });
});
