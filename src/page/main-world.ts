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
 * The function must stay self-contained (Chrome serialises its source): it may use no import and no
 * module-level binding. tests/unit/content/main-world.test.ts checks that, and checks its HMAC against
 * node:crypto's.
 */
import type { Direction } from '../engine/types';

/** What a test may replace (a jsdom window, a module loader); the page gets the defaults. */
export interface AgentHooks {
  readonly win?: Window;
  readonly importModule?: (url: string) => Promise<unknown>;
  /** The page's resource entries (a test's; the page's own performance timeline otherwise). */
  readonly resources?: () => readonly { readonly name: string; readonly initiatorType: string }[];
}

export function mainWorldAgent(secret: string, channel: string, hooks?: AgentHooks): boolean {
  // The work happens in a class method: class bodies are always strict, whatever the minifier does to
  // a 'use strict' directive, so no page function this code calls can reach it through `caller`.
  return new (class MainWorldAgent {
    start(secret: string, channel: string, hooks: AgentHooks | undefined): boolean {
      // ------------------------------------------------------------------ byte table (no method calls)
      const PRINTABLE = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
      const CODE: Record<string, number> = { __proto__: null } as unknown as Record<string, number>;
      for (let i = 0; i < PRINTABLE.length; i++) CODE[PRINTABLE[i]] = 32 + i;
      const SECRET_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const SECRET_SET: Record<string, boolean> = { __proto__: null } as unknown as Record<string, boolean>;
      for (let i = 0; i < SECRET_CHARS.length; i++) SECRET_SET[SECRET_CHARS[i]] = true;

      const wellFormed = (value: unknown, min: number, max: number): boolean => {
        if (typeof value !== 'string' || value.length < min || value.length > max) return false;
        for (let i = 0; i < value.length; i++) if (SECRET_SET[value[i]] !== true) return false;
        return true;
      };
      if (!wellFormed(secret, 32, 64) || !wellFormed(channel, 16, 64)) return false;

      // ------------------------------------------------------------------ HMAC-SHA-256 (operators only)
      const K = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
      ];
      const W = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
      const H = [0, 0, 0, 0, 0, 0, 0, 0];
      const DIGEST = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
      const HEX = '0123456789abcdef';

      /** SHA-256 of `length` bytes given by `byteAt`, into DIGEST. */
      const sha256 = (byteAt: (i: number) => number, length: number): void => {
        H[0] = 0x6a09e667; H[1] = 0xbb67ae85; H[2] = 0x3c6ef372; H[3] = 0xa54ff53a;
        H[4] = 0x510e527f; H[5] = 0x9b05688c; H[6] = 0x1f83d9ab; H[7] = 0x5be0cd19;
        const total = ((length + 8) >>> 6) * 64 + 64;
        const bitsHigh = (length / 0x20000000) >>> 0;
        const bitsLow = (length * 8) >>> 0;
        for (let offset = 0; offset < total; offset += 64) {
          for (let t = 0; t < 16; t++) {
            let word = 0;
            for (let b = 0; b < 4; b++) {
              const i = offset + t * 4 + b;
              let v = 0;
              if (i < length) v = byteAt(i) & 255;
              else if (i === length) v = 0x80;
              else if (i >= total - 8) {
                const k = i - (total - 8);
                v = k < 4 ? (bitsHigh >>> (24 - 8 * k)) & 255 : (bitsLow >>> (24 - 8 * (k - 4))) & 255;
              }
              word = (word << 8) | v;
            }
            W[t] = word >>> 0;
          }
          for (let t = 16; t < 64; t++) {
            const a = W[t - 15];
            const b = W[t - 2];
            const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
            const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
            W[t] = (W[t - 16] + s0 + W[t - 7] + s1) >>> 0;
          }
          let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
          for (let t = 0; t < 64; t++) {
            const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
            const ch = (e & f) ^ (~e & g);
            const t1 = (h + S1 + ch + K[t] + W[t]) >>> 0;
            const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
            const maj = (a & b) ^ (a & c) ^ (b & c);
            const t2 = (S0 + maj) >>> 0;
            h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
          }
          H[0] = (H[0] + a) >>> 0; H[1] = (H[1] + b) >>> 0; H[2] = (H[2] + c) >>> 0; H[3] = (H[3] + d) >>> 0;
          H[4] = (H[4] + e) >>> 0; H[5] = (H[5] + f) >>> 0; H[6] = (H[6] + g) >>> 0; H[7] = (H[7] + h) >>> 0;
        }
        for (let i = 0; i < 32; i++) DIGEST[i] = (H[i >>> 2] >>> (24 - 8 * (i & 3))) & 255;
      };

      /** HMAC-SHA-256 under the secret of a text of PRINTABLE characters, as 64 hex digits. */
      const mac = (text: string): string => {
        const keyByte = (i: number): number => (i < secret.length ? CODE[secret[i]] : 0);
        sha256((i) => (i < 64 ? keyByte(i) ^ 0x36 : CODE[text[i - 64]]), 64 + text.length);
        const inner = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        for (let i = 0; i < 32; i++) inner[i] = DIGEST[i];
        sha256((i) => (i < 64 ? keyByte(i) ^ 0x5c : inner[i - 64]), 96);
        let out = '';
        for (let i = 0; i < 32; i++) out += HEX[DIGEST[i] >>> 4] + HEX[DIGEST[i] & 15];
        return out;
      };

      // ------------------------------------------------------------------ built-ins, captured now
      const win = (hooks && hooks.win) || window;
      type Getter = (this: unknown) => unknown;
      const apply = Reflect.apply;
      const describe = Object.getOwnPropertyDescriptor;
      const isArray = Array.isArray;
      const prototypeOf = Object.getPrototypeOf;
      /** The getter `name` of `proto` or of the nearest prototype that has it. */
      const getter = (proto: object | null, name: string): Getter => {
        for (let p = proto; p !== null; p = prototypeOf(p) as object | null) {
          const d = describe(p, name);
          if (d && d.get) return d.get as Getter;
        }
        throw new Error('No getter ' + name);
      };
      const W_ = win as Window & typeof globalThis;
      const eventTarget = W_.EventTarget.prototype;
      const dispatch = eventTarget.dispatchEvent;
      const listen = eventTarget.addEventListener;
      const unlisten = eventTarget.removeEventListener;
      const CustomEventCtor = W_.CustomEvent;
      const KeyboardEventCtor = W_.KeyboardEvent;
      const detailOf = getter(W_.CustomEvent.prototype, 'detail');
      const documentProto = W_.Document.prototype;
      const activeElementOf = getter(documentProto, 'activeElement');
      const bodyOf = getter(documentProto, 'body');
      const documentElementOf = getter(documentProto, 'documentElement');
      const querySelectorAll = documentProto.querySelectorAll;
      const scriptSrcOf = getter(W_.HTMLScriptElement.prototype, 'src');
      // The resource timeline's readers (absent in some test windows: then nothing is imported).
      let performanceOf: Getter = () => null;
      let entriesByType: (this: unknown, type: string) => unknown = () => [];
      let entryNameOf: Getter = () => '';
      let initiatorTypeOf: Getter = () => '';
      try {
        performanceOf = getter(win, 'performance');
        entriesByType = W_.Performance.prototype.getEntriesByType as typeof entriesByType;
        entryNameOf = getter(W_.PerformanceEntry.prototype, 'name');
        initiatorTypeOf = getter(W_.PerformanceResourceTiming.prototype, 'initiatorType');
      } catch {
        // Keep the stand-ins above.
      }
      const doc = win.document;
      const importModule = (hooks && hooks.importModule) || ((url: string): Promise<unknown> => import(/* @vite-ignore */ url));
      /** The page's origin (location and its origin cannot be redefined by the page). */
      const origin: unknown = win.location.origin;
      if (typeof origin !== 'string') return false;
      /** An event name: the first 32 hex digits of the HMAC of `<purpose>|<origin>` (src/content/hmac.ts derivedEventName). */
      const eventName = (purpose: string): string => {
        const tag = mac(purpose + '|' + origin);
        let out = '';
        for (let i = 0; i < 32; i++) out += tag[i];
        return out;
      };
      const toPage = eventName('to-page');
      const toContent = eventName('to-content');
      /** The URLs the page loaded as scripts, from its resource timeline (read once, when the store is looked for). */
      const scriptsRan = (): Record<string, boolean> => {
        const ran: Record<string, boolean> = { __proto__: null } as unknown as Record<string, boolean>;
        try {
          if (hooks && hooks.resources) {
            const list = hooks.resources();
            for (let i = 0; i < list.length && i < 2000; i++) if (list[i].initiatorType === 'script') ran[list[i].name] = true;
            return ran;
          }
          const list = apply(entriesByType, apply(performanceOf, win, []), ['resource']) as ArrayLike<object>;
          for (let i = 0; i < list.length && i < 2000; i++) {
            if (apply(initiatorTypeOf, list[i], []) === 'script') ran[apply(entryNameOf, list[i], []) as string] = true;
          }
        } catch {
          // No timeline (a page that replaced it): nothing counts as run, nothing is imported.
        }
        return ran;
      };
      /** Whether `url` is of the page's own origin (compared by indexing, no method of the page's). */
      const sameOrigin = (url: string): boolean => {
        if (url.length <= origin.length || url[origin.length] !== '/') return false;
        for (let i = 0; i < origin.length; i++) if (url[i] !== origin[i]) return false;
        return true;
      };

      // ------------------------------------------------------------------ sending
      let seq = 0;
      /** The store's unsubscribe, when its subscribe returned one; disposed: the agent has left. */
      let unsubscribe: unknown = null;
      let disposed = false;
      /** Keep only characters of PRINTABLE other than quote and backslash, at most `max`. */
      const clean = (value: unknown, max: number): string => {
        if (typeof value !== 'string') return '';
        let out = '';
        for (let i = 0; i < value.length && out.length < max; i++) {
          const c = value[i];
          if (CODE[c] !== undefined && c !== '"' && c !== '\\') out += c;
        }
        return out;
      };
      const send = (body: string): void => {
        if (disposed) return;
        seq += 1;
        const text = '{"seq":' + seq + ',' + body + '}';
        try {
          apply(dispatch, win, [new CustomEventCtor(toContent, { detail: text + '~' + mac(text) })]);
        } catch {
          // Nothing to do: the content script times out and says so.
        }
      };

      // ------------------------------------------------------------------ the game store (docs: sites.md, "play2048.co")
      interface Store {
        subscribe(cb: (game: unknown) => void): unknown;
        move(direction: Direction): unknown;
        sanitize(): unknown;
        continueAfterWin?: () => unknown;
      }
      let latest = 'null';
      let finding: Promise<Store | null> | null = null;

      const isStore = (value: unknown): value is Store => {
        if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
        const v = value as Record<string, unknown>;
        return typeof v.subscribe === 'function' && typeof v.move === 'function' && typeof v.sanitize === 'function';
      };

      /** A game object as the snapshot text `{"state":..,"score":..,"board":[[..]]}`, or null if it is none. */
      const snapshotText = (game: unknown): string | null => {
        if (typeof game !== 'object' || game === null) return null;
        const g = game as Record<string, unknown>;
        const board = g.board;
        if (!isArray(board) || board.length < 2 || board.length > 8) return null;
        let rows = '';
        let width = -1;
        for (let r = 0; r < board.length; r++) {
          const row: unknown = board[r];
          if (!isArray(row) || row.length < 2 || row.length > 8) return null;
          if (width >= 0 && row.length !== width) return null;
          width = row.length;
          let cells = '';
          for (let c = 0; c < row.length; c++) {
            const cell: unknown = row[c];
            let value: unknown = 0;
            if (cell !== null && cell !== undefined && cell !== 0) {
              value = typeof cell === 'number' ? cell : typeof cell === 'object' ? (cell as Record<string, unknown>).value : -1;
            }
            if (typeof value !== 'number' || value !== (value | 0) || value < 0 || value > 131072) return null;
            cells += (c > 0 ? ',' : '') + value;
          }
          rows += (r > 0 ? ',' : '') + '[' + cells + ']';
        }
        const score = g.score;
        const scoreText = typeof score === 'number' && score >= 0 && score <= 1e12 && score === score - (score % 1) ? '' + score : 'null';
        const state = typeof g.state === 'string' ? clean(g.state, 40) : 'unknown';
        return '{"state":"' + state + '","score":' + scoreText + ',"board":[' + rows + ']}';
      };

      const publish = (game: unknown): void => {
        if (disposed) return;
        const text = snapshotText(game);
        if (text === null) return;
        latest = text;
        send('"kind":"push","type":"store/state","payload":' + text);
      };

      const findStore = async (): Promise<Store | null> => {
        const scripts = apply(querySelectorAll, doc, ['script[type="module"][src]']) as ArrayLike<Element>;
        const urls: string[] = [];
        const ran = scriptsRan();
        for (let i = 0; i < scripts.length && i < 32; i++) {
          const src = apply(scriptSrcOf, scripts[i], []);
          if (typeof src === 'string' && sameOrigin(src) && ran[src] === true) urls[urls.length] = src;
        }
        for (let i = 0; i < urls.length; i++) {
          let namespace: unknown;
          try {
            namespace = await importModule(urls[i]);
          } catch {
            continue;
          }
          if (typeof namespace !== 'object' || namespace === null) continue;
          const exports = namespace as Record<string, unknown>;
          for (const key in exports) {
            let value: unknown;
            try {
              value = exports[key];
            } catch {
              continue;
            }
            if (!isStore(value)) continue;
            try {
              unsubscribe = value.subscribe(publish);
              value.sanitize();
            } catch {
              // A store that throws on subscribe is still usable for moves.
            }
            return value;
          }
        }
        return null;
      };

      const requireStore = async (): Promise<Store | null> => {
        if (!finding) finding = findStore();
        return finding;
      };

      // ------------------------------------------------------------------ requests: "id:type:argument"
      const DIRECTIONS: Record<string, Direction> = { __proto__: null, left: 'left', right: 'right', up: 'up', down: 'down' } as unknown as Record<string, Direction>;
      const KEYS: Record<string, readonly [string, number]> = {
        __proto__: null,
        left: ['ArrowLeft', 37],
        up: ['ArrowUp', 38],
        right: ['ArrowRight', 39],
        down: ['ArrowDown', 40],
      } as unknown as Record<string, readonly [string, number]>;

      const pressKey = (direction: Direction): void => {
        const key = KEYS[direction];
        const active = apply(activeElementOf, doc, []) as Element | null;
        const target = active && active !== apply(documentElementOf, doc, []) ? active : ((apply(bodyOf, doc, []) as Element | null) ?? (apply(documentElementOf, doc, []) as Element));
        const init = { key: key[0], code: key[0], keyCode: key[1], which: key[1], bubbles: true, cancelable: true, composed: true };
        apply(dispatch, target, [new KeyboardEventCtor('keydown', init)]);
        apply(dispatch, target, [new KeyboardEventCtor('keyup', init)]);
      };

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
          pressKey(direction);
          return reply(id, 'null');
        }
        if (type === 'store/find') {
          if (!finding) finding = findStore();
          const found = await finding;
          return reply(id, '{"found":' + (found ? 'true' : 'false') + ',"snapshot":' + latest + '}');
        }
        const found = await requireStore();
        if (!found) return fail(id, 'no-store');
        if (type === 'store/snapshot') {
          found.sanitize();
          return reply(id, latest);
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
          detail = apply(detailOf, event, []);
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
        apply(unlisten, win, [toPage, onRequest]);
        if (typeof unsubscribe === 'function') {
          try {
            apply(unsubscribe as () => unknown, undefined, []);
          } catch {
            // The page's unsubscribe failed: publish ignores its calls from now on anyway.
          }
        }
        unsubscribe = null;
        finding = null;
      };

      apply(listen, win, [toPage, onRequest]);
      // Say we are here: the content script may have asked before this was injected.
      send('"kind":"push","type":"ready","payload":{"agent":1}');
      return true;
    }
  })().start(secret, channel, hooks);
}
