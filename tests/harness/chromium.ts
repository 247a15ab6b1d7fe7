/**
 * Finding and launching Chromium with the built extension loaded, for the end-to-end tests, the demo and
 * the overhead benchmark.
 *
 * The browser is `CHROME_PATH` when set, else Debian's `/usr/bin/chromium` (or another usual install
 * path). The extension is loaded unpacked into a persistent context with a fresh profile directory, the
 * only way Chromium loads extensions; `close()` shuts the browser and deletes that directory.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page, Worker } from 'playwright-core';

/** The one line printed when no browser is found. */
export const MISSING_BROWSER_MESSAGE =
  'No Chromium found: install it with `apt-get install -y chromium` (or set CHROME_PATH to a Chrome/Chromium binary).';

const USUAL_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The browser binary to use, or null when none is installed (CHROME_PATH wins when it exists). */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env.CHROME_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  return USUAL_PATHS.find((path) => existsSync(path)) ?? null;
}

/** Command-line switches for a quiet, sandbox-free browser that loads exactly one unpacked extension. */
export function chromiumArgs(extensionDir: string): string[] {
  return [
    `--disable-extensions-except=${extensionDir}`,
    `--load-extension=${extensionDir}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    // Background tabs must keep animating: the game page is not the focused tab while the popup is.
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
  ];
}

export interface LaunchOptions {
  /** The unpacked extension (the build output, `dist/`). */
  readonly extensionDir: string;
  readonly headless?: boolean;
  /** Time to wait for the extension's service worker to start. */
  readonly serviceWorkerTimeoutMs?: number;
  /** Keep Chromium's back-forward cache on (Playwright turns it off by default). */
  readonly backForwardCache?: boolean;
  /**
   * A profile to start from and keep (a second start of the same browser); by default a fresh one, deleted
   * on close.
   */
  readonly profileDir?: string;
  /**
   * Leave open the welcome page the extension opens on its first install. By default a fresh profile's
   * welcome page is closed, as a person closes it before going to the game (left open, it would hide the
   * game's tab and stop its animation frames).
   */
  readonly keepWelcomePage?: boolean;
  /** The browser's UI language ("de"): the extension's pages, number formats. */
  readonly locale?: string;
  /** More command-line switches (a measuring script's DevTools port, a Blink feature). */
  readonly extraArgs?: readonly string[];
}

/** The welcome page's path in the package (src/shared/onboarding.ts WELCOME_PAGE). */
const WELCOME_PATH = '/src/ui/welcome/index.html';

export interface ExtensionBrowser {
  readonly context: BrowserContext;
  readonly extensionId: string;
  readonly profileDir: string;
  /** The extension's running service worker (waits for a new one when the previous one was stopped). */
  serviceWorker(timeoutMs?: number): Promise<Worker>;
  /** Close the browser and delete the profile directory; safe to call twice. */
  close(): Promise<void>;
}

/** Host of a `chrome-extension://ID/...` URL. */
function extensionIdOf(url: string): string {
  return new URL(url).host;
}

/**
 * Launch Chromium with the extension and wait for its service worker. Throws with the
 * MISSING_BROWSER_MESSAGE when there is no browser, and with a hint about the manifest when the service
 * worker never starts (a broken manifest shows only that way).
 */
export async function launchWithExtension(options: LaunchOptions): Promise<ExtensionBrowser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(MISSING_BROWSER_MESSAGE);
  if (!existsSync(join(options.extensionDir, 'manifest.json'))) {
    throw new Error(`No built extension at ${options.extensionDir} (manifest.json missing): run \`npm run build\` first.`);
  }
  const profileDir = options.profileDir ?? mkdtempSync(join(tmpdir(), '2048-autopilot-profile-'));
  let context: BrowserContext | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    try {
      await context?.close();
    } finally {
      if (!options.profileDir) rmSync(profileDir, { recursive: true, force: true });
    }
  };
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath,
      headless: options.headless ?? true,
      args: [
        ...chromiumArgs(options.extensionDir),
        ...(options.locale ? [`--lang=${options.locale}`] : []),
        ...(options.extraArgs ?? []),
      ],
      ...(options.locale ? { locale: options.locale } : {}),
      ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
      viewport: { width: 900, height: 900 },
    });
    const ctx = context;
    const timeout = options.serviceWorkerTimeoutMs ?? 20_000;
    const isOurs = (w: Worker): boolean => w.url().startsWith('chrome-extension://');
    const findWorker = async (timeoutMs: number): Promise<Worker> => {
      const running = ctx.serviceWorkers().filter(isOurs);
      if (running.length > 0) return running[running.length - 1];
      try {
        return await ctx.waitForEvent('serviceworker', { predicate: isOurs, timeout: timeoutMs });
      } catch {
        throw new Error(
          `The extension's service worker did not start within ${timeoutMs} ms (is ${options.extensionDir}/manifest.json valid?)`,
        );
      }
    };
    const first = await findWorker(timeout);
    const extensionId = extensionIdOf(first.url());
    if (!options.keepWelcomePage && !options.profileDir) await closeWelcomePage(ctx, extensionId);
    return {
      context: ctx,
      extensionId,
      profileDir,
      serviceWorker: (timeoutMs = timeout) => findWorker(timeoutMs),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Close the welcome page a first install opens (waits a few seconds for it: a fresh profile always gets one). */
async function closeWelcomePage(context: BrowserContext, extensionId: string): Promise<void> {
  const url = `chrome-extension://${extensionId}${WELCOME_PATH}`;
  const isWelcome = (page: Page): boolean => page.url().startsWith(url);
  const page =
    context.pages().find(isWelcome) ?? (await context.waitForEvent('page', { predicate: isWelcome, timeout: 5_000 }).catch(() => undefined));
  // Closed once it has loaded, as a person would: a page closed while it loads can leave the extension's
  // next page in the same renderer without its messages (chrome.i18n answers '' there; seen 1 start in 8).
  await page?.waitForLoadState('load').catch(() => undefined);
  await page?.close();
}

/** Ids of the tabs whose URL starts with `urlPrefix` (asked of the extension's service worker). */
export async function tabIdsAt(browser: ExtensionBrowser, urlPrefix: string): Promise<number[]> {
  const worker = await browser.serviceWorker();
  return worker.evaluate((u) => chrome.tabs.query({ url: `${u}*` }).then((tabs) => tabs.map((t) => t.id ?? -1)), urlPrefix);
}

/**
 * Open an extension page (e.g. the popup with `?tabId=N`) in its own popup window and return it.
 * Its own window keeps both it and the game tab visible: a background tab's requestAnimationFrame is
 * throttled to a few frames per second, which would slow down games that animate.
 */
export async function openExtensionWindow(browser: ExtensionBrowser, path: string): Promise<Page> {
  const url = `chrome-extension://${browser.extensionId}/${path}`;
  const worker = await browser.serviceWorker();
  const [page] = await Promise.all([
    browser.context.waitForEvent('page', { predicate: (p: Page) => p.url() === url }),
    worker.evaluate((u) => chrome.windows.create({ url: u, type: 'popup', width: 420, height: 640 }).then(() => true), url),
  ]);
  await waitForDocumentLoad(page);
  await page.setViewportSize({ width: 420, height: 640 });
  return page;
}

/**
 * Wait until `page`'s document has loaded, by either witness: Playwright's `load` event or the document's
 * own `readyState`. A popup window the extension opens can finish loading before Playwright attaches to it;
 * Playwright then never sees `load` (CI, load 13 on 2 cores: "networkidle" fired, `load` never did, 30 s),
 * while the document itself says it is complete. A document that really stays unloaded fails with its state.
 */
async function waitForDocumentLoad(page: Page, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let state = 'unknown';
  const seen = page.waitForLoadState('load', { timeout: timeoutMs }).then(
    () => true,
    () => false,
  );
  let loaded = false;
  void seen.then((v) => {
    loaded ||= v;
  });
  while (!loaded && Date.now() < deadline) {
    if (page.isClosed()) throw new Error(`${page.url()} was closed while it loaded`);
    const pause = new Promise<void>((resolve) => setTimeout(resolve, 250));
    const asked = page.evaluate(() => document.readyState).catch(() => state);
    state = (await Promise.race([asked, pause.then(() => state)])) as string;
    if (state === 'complete') return;
    await Promise.race([seen, pause]);
  }
  if (!loaded) throw new Error(`${page.url()} did not load within ${timeoutMs} ms (its document.readyState: ${state})`);
}
