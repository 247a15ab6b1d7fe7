/**
 * The background: Chrome's service worker and Firefox's event page, one script. It routes messages
 * between the popup, the content script in a tab and the solver host (Chrome: the offscreen document;
 * Firefox: this page itself); keeps run statuses in storage.session (never only in memory: both browsers
 * unload an idle background) and the game log in storage.local; sets the toolbar badge; handles the
 * keyboard commands.
 */
import contentScriptFile from '../content/index.ts?script';
import { DeliveryError, StatusError } from '../shared/protocol';
import { listen, send } from '../platform/messaging';
import { acceptLifelines } from '../platform/runtime';
import type { Command, ReplyOf, RunStatus } from '../shared/messages';
import type { SenderInfo } from '../shared/protocol';
import { backgroundHandlers, warmsSolver } from './routing';
import { SETTINGS_STORAGE_KEY, normalizeSettings } from '../shared/settings';
import type { Settings } from '../shared/settings';
import { GameLogWriter } from './game-log-writer';
import { LiveGames, isNewSession } from './live-games';
import { deleteOldTables } from './old-data';
import { endedDocumentKey, readStatus, statusDocumentKey, statusKey, tabsWithStatus } from '../shared/run-status-store';
import { NETWORK_STATUS_KEY } from '../shared/network-status';
import type { NetworkStatus } from '../shared/network-status';
import { ShownBadges, badgeFor } from './badge';
import { errorStatus, injectionError, statusAfterPageEnd, stoppedGameRecord, toggleCommand } from './run-status';
import { statusMessage } from '../shared/status-message';
import type { PageEnd } from './run-status';
import { SOLVER_HOST, browser, openPanel } from '../platform/runtime';
import type { SolverHost } from '../solver/host';
import { offscreenSolverHost } from './offscreen-host';
import { backgroundPageSolverHost } from './page-host';
import { injectAutopilot } from './inject';
import { StatusThrottle } from './status-throttle';
import { listenForInstalls } from './onboarding';

/** The solver host's report on the learned network, kept for the popup and the panel (one for every tab). */
async function saveNetworkStatus(status: NetworkStatus): Promise<void> {
  await browser.storage.session.set({ [NETWORK_STATUS_KEY]: status });
}

const solverHost: SolverHost =
  SOLVER_HOST === 'background-page' ? backgroundPageSolverHost((status) => void saveNetworkStatus(status).catch(() => undefined)) : offscreenSolverHost;

// ---------------------------------------------------------------------------------------------------
// Stored state

async function loadStatus(tabId: number): Promise<RunStatus | null> {
  const key = statusKey(tabId);
  const items = await browser.storage.session.get(key);
  return readStatus(items[key]);
}

async function saveStatus(tabId: number, status: RunStatus, extra: Record<string, unknown> = {}): Promise<void> {
  await browser.storage.session.set({ [statusKey(tabId)]: status, ...extra });
  await showBadge(tabId, status);
  await liveGames.note(tabId, status, Date.now());
}

const shownBadges = new ShownBadges();

async function showBadge(tabId: number, status: RunStatus | null): Promise<void> {
  const badge = badgeFor(status);
  if (!shownBadges.changed(tabId, badge)) return;
  try {
    await browser.action.setBadgeText({ tabId, text: badge.text });
    if (badge.text) await browser.action.setBadgeBackgroundColor({ tabId, color: badge.color });
  } catch {
    // The tab may be gone already.
    shownBadges.forget(tabId);
  }
}

/** The one writer of the game log: recordings, fallbacks, imports, deletions and clearing in one queue. */
const gameLog = new GameLogWriter(browser.storage.local, browser.storage.session);

/**
 * A session that starts on an emptied storage.session: the games left in play are recorded, old data goes
 * and an earlier version's whole game log moves into its parts.
 */
const newSession = isNewSession(browser.storage.session, Date.now());
newSession.then((fresh) => (fresh ? Promise.all([deleteOldTables(), gameLog.migrate()]) : undefined)).catch(() => undefined);
const liveGames = new LiveGames(browser.storage.local, gameLog, newSession);

// ---------------------------------------------------------------------------------------------------
// The content script in a tab

async function tabUrl(tabId: number): Promise<string | undefined> {
  try {
    return (await browser.tabs.get(tabId)).url;
  } catch {
    return undefined;
  }
}

/** The mark a live content script leaves on its isolated world's global (CONTENT_MARK in src/content/index.ts). */
const CONTENT_MARK = '__2048autopilotContent';

/**
 * Runs in the tab's isolated world (serialized by executeScript: self-contained): is a live content
 * script of this extension there? An orphan of an earlier extension instance does not count.
 */
function contentScriptAlive(mark: string): boolean {
  const instance = (globalThis as unknown as Record<string, unknown>)[mark];
  if (typeof instance !== 'object' || instance === null) return false;
  const alive = (instance as { alive?: unknown }).alive;
  return typeof alive === 'function' && alive.call(instance) === true;
}

/**
 * The document the user started on — the tab's top document at the moment of the command, by its id
 * (from the probe's injection result: no webNavigation permission needed) — with the content script and
 * the main-world agent (./inject) injected into that very document unless a live content script is there already.
 * A navigation in between makes the injection fail instead of landing on another page.
 */
async function ensureContentScript(tabId: number): Promise<string | undefined> {
  let documentId: string | undefined;
  try {
    const [probe] = await browser.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      func: contentScriptAlive,
      args: [CONTENT_MARK],
      injectImmediately: true,
    });
    documentId = probe?.documentId;
    if (probe?.result === true) return documentId;
    await injectAutopilot(tabId, contentScriptFile, CONTENT_MARK, documentId);
  } catch (err) {
    throw new StatusError(injectionError(err, await tabUrl(tabId)));
  }
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await send('content/ping', {}, { tabId, documentId });
      return documentId;
    } catch {
      await new Promise((done) => setTimeout(done, 50));
    }
  }
  throw new StatusError(statusMessage('scriptNoAnswer'));
}

async function currentSettings(): Promise<Settings> {
  const items = await browser.storage.local.get(SETTINGS_STORAGE_KEY);
  return normalizeSettings(items[SETTINGS_STORAGE_KEY]);
}

/** Send `settings` to the content script of every tab that has a run status (those the extension was started in). */
async function sendSettings(settings: Settings): Promise<void> {
  const tabs = tabsWithStatus(await browser.storage.session.get(null));
  await Promise.all(tabs.map((tabId) => send('content/settings', { settings }, { tabId }).catch(() => undefined)));
}

async function runCommand(tabId: number, command: Command): Promise<ReplyOf<'popup/command'>> {
  // The solver host starts beside the injection, not after it (its first search would wait for its workers).
  if (warmsSolver(command)) solverHost.warm().catch(() => undefined);
  const settings = await currentSettings();
  if (command === 'stop') return stopRun(tabId, settings);
  let documentId: string | undefined;
  try {
    documentId = await ensureContentScript(tabId);
  } catch (err) {
    const message = err instanceof StatusError ? err.status : statusMessage('cannotStart', err instanceof Error ? err.message : String(err));
    await saveStatus(tabId, errorStatus(message, settings.strategy, await loadStatus(tabId), Date.now()));
    throw err;
  }
  try {
    return await send('content/command', { command, settings }, { tabId, documentId });
  } catch (err) {
    // The page's own error (no board, already playing) goes to the popup as it is.
    if (err instanceof DeliveryError && err.remote) throw err;
    throw new StatusError(statusMessage('pageNoAnswer', err instanceof Error ? err.message : String(err)));
  }
}

/**
 * Stop goes to the tab's content script at once, the one message: a check of the page before it (a ping, an
 * injection probe) would let the run play on while they travel, a move or more on a busy machine. Where
 * nothing answers (the page was reloaded, or never started), the stored status says the run stopped.
 */
async function stopRun(tabId: number, settings: Settings): Promise<ReplyOf<'popup/command'>> {
  try {
    return await send('content/command', { command: 'stop', settings }, { tabId });
  } catch (err) {
    // The page's own error goes to the popup as it is.
    if (err instanceof DeliveryError && err.remote) throw err;
    const stale = statusAfterPageEnd(await loadStatus(tabId), 'reloaded', Date.now());
    if (stale) await saveStatus(tabId, { ...stale, message: statusMessage('stopped') });
    return {};
  }
}

// ---------------------------------------------------------------------------------------------------
// Statuses from the content script

/**
 * A status from a document whose run already ended with a navigation is a late message from a page
 * that is gone, unless that document still answers (a same-document navigation of a single-page app).
 */
async function fromEndedDocument(tabId: number, documentId: string | undefined): Promise<boolean> {
  if (!documentId) return false;
  if ((await endedDocumentOf(tabId)) !== documentId) return false;
  try {
    await send('content/ping', {}, { tabId, documentId });
    endedDocuments.set(tabId, null);
    await browser.storage.session.remove(endedDocumentKey(tabId));
    return false;
  } catch {
    return true;
  }
}

/**
 * Per tab, the document whose run ended with a navigation (null: none): the background is the one writer of
 * storage.session's endedDocumentKey, so it keeps what it wrote here and reads the storage only once per tab
 * after it started (a status or two arrive each move: a read each, before).
 */
const endedDocuments = new Map<number, string | null>();

async function endedDocumentOf(tabId: number): Promise<string | null> {
  if (!endedDocuments.has(tabId)) {
    const key = endedDocumentKey(tabId);
    const stored: unknown = (await browser.storage.session.get(key))[key];
    // A write while the storage was read is newer than what it held.
    if (!endedDocuments.has(tabId)) endedDocuments.set(tabId, typeof stored === 'string' ? stored : null);
  }
  return endedDocuments.get(tabId) ?? null;
}

const statusThrottle = new StatusThrottle();
const heldTimers = new Map<number, ReturnType<typeof setTimeout>>();

async function onStatus(tabId: number, status: RunStatus, sender: SenderInfo): Promise<void> {
  if (await fromEndedDocument(tabId, sender.documentId)) return;
  const extra = sender.documentId ? { [statusDocumentKey(tabId)]: sender.documentId } : {};
  const offer = statusThrottle.offer(tabId, status, Date.now());
  if ('write' in offer) {
    clearTimeout(heldTimers.get(tabId));
    heldTimers.delete(tabId);
    await saveStatus(tabId, offer.write, extra);
    return;
  }
  if (heldTimers.has(tabId)) return; // the held status goes out with that timer, whichever is newest then
  heldTimers.set(
    tabId,
    setTimeout(() => {
      heldTimers.delete(tabId);
      void (async () => {
        if (await fromEndedDocument(tabId, sender.documentId)) return;
        const held = statusThrottle.due(tabId, Date.now());
        if (held) await saveStatus(tabId, held, extra);
      })().catch(() => undefined);
    }, offer.holdMs),
  );
}

/** A page ended: a status held back for it is never stored. */
function dropHeldStatus(tabId: number): void {
  clearTimeout(heldTimers.get(tabId));
  heldTimers.delete(tabId);
  statusThrottle.forget(tabId);
}

async function onPageEnd(tabId: number, end: PageEnd): Promise<void> {
  dropHeldStatus(tabId);
  const docKey = statusDocumentKey(tabId);
  const items = await browser.storage.session.get([statusKey(tabId), docKey]);
  const status = readStatus(items[statusKey(tabId)]);
  const now = Date.now();
  const record = stoppedGameRecord(status, now);
  if (end === 'closed') {
    endedDocuments.delete(tabId);
    await browser.storage.session.remove([statusKey(tabId), docKey, endedDocumentKey(tabId)]);
  } else {
    const rewritten = statusAfterPageEnd(status, end, now);
    const documentId: unknown = items[docKey];
    if (rewritten) {
      if (typeof documentId === 'string') endedDocuments.set(tabId, documentId);
      await saveStatus(tabId, rewritten, typeof documentId === 'string' ? { [endedDocumentKey(tabId)]: documentId } : {});
    }
  }
  // The content script records its game on pagehide; this is the fallback when it could not.
  if (record) await gameLog.record(record, { fallback: true });
  await liveGames.end(tabId);
}

// ---------------------------------------------------------------------------------------------------
// Routing

acceptLifelines();
listenForInstalls();

listen('background', backgroundHandlers({ solverHost, runCommand, saveStatus: onStatus, gameLog, saveNetworkStatus, currentSettings }));

// The settings changed (the popup, the panel): the content scripts hear it from here, the settings alone
// (a content script does not listen to storage, whose every change would carry every site's games).
browser.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local' || !(SETTINGS_STORAGE_KEY in changes)) return;
  void sendSettings(normalizeSettings(changes[SETTINGS_STORAGE_KEY].newValue));
});

browser.tabs.onUpdated.addListener((tabId, changeInfo) => {
  if (changeInfo.status !== 'loading') return;
  shownBadges.forget(tabId);
  void onPageEnd(tabId, changeInfo.url ? 'left' : 'reloaded');
});

browser.tabs.onRemoved.addListener((tabId) => {
  shownBadges.forget(tabId);
  void onPageEnd(tabId, 'closed');
});

browser.commands.onCommand.addListener((command, tab) => {
  if (command === 'open-panel') {
    // Opening the panel needs the user's gesture: called at once, before anything is awaited.
    if (tab?.windowId !== undefined) openPanel(tab.windowId).catch(() => undefined);
    return;
  }
  void (async () => {
    const tabId = tab?.id ?? (await browser.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id;
    if (tabId === undefined) return;
    if (command === 'toggle-solve') await runCommand(tabId, toggleCommand(await loadStatus(tabId)));
    else if (command === 'step') await runCommand(tabId, 'step');
  })().catch(() => {
    // A shortcut has no one to answer: a failure shows in the tab's stored status (the popup and the badge).
  });
});
