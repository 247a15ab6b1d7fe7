/**
 * Content-script entry (isolated world), injected on demand by the background with
 * chrome.scripting.executeScript, before the main-world script (src/page/main-world.ts).
 * Idempotent: a second injection into the same page finds the first one's mark and does nothing.
 *
 * It answers `content/ping` and `content/command` (validated with parseMessage, from this extension
 * only), follows settings changes in chrome.storage.local, and runs the Driver.
 */
import { ACCEPTED_BY, errorReply, isOwnSender, parseMessage } from '../shared/messages';
import type { Message } from '../shared/messages';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, normalizeSettings } from '../shared/settings';
import { ADAPTERS } from './adapters/index';
import { createPageBridge } from './bridge';
import { Driver } from './driver';

/** Version of the content script's protocol, answered to `content/ping`. */
export const CONTENT_VERSION = 1;

const MARK = '__2048autopilotContent';

function start(): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  if (scope[MARK]) return;
  scope[MARK] = true;

  const bridge = createPageBridge(window);
  const driver = new Driver(
    {
      document,
      window,
      adapters: ADAPTERS,
      bridge,
      sendMessage: (message: Message) => chrome.runtime.sendMessage(message),
    },
    DEFAULT_SETTINGS,
  );

  chrome.storage.local
    .get(SETTINGS_STORAGE_KEY)
    .then((items) => driver.updateSettings(normalizeSettings(items[SETTINGS_STORAGE_KEY])))
    .catch(() => undefined);

  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !(SETTINGS_STORAGE_KEY in changes)) return;
    driver.updateSettings(normalizeSettings(changes[SETTINGS_STORAGE_KEY].newValue));
  });

  const accepted: readonly string[] = ACCEPTED_BY.content;
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    if (!isOwnSender(sender, chrome.runtime.id)) return false;
    let message: Message;
    try {
      message = parseMessage(raw);
    } catch (err) {
      // Not for us (another context's message) or malformed: answer only what is addressed to us.
      const kind = raw && typeof raw === 'object' ? (raw as { kind?: unknown }).kind : undefined;
      if (typeof kind === 'string' && accepted.includes(kind)) {
        sendResponse(errorReply(err));
        return false;
      }
      return false;
    }
    if (message.kind === 'content/ping') {
      sendResponse({ ok: true, version: CONTENT_VERSION });
      return false;
    }
    if (message.kind === 'content/command') {
      driver.handleCommand(message.command, normalizeSettings(message.settings)).then(sendResponse, (err: unknown) => sendResponse(errorReply(err)));
      return true;
    }
    return false;
  });

  // Connect the main-world bridge early (it is injected right after this script).
  void bridge.connect(1_000);
}

start();
