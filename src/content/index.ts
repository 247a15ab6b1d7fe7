/**
 * Content-script entry (isolated world), injected on demand by the background with
 * chrome.scripting.executeScript (src/background/inject.ts), before the main-world agent
 * (src/page/main-world.ts); it takes the bridge's keys the background left on the isolated world's global.
 * Idempotent: a second injection into the same page finds the first one's mark and does nothing.
 *
 * It answers `content/ping` and `content/command` (through the protocol's `listen`), follows settings
 * changes in chrome.storage.local, and runs the Driver (the autopilot) and the Coach (coach mode); the
 * arrow overlay shows the coach's suggestion and a Hint's (src/content/commands.ts routes the commands).
 */
import { listen, send } from '../shared/messages';
import { sendRaw } from '../platform/runtime';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, normalizeSettings } from '../shared/settings';
import type { Settings } from '../shared/settings';
import { ADAPTERS } from './adapters/index';
import { KEYS_GLOBAL, isChannel, isSecret } from '../page/bridge-protocol';
import type { BridgeKeys } from '../page/bridge-protocol';
import { createPageBridge, unusedKeys } from './bridge';
import { Coach } from './coach';
import { CommandRouter } from './commands';
import { DEFAULT_TIMING, Driver } from './driver';
import { ArrowOverlay } from './overlay';
import { SolverClient } from './solver-client';

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

  let settings: Settings = DEFAULT_SETTINGS;
  const useSettings = (next: Settings): void => {
    settings = next;
    driver.updateSettings(next);
  };
  const overlay = new ArrowOverlay(document, window);
  const coach = new Coach({
    window,
    boards: driver.boards,
    solver: new SolverClient(send, DEFAULT_TIMING.solverRetryMs, (ms) => new Promise((done) => setTimeout(done, ms))),
    overlay,
    settings: () => settings,
    report: (patch) => driver.report(patch),
    record: (record) => void send('content/game-finished', { record }).catch(() => undefined),
  });
  const router = new CommandRouter(driver, coach, overlay, window);

  chrome.storage.local
    .get(SETTINGS_STORAGE_KEY)
    .then((items) => useSettings(normalizeSettings(items[SETTINGS_STORAGE_KEY])))
    .catch(() => undefined);

  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !(SETTINGS_STORAGE_KEY in changes)) return;
    useSettings(normalizeSettings(changes[SETTINGS_STORAGE_KEY].newValue));
  });

  listen('content', {
    'content/ping': () => ({ version: CONTENT_VERSION }),
    'content/command': (request) => {
      useSettings(normalizeSettings(request.settings));
      return router.handle(request.command, settings);
    },
  });

  // Connect the main-world bridge early (it is injected right after this script).
  void bridge.connect(1_000);
}

start();
