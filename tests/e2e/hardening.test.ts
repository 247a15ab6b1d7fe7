/**
 * Hardening against the page, in real Chromium: the page can neither read the bridge's secret nor steer the autopilot with
 * a forged board; a Solve run leaves no trace in the page; no text of the page reaches the popup, the
 * stored status or the badge; detection cannot freeze a page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { E2ESession, useE2ESession, clickButton, sleep, waitForPopupText } from './support/harness';

let session: E2ESession;
useE2ESession((started) => {
  session = started;
});

/**
 * Record the `args` of every chrome.scripting.executeScript call the service worker makes from now on. Called
 * just before the command that injects: the recorder lives in the worker's global scope, so a worker that idled
 * out and started again in between would inject unrecorded (seen once at load 5–11). The call to storage resets
 * the worker's idle timer, and `recordedByThisWorker` tells afterwards whether the same worker did the work.
 */
async function recordInjections(): Promise<void> {
  await session.inExtension(async () => {
    await chrome.storage.session.get(null);
    const scope = self as unknown as { __e2eInjectionArgs?: unknown[][]; __e2eMainWorld?: string[]; __e2eWrapped?: boolean };
    scope.__e2eInjectionArgs = [];
    scope.__e2eMainWorld = [];
    if (scope.__e2eWrapped) return;
    scope.__e2eWrapped = true;
    const original = chrome.scripting.executeScript.bind(chrome.scripting);
    (chrome.scripting as unknown as { executeScript: unknown }).executeScript = (injection: chrome.scripting.ScriptInjection<unknown[], unknown>) => {
      const { args, func, files, world } = injection as { args?: unknown[]; func?: unknown; files?: string[]; world?: string };
      if (args) scope.__e2eInjectionArgs?.push(args);
      if (world === 'MAIN') scope.__e2eMainWorld?.push(func ? String(func) : `files: ${String(files)}`);
      return original(injection);
    };
  }, null);
}

/** Whether the service worker now running is the one recordInjections wrapped (it did not start again since). */
async function recordedByThisWorker(): Promise<boolean> {
  return session.inExtension(() => (self as unknown as { __e2eWrapped?: boolean }).__e2eWrapped === true, null);
}

async function injectionArgs(): Promise<string[]> {
  const all = await session.inExtension(() => (self as unknown as { __e2eInjectionArgs?: unknown[][] }).__e2eInjectionArgs ?? [], null);
  return all.flat().filter((v): v is string => typeof v === 'string');
}

interface PageTraces {
  globals: string[];
  rootAttributes: string[];
  elements: number;
  entries: string[];
}

async function traces(page: Page): Promise<PageTraces> {
  return page.evaluate(() => ({
    globals: Object.getOwnPropertyNames(window).sort(),
    rootAttributes: Array.from(document.documentElement.attributes, (a) => `${a.name}=${a.value}`).sort(),
    elements: document.getElementsByTagName('*').length,
    entries: performance
      .getEntries()
      // Entries a script can write (User Timing); the browser's own (resource, paint, long frames) are not ours.
      .filter((e) => e.entryType === 'mark' || e.entryType === 'measure')
      .map((e) => `${e.entryType}:${e.name}`),
  }));
}

describe('the bridge and the page', () => {
  it('a Solve run leaves no global, attribute, element, performance entry or console output in the page', async () => {
    const game = await session.openGame('/pages/play2048-like/');
    const console: string[] = [];
    game.page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
    const before = await traces(game.page);
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    const playing = await session.waitForStatus(game.tabId, (s) => s.moves >= 15 || s.state === 'error' || s.state === 'over', {
      what: '15 moves',
      timeoutMs: 60_000,
    });
    expect(playing.state).not.toBe('error');
    expect(playing.adapter).toBe('store');
    await clickButton(popup, 'Stop');
    await session.waitForRest(game.tabId);
    const after = await traces(game.page);
    expect(after.globals.filter((g) => !before.globals.includes(g))).toEqual([]);
    expect(after.rootAttributes).toEqual(before.rootAttributes);
    expect(after.elements).toBe(before.elements);
    expect(after.entries.filter((e) => !before.entries.includes(e))).toEqual([]);
    expect(console).toEqual([]);
  });

  it('a hostile page that patches built-ins and watches mutations neither learns the secret nor steers a move', async () => {
    const game = await session.openGame('/e2e-pages/hostile/');
    const popup = await session.openPopup(game.tabId);
    await recordInjections();
    await clickButton(popup, 'Solve');
    const played = await session.waitForStatus(game.tabId, (s) => s.moves >= 20 || s.state === 'error' || s.state === 'over', {
      what: '20 moves on the hostile page',
      timeoutMs: 60_000,
    });
    expect(played.state).not.toBe('error');
    await clickButton(popup, 'Stop');
    const rest = await session.waitForRest(game.tabId);

    const hostile = await game.page.evaluate(() => {
      const h = (window as unknown as { __hostile: { seen: string[]; mutations: string[]; callerArgs: string[]; channels: Record<string, boolean>; forged: number; observed: number } }).__hostile;
      return { seen: h.seen, mutations: h.mutations, callerArgs: h.callerArgs, channels: Object.keys(h.channels), forged: h.forged, observed: h.observed };
    });
    // Nothing was written on <html> (where the nonce used to wait for the second injection).
    expect(hostile.mutations.filter((m) => m.startsWith('HTML @'))).toEqual([]);
    // What runs in the main world, as built: one function, no zod in it.
    const mainWorld = await session.inExtension(() => (self as unknown as { __e2eMainWorld?: string[] }).__e2eMainWorld ?? [], null);
    expect(mainWorld.length, `no injection into the main world recorded; the recording worker still runs: ${await recordedByThisWorker()}`).toBeGreaterThan(0);
    for (const source of mainWorld) {
      expect(source).not.toMatch(/^files:/);
      expect(source).not.toMatch(/zod/i);
    }
    // The keys went through the injection calls: a secret (43 characters) and a channel name.
    const args = await injectionArgs();
    const secret = args.find((a) => /^[A-Za-z0-9_-]{43}$/.test(a));
    expect(secret, `injection args: ${args.length}`).toBeDefined();
    // The page did see the autopilot's traffic (its hooks work) and forged boards on it ...
    expect(hostile.observed).toBeGreaterThan(10);
    expect(hostile.forged).toBeGreaterThan(10);
    // ... but never the secret: not in a call, not in the DOM, not through a caller's arguments.
    const everything = [...hostile.seen, ...hostile.mutations, ...hostile.callerArgs].join('\n');
    expect(everything.includes(secret as string)).toBe(false);
    expect(hostile.callerArgs).toEqual([]);
    // No forged board was taken: no desync, and the autopilot's board is the game's own board.
    expect(rest.desyncs).toBe(0);
    expect(rest.score).not.toBe(999999);
    const board = (await game.page.evaluate(
      `import('/pages/play2048-like/assets/index-Dq3x7Kfa.js').then((m) => new Promise((resolve) => m.g.subscribe((g) => resolve(g.board.flat().map((c) => (c ? c.value : 0))))))`,
    )) as number[];
    expect(rest.board?.cells).toEqual(board);
  });
});

describe('the extension’s own words only', () => {
  it('a page whose store throws 10 kB of text at the autopilot: the popup, the stored status and the badge say only the extension’s words', async () => {
    const game = await session.openGame('/e2e-pages/store-throws/');
    const popup = await session.openPopup(game.tabId);
    await clickButton(popup, 'Solve');
    const status = await session.waitForStatus(game.tabId, (s) => s.state === 'error' || s.moves >= 3, { what: 'the failed move', timeoutMs: 30_000 });
    expect(status.state).toBe('error');
    expect(status.adapter).toBe('store');
    expect(status.message).toEqual({ code: 'pageScriptFailed' });
    const text = await waitForPopupText(popup, "The page's own game script failed", { timeoutMs: 10_000 });
    expect(text).not.toMatch(/VISIT|evil|PRIZE|AAAA/);
    const stored = await session.inExtension(() => chrome.storage.session.get(null).then((items) => JSON.stringify(items)), null);
    expect(stored).not.toMatch(/VISIT|evil|PRIZE|AAAA/);
    const badge = await session.inExtension((tabId) => chrome.action.getBadgeText({ tabId }), game.tabId);
    expect(badge).toBe('!');
  });
});

describe('detection cannot freeze a page', () => {
  /** Long main-thread tasks (ms) that started after `from` (page clock). */
  async function longTasksSince(page: Page, from: number): Promise<number[]> {
    return page.evaluate((since) => (window as unknown as { __e2eLongTasks: { start: number; duration: number }[] }).__e2eLongTasks.filter((t) => t.start >= since).map((t) => t.duration), from);
  }

  async function watchLongTasks(page: Page): Promise<number> {
    return page.evaluate(() => {
      const w = window as unknown as { __e2eLongTasks: { start: number; duration: number }[] };
      w.__e2eLongTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__e2eLongTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask' });
      return performance.now();
    });
  }

  for (const { name, path } of [
    { name: '30 000 tiles', path: '/e2e-pages/many-tiles/' },
    { name: 'a 10 000 x 10 000 canvas', path: '/e2e-pages/huge-canvas/' },
  ]) {
    it(`a page with ${name} gets "No 2048 board found" and no task of 200 ms or more`, async () => {
      const game = await session.openGame(path);
      await sleep(300); // let the page's own loading work end
      const from = await watchLongTasks(game.page);
      const popup = await session.openPopup(game.tabId);
      await clickButton(popup, 'Solve');
      await waitForPopupText(popup, 'No 2048 board found', { timeoutMs: 20_000 });
      const status = await session.status(game.tabId);
      expect(status?.state).toBe('error');
      const tasks = await longTasksSince(game.page, from);
      expect(Math.max(0, ...tasks)).toBeLessThan(200);
      if (path.includes('canvas')) {
        // Nobody created a context on the page's canvas: it can still get one of any kind.
        expect(await game.page.evaluate(() => (document.getElementById('huge') as HTMLCanvasElement).getContext('bitmaprenderer') !== null)).toBe(true);
      }
    });
  }
});
