/**
 * The first run and an update, in Firefox, as a person lives them (src/shared/onboarding.ts): the add-on is
 * installed for good into a profile that is kept (as from addons.mozilla.org, not as a temporary add-on),
 * first at an older version. The first start opens the welcome page once and "How it works" in the popup
 * opens it again; a second start of the browser opens nothing; then the real version replaces the old on
 * disk and the browser starts again (an update, in a dark theme this time): no welcome page, the popup's
 * update line until it is read, and "How it works" in the sidebar's page. No axe violation on the welcome
 * page, light (first start) and dark (after the update).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchFirefoxWithInstalledExtension, openExtensionTab, openExtensionWindow } from '../harness/firefox';
import type { FirefoxExtensionBrowser } from '../harness/firefox';
import { CURRENT_VERSION, DOCUMENT_PATH, PANEL_PATH, POPUP_PATH, PREVIOUS_VERSION, SETTLE_MS, UPDATE_LINE, WELCOME_PATH, extensionCopy, setVersion, updateLine } from '../support/installs';
import { axeViolations } from '../e2e/support/axe';
import { FIREFOX_DIST_DIR, sleep, waitFor } from './support/harness';

/** Firefox draws content pages dark (as with a dark system theme). */
const DARK = { 'layout.css.prefers-color-scheme.content-override': 0, 'ui.systemUsesDarkTheme': 1 };

const copy = extensionCopy(FIREFOX_DIST_DIR, PREVIOUS_VERSION);
const profileDir = mkdtempSync(join(tmpdir(), '2048-autopilot-kept-firefox-'));
const uuid = randomUUID();
let ext: FirefoxExtensionBrowser | undefined;
let control: Page;

interface TabInfo {
  readonly id?: number;
  readonly url?: string;
}
declare const browser: { tabs: { query(q: object): Promise<TabInfo[]>; getCurrent(): Promise<TabInfo> }; runtime: { getManifest(): { version: string } } };

async function start(prefs: Record<string, unknown> = {}): Promise<void> {
  await ext?.close();
  ext = await launchFirefoxWithInstalledExtension({ extensionDir: copy.dir, profileDir, uuid, prefs });
  control = await openExtensionTab(ext, 'manifest.json');
}

/** The tabs showing the add-on's page `path` (the add-on sees its own pages' addresses). */
async function tabsAt(path: string): Promise<TabInfo[]> {
  const url = `moz-extension://${uuid}/${path}`;
  const tabs = await control.evaluate(() => browser.tabs.query({}));
  return tabs.filter((tab) => tab.url?.startsWith(url));
}

async function expectTabsAt(path: string, count: number): Promise<TabInfo[]> {
  await waitFor(() => tabsAt(path), (tabs) => tabs.length >= count, { what: `${count} tab(s) at ${path}`, timeoutMs: 15_000 });
  await sleep(SETTLE_MS);
  const tabs = await tabsAt(path);
  expect(tabs).toHaveLength(count);
  return tabs;
}

/**
 * The Puppeteer page of the (last) tab at `path`. Looked for again until it answers: a tab the add-on has just
 * opened can be listed before its page answers an evaluation (CI, load 14: the tab was there, no page said so).
 */
async function pageAt(path: string): Promise<Page> {
  const url = `moz-extension://${uuid}/${path}`;
  const found = await waitFor(
    async () => {
      for (const page of (await ext!.browser.pages()).reverse()) {
        const href = await page.evaluate(() => location.href).catch(() => '');
        if (href.startsWith(url)) return page;
      }
      return null;
    },
    (page) => page !== null,
    { what: `a page at ${path}`, timeoutMs: 15_000 },
  );
  const page = found as Page;
  await waitFor(() => page.evaluate(() => document.readyState), (state) => state === 'complete', { what: `${path} loaded`, timeoutMs: 10_000 });
  return page;
}

/** The popup (for the control tab), and its update line. */
async function popupWithNote(): Promise<{ popup: Page; note: { hidden: boolean; link: string } }> {
  const { id } = await control.evaluate(() => browser.tabs.getCurrent());
  const popup = await openExtensionWindow(ext!, control, `${POPUP_PATH}?tabId=${id}`);
  await sleep(300); // the note is read from storage after the page loaded
  return { popup, note: await popup.evaluate(updateLine) };
}

afterAll(async () => {
  await ext?.close();
  rmSync(profileDir, { recursive: true, force: true });
  copy.remove();
});

describe('Firefox: the first run and an update', () => {
  it('the first install opens the welcome page once, with no axe violation (light), and the Firefox paragraph', async () => {
    await start();
    await expectTabsAt(WELCOME_PATH, 1);
    const welcome = await pageAt(WELCOME_PATH);
    const view = await welcome.evaluate(() => ({
      title: document.title,
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      firefox: !(document.getElementById('firefox-access') as HTMLElement).hidden,
      pictures: [...document.querySelectorAll<HTMLImageElement>('.steps img.shot')].map((img) => img.naturalWidth),
    }));
    expect(view).toEqual({ title: 'Welcome to 2048 Autopilot', dark: false, firefox: true, pictures: [expect.any(Number), expect.any(Number)] });
    for (const width of view.pictures) expect(width).toBeGreaterThanOrEqual(200);
    expect(await axeViolations(welcome)).toEqual([]);
  });

  it('"How it works" in the popup opens it again; no update line', async () => {
    const { popup, note } = await popupWithNote();
    expect(note.hidden).toBe(true);
    await popup.click('a[data-page="welcome"]');
    await expectTabsAt(WELCOME_PATH, 2);
  });

  it('a second start of the browser opens nothing', async () => {
    await start();
    await sleep(SETTLE_MS);
    expect(await tabsAt(WELCOME_PATH)).toHaveLength(0);
    expect(await control.evaluate(() => browser.runtime.getManifest().version)).toBe(PREVIOUS_VERSION);
    const { popup, note } = await popupWithNote();
    expect(note.hidden).toBe(true);
    await popup.close();
  });

  it('an update opens no welcome page; the popup shows the update line until it is read', async () => {
    setVersion(copy.dir, CURRENT_VERSION);
    await start(DARK);
    expect(await control.evaluate(() => browser.runtime.getManifest().version)).toBe(CURRENT_VERSION);
    await sleep(SETTLE_MS);
    expect(await tabsAt(WELCOME_PATH)).toHaveLength(0);
    const first = await popupWithNote();
    expect(first.note).toEqual({ hidden: false, link: UPDATE_LINE });
    await first.popup.click('#update-note a');
    const [notes] = await expectTabsAt(DOCUMENT_PATH, 1);
    expect(notes.url).toContain(`?doc=changelog#v${CURRENT_VERSION}`);
    const again = await popupWithNote();
    expect(again.note.hidden).toBe(true);
    await again.popup.close();
  });

  it('"How it works" in the sidebar\'s page opens the welcome page: no axe violation (dark)', async () => {
    const { id } = await control.evaluate(() => browser.tabs.getCurrent());
    const panel = await openExtensionWindow(ext!, control, `${PANEL_PATH}?tabId=${id}`);
    await panel.click('a[data-page="welcome"]');
    await expectTabsAt(WELCOME_PATH, 1);
    const welcome = await pageAt(WELCOME_PATH);
    expect(await welcome.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    expect(await axeViolations(welcome)).toEqual([]);
  });
});
