/**
 * The main-world agent: the one piece of the autopilot that runs in the page's own JavaScript world.
 * The background injects it on demand with
 * `chrome.scripting.executeScript({ world: 'MAIN', func: mainWorldAgent, args: [secret, channel] })`
 * (src/background/inject.ts), right after the content script, which got the same two values through an
 * injection into its own isolated world. Nothing is written into the DOM or onto `window`.
 *
 * ## Threat model
 * The main world IS the page. The page ran before this function (injection happens when the user asks),
 * so it may already have replaced any built-in (EventTarget.prototype.dispatchEvent, CustomEvent, JSON,
 * addEventListener, Promise.prototype.then, ...), it sees every call this agent makes through those, it
 * can call back any function the agent hands it, and it owns the game module the agent reads. Hence:
 *
 * 1. The secret never leaves this closure. It is passed to no function but the ones defined here, and
 *    those touch it only with language operators (string indexing, arithmetic, bit operations, object
 *    literals without a prototype): no method call, no getter, nothing the page can hook. The function
 *    is strict, so a hooked built-in cannot reach its arguments through `caller`.
 * 2. What the agent sends (replies, pushes) is text it builds itself from a fixed alphabet, followed by
 *    an HMAC-SHA-256 of it under the secret (computed here by hand, by rule 1) and a sequence number
 *    inside it: the content script drops anything with a wrong tag or an old number, so a page that
 *    watches the channel can neither inject nor replay a message, and an agent of an earlier injection
 *    (another secret) is ignored.
 * 3. The channel name (a second random value) is not secret: a page that hooked addEventListener learns
 *    it, and can then send requests to this agent. Those can only press keys or call its own game's
 *    move / continueAfterWin: a page can only ever affect its own game.
 * 4. Nothing the agent says is trusted beyond "a board to check": the page controls the game object the
 *    agent reads (and can feed any callback of the agent), so the content script validates every board
 *    and the driver checks that each board after a move is a successor of the one before (a desync is
 *    counted and the board re-read, never taken as proof of a move).
 * 5. Built-ins are captured once when the agent starts, so a page that patches them later changes
 *    nothing; one that patched them before can see and drop traffic, which by (1)–(4) gains it nothing.
 * 6. No trace: no global, attribute, element, console output or performance entry; only event listeners
 *    on `window` for one event name, derived from the secret and the page's origin (32 hex digits: no
 *    fixed text, nothing in common between two injections or two sites). It fetches nothing the page did
 *    not run itself: it imports a module script only when it is of the page's own origin and the page's
 *    resource timeline shows it was loaded as a script (a planted `<script type=module>` that never ran
 *    is never fetched, so it cannot tell the page the extension is there).
 * 7. It leaves when told: a `dispose` request carrying the HMAC of its id under the secret (a page that
 *    learned the channel cannot forge it) removes its listener and its store subscription, and from then
 *    on it does nothing. The content script sends it when it stands down (its extension was updated or
 *    reloaded; a newer content script replaces it) and when its page is unloaded, so that a page holds
 *    one agent at most (src/background/inject.ts injects a new one only for the live content script).
 * 8. What it reports of a failure is one of a few fixed codes, never the text of what the page threw.
 *
 * The function must stay self-contained (Chrome serialises its source): it may use no module-level binding,
 * and it imports nothing but its parts, each one self-contained function of its own module (./agent-text.ts,
 * ./agent-hmac.ts, ./agent-page.ts, ./agent-store.ts), which the build writes into its body
 * (build/vite-main-world.ts), where it is strict code. tests/unit/content/keys-bridge.test.ts runs it from its
 * source alone, and checks its HMAC against node:crypto's.
 */
import type { Direction } from '../engine/types';
import { agentHmac } from './agent-hmac';
import { agentPage } from './agent-page';
import type { AgentHooks } from './agent-page';
import { agentStore } from './agent-store';
import { agentText } from './agent-text';

export type { AgentHooks } from './agent-page';

export function mainWorldAgent(secret: string, channel: string, hooks?: AgentHooks): boolean {
  // The work happens in a class method: class bodies are always strict, whatever the minifier does to
  // a 'use strict' directive, so no page function this code calls can reach it through `caller`.
  return new (class MainWorldAgent {
    start(secret: string, channel: string, hooks: AgentHooks | undefined): boolean {
      const text = agentText();
      if (!text.wellFormed(secret, 32, 64) || !text.wellFormed(channel, 16, 64)) return false;
      /** HMAC-SHA-256 under the secret of a text of printable characters, as 64 hex digits. */
      const mac = agentHmac(secret, text.code);
      const page = agentPage(hooks);
      if (page === null) return false;
      /** An event name: the first 32 hex digits of the HMAC of `<purpose>|<origin>` (src/content/hmac.ts derivedEventName). */
      const eventName = (purpose: string): string => {
        const tag = mac(purpose + '|' + page.origin);
        let out = '';
        for (let i = 0; i < 32; i++) out += tag[i];
        return out;
      };
      const toPage = eventName('to-page');
      const toContent = eventName('to-content');

      // ------------------------------------------------------------------ sending
      let seq = 0;
      /** Disposed: the agent has left. */
      let disposed = false;
      const send = (body: string): void => {
        if (disposed) return;
        seq += 1;
        const sent = '{"seq":' + seq + ',' + body + '}';
        try {
          page.fire(toContent, sent + '~' + mac(sent));
        } catch {
          // Nothing to do: the content script times out and says so.
        }
      };

      // ------------------------------------------------------------------ the game store (docs: sites.md, "play2048.co")
      const store = agentStore(page.ranModuleScripts, page.importModule, text.clean, (snapshot) =>
        send('"kind":"push","type":"store/state","payload":' + snapshot),
      );

      // ------------------------------------------------------------------ requests: "id:type:argument"
      const DIRECTIONS: Record<string, Direction> = { __proto__: null, left: 'left', right: 'right', up: 'up', down: 'down' } as unknown as Record<string, Direction>;

      const reply = (id: string, result: string): void => send('"kind":"reply","id":' + id + ',"ok":true,"result":' + result);
      /**
       * A failure, as one of the fixed codes of PAGE_ERRORS (src/shared/bridge-protocol.ts): never the text
       * of what the page threw, which would otherwise reach the popup.
       */
      const fail = (id: string, code: 'no-store' | 'bad-direction' | 'bad-request' | 'page-failed'): void =>
        send('"kind":"reply","id":' + id + ',"ok":false,"error":"' + code + '"');

      const handle = async (id: string, type: string, argument: string): Promise<void> => {
        const direction = DIRECTIONS[argument];
        if (type === 'hello') return reply(id, '{"agent":1}');
        if (type === 'key') {
          if (!direction) return fail(id, 'bad-direction');
          page.pressKey(direction);
          return reply(id, 'null');
        }
        if (type === 'store/find') {
          const found = await store.find();
          return reply(id, '{"found":' + (found ? 'true' : 'false') + ',"snapshot":' + store.latest() + '}');
        }
        const found = await store.find();
        if (!found) return fail(id, 'no-store');
        if (type === 'store/snapshot') {
          found.sanitize();
          return reply(id, store.latest());
        }
        if (type === 'store/move') {
          if (!direction) return fail(id, 'bad-direction');
          found.move(direction);
          return reply(id, 'null');
        }
        if (type === 'store/continue') {
          if (typeof found.continueAfterWin !== 'function') return reply(id, 'false');
          found.continueAfterWin();
          return reply(id, 'true');
        }
        return fail(id, 'bad-request');
      };

      const onRequest = (event: Event): void => {
        let detail: unknown;
        try {
          detail = page.detailOf(event);
        } catch {
          return;
        }
        if (disposed || typeof detail !== 'string' || detail.length > 100) return;
        // Split "id:type:argument" by indexing (no method of the page's String.prototype).
        let id = '';
        let type = '';
        let argument = '';
        let part = 0;
        for (let i = 0; i < detail.length; i++) {
          const c = detail[i];
          if (c === ':' && part < 2) part += 1;
          else if (part === 0) id += c;
          else if (part === 1) type += c;
          else argument += c;
        }
        if (id.length < 1 || id.length > 9) return;
        for (let i = 0; i < id.length; i++) if (id[i] < '0' || id[i] > '9') return;
        if (type === 'dispose') {
          // Only the content script holds the secret: the tag of "dispose:<id>" proves the request is its own.
          if (argument === mac('dispose:' + id)) dispose();
          return;
        }
        if (type !== 'hello' && type !== 'key' && type !== 'store/find' && type !== 'store/snapshot' && type !== 'store/move' && type !== 'store/continue') return;
        // Whatever the page's code threw (its text, its getters) stays here.
        handle(id, type, argument).catch(() => fail(id, 'page-failed'));
      };

      /** Leave: no listener, no subscription, nothing done any more (the page's own callbacks included). */
      const dispose = (): void => {
        disposed = true;
        page.unlisten(toPage, onRequest);
        store.leave();
      };

      page.listen(toPage, onRequest);
      // Say we are here: the content script may have asked before this was injected.
      send('"kind":"push","type":"ready","payload":{"agent":1}');
      return true;
    }
  })().start(secret, channel, hooks);
}
