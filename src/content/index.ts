/**
 * Content-script entry (isolated world), injected on demand by the background with
 * scripting.executeScript (src/background/inject.ts), before the main-world agent
 * (src/page/main-world.ts); it takes the bridge's keys the background left on the isolated world's global.
 * Idempotent: a second injection into the same page finds the first one's mark and does nothing.
 *
 * It answers `content/ping` and `content/command` (through the protocol's `listen`), follows settings
 * changes in storage.local, and runs the Driver.
 */
import { listen } from '../shared/messages';
import { browser, sendRaw } from '../platform/runtime';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, normalizeSettings } from '../shared/settings';
import { ADAPTERS } from './adapters/index';
import { KEYS_GLOBAL, isChannel, isSecret } from '../page/bridge-protocol';
import type { BridgeKeys } from '../page/bridge-protocol';
import { createPageBridge, unusedKeys } from './bridge';
import { Driver } from './driver';

/** Version of the content script's protocol, answered to `content/ping`. */
export const CONTENT_VERSION = 1;

const MARK = '__2048autopilotContent';

/** The keys the background left on this (isolated) world's global just before injecting this script. */
function takeBridgeKeys(scope: Record<string, unknown>): BridgeKeys {
  const keys = scope[KEYS_GLOBAL] as { secret?: unknown; channel?: unknown } | undefined;
  delete scope[KEYS_GLOBAL];
  if (keys && isSecret(keys.secret) && isChannel(keys.channel)) return { secret: keys.secret, channel: keys.channel };
  return unusedKeys(); // injected some other way: no agent will answer, the DOM adapters still work
}

function start(): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  if (scope[MARK]) return;
  scope[MARK] = true;

  const bridge = createPageBridge(window, takeBridgeKeys(scope));
  const driver = new Driver(
    {
      document,
      window,
      adapters: ADAPTERS,
      bridge,
      measure: false,
      sendMessage: (message) => sendRaw(message),
    },
    DEFAULT_SETTINGS,
  );
  // No performance.measure entries: they would land on the page's own timeline.

  browser.storage.local
    .get(SETTINGS_STORAGE_KEY)
    .then((items) => driver.updateSettings(normalizeSettings(items[SETTINGS_STORAGE_KEY])))
    .catch(() => undefined);

  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !(SETTINGS_STORAGE_KEY in changes)) return;
    driver.updateSettings(normalizeSettings(changes[SETTINGS_STORAGE_KEY].newValue));
  });

  listen('content', {
    'content/ping': () => ({ version: CONTENT_VERSION }),
    'content/command': (request) => driver.handleCommand(request.command, normalizeSettings(request.settings)),
  });

  // Connect the main-world bridge early (it is injected right after this script).
  void bridge.connect(1_000);
}

start();
