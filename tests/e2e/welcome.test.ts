/**
 * The first run and an update, in Chromium, as a person lives them (src/shared/onboarding.ts): a copy of
 * the test build at an older version is installed into a profile that is kept; the first start opens the
 * welcome page once, "How it works" in the popup and the side panel opens it again, a second start of the
 * browser opens nothing; then the real version replaces the copy's (an update: the extension is reloaded
 * from its folder, as chrome://extensions does), which opens nothing either and leaves the popup's update
 * line, shown until it is read. The welcome and documents pages have no axe violation, light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openExtensionWindow } from '../harness/chromium';
import { CURRENT_VERSION, DOCUMENT_PATH, PANEL_PATH, PREVIOUS_VERSION, SETTLE_MS, UPDATE_LINE, WELCOME_PATH, extensionCopy, setVersion, updateLine } from '../support/installs';
import { axeViolations } from './support/axe';
import { DIST_DIR, E2ESession, sleep, waitFor } from './support/harness';

const copy = extensionCopy(DIST_DIR, PREVIOUS_VERSION);
const profileDir = mkdtempSync(join(tmpdir(), '2048-autopilot-kept-profile-'));
let session: E2ESession;

/** The classic game's tab in this start of the browser (opened once: the popup is for it). */
let gameTab: number | undefined;

function start(): Promise<E2ESession> {
  gameTab = undefined;
  return E2ESession.start({ launch: { extensionDir: copy.dir, profileDir, keepWelcomePage: true } });
}

function pagesAt(path: string): Page[] {
  return session.context.pages().filter((page) => page.url().startsWith(`chrome-extension://${session.extensionId}/${path}`));
}

/** Wait until `count` pages show `path`, then a moment more: no further one may come. */
async function expectPagesAt(path: string, count: number): Promise<Page[]> {
  await waitFor(async () => pagesAt(path).length, (n) => n >= count, { what: `${count} page(s) at ${path}`, timeoutMs: 10_000 });
  await sleep(SETTLE_MS);
  expect(pagesAt(path)).toHaveLength(count);
  return pagesAt(path);
}

async function expectNoAxeViolation(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await axeViolations(page), `${page.url()} (${colorScheme})`).toEqual([]);
  }
}

/** The popup for the classic game's tab, and its update line (hidden or not). */
async function popupWithNote(): Promise<{ popup: Page; note: { hidden: boolean; link: string } }> {
  gameTab ??= (await session.openGame('/classic/')).tabId;
  const popup = await session.openPopup(gameTab);
  await sleep(300); // the note is read from storage after the page loaded
  return { popup, note: await popup.evaluate(updateLine) };
}

beforeAll(async () => {
  session = await start();
});

afterAll(async () => {
  await session?.close();
  rmSync(profileDir, { recursive: true, force: true });
  copy.remove();
});

describe('the first run', () => {
  it('the first install opens the welcome page once: three real pictures, the version, the shortcuts', async () => {
    const [welcome] = await expectPagesAt(WELCOME_PATH, 1);
    await welcome.waitForLoadState('load');
    expect(await welcome.title()).toBe('Welcome to 2048 Autopilot');
    const view = await welcome.evaluate(() => ({
      pictures: [...document.querySelectorAll<HTMLImageElement>('.steps img.shot')].map((img) => img.naturalWidth),
      icon: document.querySelector<HTMLImageElement>('.toolbar-icon img')?.naturalWidth ?? 0,
      steps: [...document.querySelectorAll('.step h3')].map((h) => h.textContent),
      version: document.getElementById('version')?.textContent,
      firefoxHidden: (document.getElementById('firefox-access') as HTMLElement).hidden,
      panelButton: !(document.getElementById('open-panel') as HTMLElement).hidden,
    }));
    expect(view.steps).toEqual(['Open a 2048 game', 'Click the 2048 Autopilot icon', 'Press Solve']);
    expect(view.pictures).toHaveLength(2);
    for (const width of view.pictures) expect(width).toBeGreaterThanOrEqual(200);
    expect(view.icon).toBe(32);
    expect(view.version).toBe(`2048 Autopilot, version ${PREVIOUS_VERSION}`);
    expect(view.firefoxHidden).toBe(true);
    expect(view.panelButton).toBe(true);
  });

  it('the welcome page and the documents it links have no axe violation, light and dark', async () => {
    const [welcome] = pagesAt(WELCOME_PATH);
    await expectNoAxeViolation(welcome);
    await welcome.emulateMedia({ colorScheme: 'light' });
    await welcome.getByRole('link', { name: "What's new" }).click();
    await welcome.waitForURL(/document\.html\?doc=changelog/);
    expect(await welcome.getByRole('heading', { level: 2 }).first().textContent()).toMatch(new RegExp(`^${CURRENT_VERSION.replace(/\./g, '\\.')} — \\d{4}-\\d{2}-\\d{2}$`));
    await expectNoAxeViolation(welcome);
    await welcome.goBack();
    await welcome.getByRole('link', { name: 'Privacy statement' }).click();
    await welcome.waitForURL(/document\.html\?doc=privacy/);
    expect(await welcome.getByRole('heading', { level: 1 }).textContent()).toBe('Privacy');
    await expectNoAxeViolation(welcome);
    await welcome.close();
  });

  it('"How it works" in the popup and in the side panel opens it again; the popup has no update line', async () => {
    const { popup, note } = await popupWithNote();
    expect(note.hidden).toBe(true);
    await popup.getByRole('link', { name: 'How it works' }).click();
    await expectPagesAt(WELCOME_PATH, 1);
    const panel = await openExtensionWindow(session.browser, `${PANEL_PATH}?tabId=${gameTab}`);
    await panel.getByRole('link', { name: 'How it works' }).click();
    await expectPagesAt(WELCOME_PATH, 2);
    await panel.close();
    await popup.close();
  });

  it('a second start of the browser opens nothing', async () => {
    await session.close();
    session = await start();
    await sleep(SETTLE_MS);
    expect(pagesAt(WELCOME_PATH)).toHaveLength(0);
    expect(await session.inExtension(() => chrome.runtime.getManifest().version, null)).toBe(PREVIOUS_VERSION);
    const { popup, note } = await popupWithNote();
    expect(note.hidden).toBe(true);
    await popup.close();
  });
});

describe('an update', () => {
  it('opens no welcome page; the popup shows the update line until it is read', async () => {
    setVersion(copy.dir, CURRENT_VERSION);
    await session.reloadExtension();
    expect(await session.inExtension(() => chrome.runtime.getManifest().version, null)).toBe(CURRENT_VERSION);
    await sleep(SETTLE_MS);
    expect(pagesAt(WELCOME_PATH)).toHaveLength(0);

    const first = await popupWithNote();
    expect(first.note).toEqual({ hidden: false, link: UPDATE_LINE });
    await first.popup.getByRole('link', { name: UPDATE_LINE }).click();
    const [notes] = await expectPagesAt(DOCUMENT_PATH, 1);
    expect(notes.url()).toContain(`?doc=changelog#v${CURRENT_VERSION}`);
    const current = notes.locator(`h2#v${CURRENT_VERSION.replace(/\./g, '\\.')}`);
    await current.waitFor();
    expect(await current.getAttribute('class')).toBe('current');

    const again = await popupWithNote();
    expect(again.note.hidden).toBe(true);
    await again.popup.close();
  });
});
