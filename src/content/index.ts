/**
 * Content-script entry (isolated world), injected on demand by the background with
 * scripting.executeScript (src/background/inject.ts), before the main-world agent
 * (src/page/main-world.ts); it takes the bridge's keys the background left on the isolated world's global.
 *
 * One live instance per document: a second injection finds the first one's mark and does nothing while
 * that one is alive. An instance is alive while its extension is: after a reload or an update of the
 * extension the old script is orphaned (no runtime), and it stands down — it stops any run, records its
 * game, sends its main-world agent away, removes every listener it added, sends no key — as soon as it
 * notices (its lifeline port to the background drops, or any check finds the runtime gone), and at the
 * latest when the page's next content script starts: in the same world it finds the mark; in Chromium,
 * where it runs in a new isolated world, it asks on the page's window (./handover.ts), and the orphan
 * hands over the games it could not send and its game in progress, which goes on here.
 *
 * The page's own lifecycle: `pagehide` (a navigation, or the page going into the back-forward cache)
 * stops the run and records its game; a page restored from that cache does not resume (Solve again does)
 * and opens a new port to the background (`pageshow`).
 *
 * It answers `content/ping`, `content/command` and `content/settings` (through the protocol's `listen`),
 * asks the background for the settings as it starts (`settings/get`) and never reads the extension's
 * storage (it holds every site's games, which have no business in a page's process), and runs the
 * Driver (the autopilot) and the Coach (coach mode); the arrow overlay shows the coach's suggestion and a
 * Hint's (src/content/commands.ts routes the commands).
 */
import { extensionTransport, listen, send } from '../platform/messaging';
import { openLifeline, runtimeLiveness } from '../platform/runtime';
import { resetRequestPorts } from '../platform/port-transport';
import { DEFAULT_SETTINGS, normalizeSettings } from '../shared/settings';
import type { Settings } from '../shared/settings';
import { ADAPTERS } from './adapters/index';
import { KEYS_GLOBAL, isChannel, isSecret } from '../shared/bridge-protocol';
import type { BridgeKeys } from '../shared/bridge-protocol';
import { createPageBridge, unusedKeys } from './bridge';
import { answerLaterScripts, askEarlierScripts, handedGames } from './handover';
import { StatusError } from '../shared/protocol';
import { DriverError, statusOfError } from './errors';
import { Coach } from './coach';
import { CommandRouter } from './commands';
import { Driver } from './driver';
import { DEFAULT_TIMING } from './driver-environment';
import { ArrowOverlay } from './overlay';
import { SolverClient } from './solver-client';

/** Version of the content script's protocol, answered to `content/ping`. */
export const CONTENT_VERSION = 1;

/** The property of the isolated world's global object that holds the live instance (read by the background's probe too). */
export const CONTENT_MARK = '__2048autopilotContent';

/** What an instance leaves under CONTENT_MARK. */
export interface ContentInstance {
  alive(): boolean;
  standDown(): void;
  /** The bridge's channel name (not secret): the background injects an agent for this channel only. */
  readonly channel: string;
}

/** The keys the background left on this (isolated) world's global just before injecting this script. */
function takeBridgeKeys(scope: Record<string, unknown>): BridgeKeys {
  const keys = scope[KEYS_GLOBAL] as { secret?: unknown; channel?: unknown; handover?: unknown } | undefined;
  delete scope[KEYS_GLOBAL];
  if (keys && isSecret(keys.secret) && isChannel(keys.channel)) {
    return { secret: keys.secret, channel: keys.channel, ...(isSecret(keys.handover) ? { handover: keys.handover } : {}) };
  }
  return unusedKeys(); // injected some other way: no agent will answer, the DOM adapters still work
}

function isInstance(value: unknown): value is ContentInstance {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ContentInstance).alive === 'function' &&
    typeof (value as ContentInstance).standDown === 'function'
  );
}

function start(): ContentInstance {
  const scope = globalThis as unknown as Record<string, unknown>;
  const keys = takeBridgeKeys(scope);
  const previous = scope[CONTENT_MARK];
  if (isInstance(previous)) {
    if (previous.alive()) return previous;
    // An orphan of an earlier extension instance: it must not hold the page.
    previous.standDown();
  }

  const cleanups: (() => void)[] = [];
  let stoodDown = false;
  const standDown = (): void => {
    if (stoodDown) return;
    stoodDown = true;
    for (const cleanup of cleanups.reverse()) {
      try {
        cleanup();
      } catch {
        // Standing down goes on whatever one part does.
      }
    }
    if (scope[CONTENT_MARK] === instance) delete scope[CONTENT_MARK];
  };
  const runtimeAlive = runtimeLiveness();
  const alive = (): boolean => {
    if (stoodDown) return false;
    if (runtimeAlive()) return true;
    standDown();
    return false;
  };
  const instance: ContentInstance = { alive, standDown, channel: keys.channel };
  scope[CONTENT_MARK] = instance;

  const bridge = createPageBridge(window, keys);
  cleanups.push(() => bridge.dispose());
  const driver = new Driver(
    {
      document,
      window,
      adapters: ADAPTERS,
      bridge,
      measure: false,
      sendMessage: extensionTransport,
      alive,
    },
    DEFAULT_SETTINGS,
  );
  // No performance.measure entries: they would land on the page's own timeline.
  cleanups.push(() => driver.dispose());

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
    record: (record) => driver.games.report(record),
  });
  const router = new CommandRouter(driver, coach, overlay, window);
  cleanups.push(() => router.dispose());

  // The settings come from the background (asked now, then sent on every change and with every command).
  let heard = false;
  send('settings/get', {})
    .then((reply) => {
      if (!heard && alive()) useSettings(normalizeSettings(reply.settings));
    })
    .catch(() => undefined);

  cleanups.push(
    listen('content', {
      'content/ping': () => ({ version: CONTENT_VERSION }),
      'content/settings': (request) => {
        heard = true;
        if (alive()) useSettings(normalizeSettings(request.settings));
        return {};
      },
      'content/command': async (request) => {
        heard = true;
        useSettings(normalizeSettings(request.settings));
        try {
          return await router.handle(request.command, settings);
        } catch (err) {
          // Every failure answers with a status the pages word (never an error's own text).
          throw err instanceof StatusError ? err : new DriverError(statusOfError(err));
        }
      },
    }),
  );

  // A navigation or the back-forward cache: the run stops, coaching ends, each records its game. A page
  // unloaded for good (not kept in the cache) sends its agent away too.
  const onPageHide = (event: PageTransitionEvent): void => {
    coach.stop();
    driver.pageHidden();
    if (!event.persisted) bridge.dispose();
  };
  window.addEventListener('pagehide', onPageHide);
  cleanups.push(() => window.removeEventListener('pagehide', onPageHide));
  // Back from the back-forward cache: the port to the background may have been closed while the page was
  // frozen without telling it, so the next request opens a new one.
  const onPageShow = (event: PageTransitionEvent): void => {
    if (event.persisted) resetRequestPorts();
  };
  window.addEventListener('pageshow', onPageShow);
  cleanups.push(() => window.removeEventListener('pageshow', onPageShow));

  cleanups.push(openLifeline(standDown));
  // A later content script of this page (after an update) asks this one, orphaned by then, to stand down
  // and hand over its games. Not a cleanup: it answers after standing down.
  answerLaterScripts(window, keys.handover, () => !runtimeAlive(), standDown, () => driver.games.handover());

  // What an earlier content script of this page could not send (it lost its extension to an update) is
  // sent as it arrives, and its game goes on here as the same game (unless a run began meanwhile).
  // (In Chromium that script is in another isolated world: they meet on the window, ./handover.ts.)
  void askEarlierScripts(window, keys.handover).then((answer) => {
    if (!answer || !alive()) return;
    const handed = handedGames(answer);
    const resumed = driver.games.adopt(handed.games, handed.resume, Date.now());
    if (resumed) driver.report({ gameId: resumed.gameId, moves: resumed.moves, desyncs: resumed.desyncs });
  });

  // Connect the main-world bridge early (it is injected right after this script).
  void bridge.connect(1_000);
  return instance;
}

start();
