/**
 * Finding and launching Firefox with the built Firefox extension (dist-firefox/) installed, for the
 * Firefox end-to-end tests and the demo.
 *
 * The browser is `FIREFOX_PATH` when set, else Debian's `/usr/bin/firefox-esr` (or another usual install
 * path). It is driven over WebDriver BiDi by puppeteer-core (`browser: 'firefox'`), which starts it with a
 * fresh temporary profile and removes that profile on close; the add-on is installed as a temporary
 * add-on (`browser.installExtension`), the way about:debugging loads it.
 *
 * - `--remote-allow-system-access` lets the automated browser open `moz-extension://` pages;
 * - `extensions.webextensions.uuids` fixes the add-on's internal UUID, so its pages have a known base URL
 *   (`moz-extension://<uuid>/`) before it is even installed;
 * - host permissions: Firefox lets the user grant or revoke an MV3 add-on's host permissions. With
 *   `grantHostsAtInstall: false` the add-on starts with none (`extensions.originControls.grantByDefault`
 *   off), as for a user who has not allowed any site yet; permission prompts are turned off
 *   (`extensions.webextOptionalPermissionPrompts`), so a real click on the popup's "Allow" button grants
 *   what a user would grant by accepting the prompt.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';

/** The one line printed when no Firefox is found. */
export const MISSING_FIREFOX_MESSAGE =
  'No Firefox found: install it with `apt-get install -y firefox-esr` (or set FIREFOX_PATH to a Firefox binary).';

const USUAL_PATHS = ['/usr/bin/firefox-esr', '/usr/bin/firefox', '/usr/lib/firefox-esr/firefox-esr', '/usr/lib/firefox/firefox'];

/** The Firefox binary to use, or null when none is installed (FIREFOX_PATH wins when it exists). */
export function findFirefox(env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env.FIREFOX_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return USUAL_PATHS.find((path) => existsSync(path)) ?? null;
}

/** The gecko id the built manifest declares (`browser_specific_settings.gecko.id`). */
function geckoIdOf(extensionDir: string): string {
  const manifestPath = join(extensionDir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`No built Firefox extension at ${extensionDir} (manifest.json missing): run \`npm run build\` first.`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { browser_specific_settings?: { gecko?: { id?: unknown } } };
  const id = manifest.browser_specific_settings?.gecko?.id;
  if (typeof id !== 'string' || id === '') throw new Error(`${manifestPath} has no browser_specific_settings.gecko.id: is it the Firefox build?`);
  return id;
}

/** Profile preferences for a quiet test browser with the add-on's UUID fixed. */
export function firefoxPrefs(geckoId: string, uuid: string, grantHostsAtInstall: boolean, backgroundIdleMs?: number): Record<string, unknown> {
  return {
    // How long an idle event page lives (Firefox's default is 30 s); tests of the unload shorten it.
    ...(backgroundIdleMs === undefined ? {} : { 'extensions.background.idle.timeout': backgroundIdleMs }),
    'extensions.webextensions.uuids': JSON.stringify({ [geckoId]: uuid }),
    'extensions.originControls.grantByDefault': grantHostsAtInstall,
    'extensions.webextOptionalPermissionPrompts': false,
    // The game tab keeps animating while the popup window has the focus.
    'dom.min_background_timeout_value': 4,
    'browser.tabs.remote.autostart': true,
    'datareporting.policy.dataSubmissionEnabled': false,
    'browser.shell.checkDefaultBrowser': false,
  };
}

export interface FirefoxLaunchOptions {
  /** The unpacked Firefox build (`dist-firefox/`). */
  readonly extensionDir: string;
  readonly headless?: boolean;
  /** Grant the declared host permissions at install (Firefox's default); false starts with none. */
  readonly grantHostsAtInstall?: boolean;
  /** Unload the idle background event page after this many ms (Firefox's default: 30 000). */
  readonly backgroundIdleMs?: number;
  /**
   * Leave open the welcome page the add-on opens when it is installed; by default it is closed, as a person
   * closes it before going to the game.
   */
  readonly keepWelcomePage?: boolean;
}

export interface FirefoxExtensionBrowser {
  readonly browser: Browser;
  /** The add-on's id (its gecko id). */
  readonly addonId: string;
  /** `moz-extension://<uuid>/`: the base URL of the add-on's pages. */
  readonly baseUrl: string;
  /** Close the browser (puppeteer removes its temporary profile); safe to call twice. */
  close(): Promise<void>;
}

/** Launch Firefox and install the add-on as a temporary add-on. */
export async function launchFirefoxWithExtension(options: FirefoxLaunchOptions): Promise<FirefoxExtensionBrowser> {
  const executablePath = findFirefox();
  if (!executablePath) throw new Error(MISSING_FIREFOX_MESSAGE);
  const geckoId = geckoIdOf(options.extensionDir);
  const uuid = randomUUID();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: options.headless ?? true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: firefoxPrefs(geckoId, uuid, options.grantHostsAtInstall ?? true, options.backgroundIdleMs),
    defaultViewport: { width: 900, height: 900 },
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await browser.close();
  };
  try {
    const addonId = await browser.installExtension(options.extensionDir);
    if (addonId !== geckoId) throw new Error(`Firefox installed the add-on as ${addonId}, expected ${geckoId}`);
    const baseUrl = `moz-extension://${uuid}/`;
    if (!options.keepWelcomePage) await closeWelcomePage(browser, baseUrl);
    return { browser, addonId, baseUrl, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Launch Firefox with the add-on installed for good in the profile `profileDir` (kept: start it again for
 * a second start of the same browser), as an add-on from addons.mozilla.org is, rather than as a temporary
 * add-on: a proxy file in the profile's extensions folder names the unpacked add-on, which Firefox ESR
 * takes unsigned with `xpinstall.signatures.required` off. Firefox installs it on the first start (an
 * install), finds it unchanged on the next (no event), and updates it when its manifest's version changed
 * on disk (an update). `prefs` are added to the test prefs (e.g. a dark theme). The welcome page stays open.
 */
export async function launchFirefoxWithInstalledExtension(options: {
  readonly extensionDir: string;
  readonly profileDir: string;
  readonly uuid: string;
  readonly prefs?: Record<string, unknown>;
}): Promise<FirefoxExtensionBrowser> {
  const executablePath = findFirefox();
  if (!executablePath) throw new Error(MISSING_FIREFOX_MESSAGE);
  const geckoId = geckoIdOf(options.extensionDir);
  mkdirSync(join(options.profileDir, 'extensions'), { recursive: true });
  writeFileSync(join(options.profileDir, 'extensions', geckoId), `${options.extensionDir}\n`);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    args: ['--remote-allow-system-access'],
    userDataDir: options.profileDir,
    extraPrefsFirefox: {
      ...firefoxPrefs(geckoId, options.uuid, true),
      'xpinstall.signatures.required': false,
      // Add-ons found in the profile are enabled, not held back for the user to confirm.
      'extensions.autoDisableScopes': 0,
      'extensions.enabledScopes': 15,
      ...options.prefs,
    },
    defaultViewport: { width: 900, height: 900 },
  });
  let closed = false;
  return {
    browser,
    addonId: geckoId,
    baseUrl: `moz-extension://${options.uuid}/`,
    close: async () => {
      if (closed) return;
      closed = true;
      await browser.close();
    },
  };
}

/**
 * Close the welcome page the add-on opens on install (src/shared/onboarding.ts WELCOME_PAGE), waiting a few
 * seconds for it. Its tab is found by asking each page for its address: the client never hears that an
 * add-on page loaded.
 */
async function closeWelcomePage(browser: Browser, baseUrl: string): Promise<void> {
  const welcome = `${baseUrl}src/ui/welcome/index.html`;
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    for (const page of await browser.pages()) {
      const href = await page.evaluate(() => location.href).catch(() => '');
      if (href.startsWith(welcome)) {
        await page.close();
        return;
      }
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * Open an add-on page in a new tab without waiting for its load event (moz-extension pages never report
 * it to the client) and wait until its document is complete.
 */
export async function openExtensionTab(ext: FirefoxExtensionBrowser, path: string): Promise<Page> {
  const page = await ext.browser.newPage();
  const url = ext.baseUrl + path;
  await Promise.race([page.goto(url, { waitUntil: [] as never, timeout: 0 }).catch(() => undefined), new Promise((done) => setTimeout(done, 300))]);
  await waitForDocument(page, url);
  return page;
}

/** Wait until `page` shows `url` (ignoring the query) with its document complete. */
async function waitForDocument(page: Page, url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const base = url.split('?')[0];
  for (;;) {
    try {
      const ready = await page.evaluate((u) => location.href.split('?')[0] === u && document.readyState === 'complete', base);
      if (ready) return;
    } catch {
      // The document is being replaced.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not load within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * Open an add-on page (e.g. the popup with `?tabId=N`) in its own popup window, asked of `control` (an
 * add-on page: it has `browser.windows`), and return it once loaded. Its own window keeps the game tab
 * visible, so the game keeps its animation frames.
 */
export async function openExtensionWindow(ext: FirefoxExtensionBrowser, control: Page, path: string): Promise<Page> {
  const url = ext.baseUrl + path;
  const before = new Set(await ext.browser.pages());
  await control.evaluate(
    (u) =>
      (globalThis as unknown as { browser: { windows: { create(d: object): Promise<unknown> } } }).browser.windows
        .create({ url: u, type: 'popup', width: 420, height: 640 })
        .then(() => true),
    url,
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    const page = (await ext.browser.pages()).find((p) => !before.has(p));
    if (page) {
      await waitForDocument(page, url);
      await page.setViewport({ width: 420, height: 640 });
      return page;
    }
    if (Date.now() > deadline) throw new Error(`The window for ${path} did not open`);
    await new Promise((done) => setTimeout(done, 100));
  }
}
