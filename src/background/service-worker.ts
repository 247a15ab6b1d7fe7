/**
 * The background service worker: routes messages between the popup, the content script in a tab and
 * the offscreen solver; keeps run statuses in chrome.storage.session (never only in memory: MV3 stops
 * this worker whenever it idles) and the game log in chrome.storage.local; sets the toolbar badge;
 * handles the keyboard commands.
 */
import contentScriptFile from '../content/index.ts?script';
import mainWorldScriptFile from '../page/main-world.ts?script';
import { ACCEPTED_BY, errorReply, parseMessage, ProtocolError } from '../shared/messages';
import type { Command, Message, MessageOf, Reply, RunStatus } from '../shared/messages';
import { SETTINGS_STORAGE_KEY, normalizeSettings } from '../shared/settings';
import {
  GAMES_STORAGE_KEY,
  appendGame,
  badgeFor,
  endedDocumentKey,
  errorStatus,
  injectionErrorMessage,
  parseCommandReply,
  readStatus,
  senderAllowed,
  statusAfterPageEnd,
  statusDocumentKey,
  statusKey,
  stoppedGameRecord,
  toggleCommand,
} from './logic';
import type { PageEnd } from './logic';
import { ensureOffscreenDocument, isNoReceiver } from './offscreen-host';

type BackgroundKind = (typeof ACCEPTED_BY.background)[number];
type BackgroundMessage = Extract<Message, { kind: BackgroundKind }>;
type Sender = chrome.runtime.MessageSender;

// ---------------------------------------------------------------------------------------------------
// Stored state

async function loadStatus(tabId: number): Promise<RunStatus | null> {
  const key = statusKey(tabId);
  const items = await chrome.storage.session.get(key);
  return readStatus(items[key]);
}

async function saveStatus(tabId: number, status: RunStatus, extra: Record<string, unknown> = {}): Promise<void> {
  await chrome.storage.session.set({ [statusKey(tabId)]: status, ...extra });
  await showBadge(tabId, status);
}

async function showBadge(tabId: number, status: RunStatus | null): Promise<void> {
  const badge = badgeFor(status);
  try {
    await chrome.action.setBadgeText({ tabId, text: badge.text });
    if (badge.text) await chrome.action.setBadgeBackgroundColor({ tabId, color: badge.color });
  } catch {
    // The tab may be gone already.
  }
}

/** Appends run one after another (read-modify-write of one array). */
let gameLogQueue: Promise<void> = Promise.resolve();

function recordGame(record: MessageOf<'content/game-finished'>['record']): Promise<void> {
  gameLogQueue = gameLogQueue
    .catch(() => undefined)
    .then(async () => {
      const items = await chrome.storage.local.get(GAMES_STORAGE_KEY);
      await chrome.storage.local.set({ [GAMES_STORAGE_KEY]: appendGame(items[GAMES_STORAGE_KEY], record) });
    });
  return gameLogQueue;
}

// ---------------------------------------------------------------------------------------------------
// The content script in a tab

async function pingContent(tabId: number): Promise<boolean> {
  try {
    const reply: unknown = await chrome.tabs.sendMessage(tabId, { kind: 'content/ping' } satisfies Message, { frameId: 0 });
    return typeof reply === 'object' && reply !== null && (reply as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}

async function tabUrl(tabId: number): Promise<string | undefined> {
  try {
    return (await chrome.tabs.get(tabId)).url;
  } catch {
    return undefined;
  }
}

/** Inject the content script, then the main-world script, unless a ping says they are there already. */
async function ensureContentScript(tabId: number): Promise<void> {
  if (await pingContent(tabId)) return;
  try {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: [contentScriptFile] });
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: [mainWorldScriptFile], world: 'MAIN' });
  } catch (err) {
    throw new Error(injectionErrorMessage(err, await tabUrl(tabId)));
  }
  for (let attempt = 0; attempt < 10; attempt++) {
    if (await pingContent(tabId)) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error('The autopilot could not start on this page (its script did not answer).');
}

async function currentSettings() {
  const items = await chrome.storage.local.get(SETTINGS_STORAGE_KEY);
  return normalizeSettings(items[SETTINGS_STORAGE_KEY]);
}

async function runCommand(tabId: number, command: Command): Promise<Reply<'popup/command'>> {
  const settings = await currentSettings();
  if (command === 'stop' && !(await pingContent(tabId))) {
    // Nothing runs there (the page was reloaded, or never started): make the stored status say so.
    const stale = statusAfterPageEnd(await loadStatus(tabId), 'reloaded', Date.now());
    if (stale) await saveStatus(tabId, { ...stale, message: 'Stopped' });
    return { ok: true };
  }
  try {
    await ensureContentScript(tabId);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await saveStatus(tabId, errorStatus(message, settings.strategy, await loadStatus(tabId), Date.now()));
    return { ok: false, error: message };
  }
  let raw: unknown;
  try {
    raw = await chrome.tabs.sendMessage(tabId, { kind: 'content/command', command, settings } satisfies Message, { frameId: 0 });
  } catch (err) {
    return { ok: false, error: `The page did not answer: ${err instanceof Error ? err.message : String(err)}` };
  }
  const reply = parseCommandReply(raw);
  if (!reply.ok) return reply;
  return {
    ok: true,
    ...(reply.hint ? { hint: reply.hint } : {}),
    ...(reply.status ? { status: reply.status } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// Solver requests (content → background → offscreen)

async function forwardSolve(message: MessageOf<'solver/request'>, tabId: number): Promise<Reply<'solver/request'>> {
  const request: Message = {
    kind: 'offscreen/solve',
    requestId: message.requestId,
    strategy: message.strategy,
    board: message.board,
    options: message.options,
    channel: `tab:${tabId}`,
  };
  for (let attempt = 0; ; attempt++) {
    await ensureOffscreenDocument();
    try {
      const reply: unknown = await chrome.runtime.sendMessage(request);
      if (typeof reply !== 'object' || reply === null) throw new Error('The solver did not answer');
      return reply as Reply<'solver/request'>;
    } catch (err) {
      // The document closed itself (idle) between the check and the message: create it again once.
      if (attempt === 0 && isNoReceiver(err)) continue;
      throw err;
    }
  }
}

async function forwardCancel(message: MessageOf<'solver/cancel'>, tabId: number): Promise<Reply<'solver/cancel'>> {
  try {
    await chrome.runtime.sendMessage({ kind: 'offscreen/cancel', requestId: message.requestId, channel: `tab:${tabId}` } satisfies Message);
  } catch {
    // No solver document: nothing to cancel.
  }
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------------
// Statuses from the content script

/**
 * A status from a document whose run already ended with a navigation is a late message from a page
 * that is gone, unless that document still answers (a same-document navigation of a single-page app).
 */
async function fromEndedDocument(tabId: number, documentId: string | undefined): Promise<boolean> {
  if (!documentId) return false;
  const key = endedDocumentKey(tabId);
  const ended = (await chrome.storage.session.get(key))[key];
  if (ended !== documentId) return false;
  try {
    await chrome.tabs.sendMessage(tabId, { kind: 'content/ping' } satisfies Message, { documentId });
    await chrome.storage.session.remove(key);
    return false;
  } catch {
    return true;
  }
}

async function onStatus(message: MessageOf<'content/status'>, sender: Sender, tabId: number): Promise<Reply<'content/status'>> {
  if (await fromEndedDocument(tabId, sender.documentId)) return { ok: true };
  await saveStatus(tabId, message.status, sender.documentId ? { [statusDocumentKey(tabId)]: sender.documentId } : {});
  return { ok: true };
}

async function onPageEnd(tabId: number, end: PageEnd): Promise<void> {
  const docKey = statusDocumentKey(tabId);
  const items = await chrome.storage.session.get([statusKey(tabId), docKey]);
  const status = readStatus(items[statusKey(tabId)]);
  const now = Date.now();
  const record = stoppedGameRecord(status, now);
  if (end === 'closed') {
    await chrome.storage.session.remove([statusKey(tabId), docKey, endedDocumentKey(tabId)]);
  } else {
    const rewritten = statusAfterPageEnd(status, end, now);
    const documentId: unknown = items[docKey];
    if (rewritten) await saveStatus(tabId, rewritten, typeof documentId === 'string' ? { [endedDocumentKey(tabId)]: documentId } : {});
  }
  if (record) await recordGame(record);
}

// ---------------------------------------------------------------------------------------------------
// Routing

async function handle(message: BackgroundMessage, sender: Sender): Promise<Reply<BackgroundKind>> {
  const tabId = sender.tab?.id ?? -1;
  switch (message.kind) {
    case 'popup/command':
      return runCommand(message.tabId, message.command);
    case 'popup/get-status':
      return { ok: true, status: await loadStatus(message.tabId) };
    case 'content/status':
      return onStatus(message, sender, tabId);
    case 'content/game-finished':
      await recordGame(message.record);
      return { ok: true };
    case 'solver/request':
      return forwardSolve(message, tabId);
    case 'solver/cancel':
      return forwardCancel(message, tabId);
  }
}

function isForBackground(message: Message): message is BackgroundMessage {
  return (ACCEPTED_BY.background as readonly string[]).includes(message.kind);
}

chrome.runtime.onMessage.addListener((data: unknown, sender, sendResponse) => {
  let message: Message;
  try {
    message = parseMessage(data);
  } catch (err) {
    if (err instanceof ProtocolError && sender.id === chrome.runtime.id) sendResponse(errorReply(err));
    return false;
  }
  // Messages for other contexts (offscreen/*, content/*) are not ours to answer.
  if (!isForBackground(message)) return false;
  if (!senderAllowed(message.kind, sender, chrome.runtime.id)) {
    sendResponse(errorReply(new Error(`Refused: ${message.kind} is not accepted from this sender`)));
    return false;
  }
  handle(message, sender).then(sendResponse, (err: unknown) => sendResponse(errorReply(err)));
  return true;
});

chrome.tabs.onUpdated.addListener((tabId, changeInfo) => {
  if (changeInfo.status !== 'loading') return;
  void onPageEnd(tabId, changeInfo.url ? 'left' : 'reloaded');
});

chrome.tabs.onRemoved.addListener((tabId) => {
  void onPageEnd(tabId, 'closed');
});

chrome.commands.onCommand.addListener((command, tab) => {
  void (async () => {
    const tabId = tab?.id ?? (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id;
    if (tabId === undefined) return;
    if (command === 'toggle-solve') await runCommand(tabId, toggleCommand(await loadStatus(tabId)));
    else if (command === 'step') await runCommand(tabId, 'step');
  })();
});
