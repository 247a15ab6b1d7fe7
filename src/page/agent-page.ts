/**
 * What the main-world agent uses of the page, captured once as it starts (the threat model's rule 5: a page that
 * patches a built-in later changes nothing): its events, its keys, its origin and the module scripts it ran. A
 * part of the agent (src/page/main-world.ts), written into its body by the build (build/vite-main-world.ts);
 * self-contained, no import but types, no module-level binding.
 */
import type { Direction } from '../engine/types';

/** What a test may replace (a jsdom window, a module loader); the page gets the defaults. */
export interface AgentHooks {
  readonly win?: Window;
  readonly importModule?: (url: string) => Promise<unknown>;
  /** The page's resource entries (a test's; the page's own performance timeline otherwise). */
  readonly resources?: () => readonly { readonly name: string; readonly initiatorType: string }[];
}

/** The page's built-ins the agent calls, captured now, and what it does with them; null when the origin is no string. */
export function agentPage(hooks: AgentHooks | undefined): {
  /** The page's origin (location and its origin cannot be redefined by the page). */
  readonly origin: string;
  /** Fire the event `name` on the window, with `detail`. */
  readonly fire: (name: string, detail: string) => void;
  /** The detail of an event the agent listens for (the page's getter, as captured: it may throw). */
  readonly detailOf: (event: Event) => unknown;
  readonly listen: (name: string, listener: (event: Event) => void) => void;
  readonly unlisten: (name: string, listener: (event: Event) => void) => void;
  /** Press a move's key, keydown then keyup, on the focused element (else the body). */
  readonly pressKey: (direction: Direction) => void;
  /** The URLs of the page's module scripts of its own origin that its resource timeline shows it ran. */
  readonly ranModuleScripts: () => string[];
  readonly importModule: (url: string) => Promise<unknown>;
} | null {
  const win = (hooks && hooks.win) || window;
  type Getter = (this: unknown) => unknown;
  const apply = Reflect.apply;
  const describe = Object.getOwnPropertyDescriptor;
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
  const origin: unknown = win.location.origin;
  if (typeof origin !== 'string') return null;

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
  const ranModuleScripts = (): string[] => {
    const scripts = apply(querySelectorAll, doc, ['script[type="module"][src]']) as ArrayLike<Element>;
    const urls: string[] = [];
    const ran = scriptsRan();
    for (let i = 0; i < scripts.length && i < 32; i++) {
      const src = apply(scriptSrcOf, scripts[i], []);
      if (typeof src === 'string' && sameOrigin(src) && ran[src] === true) urls[urls.length] = src;
    }
    return urls;
  };

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

  return {
    origin,
    fire: (name, detail) => apply(dispatch, win, [new CustomEventCtor(name, { detail })]),
    detailOf: (event) => apply(detailOf, event, []),
    listen: (name, listener) => apply(listen, win, [name, listener]),
    unlisten: (name, listener) => apply(unlisten, win, [name, listener]),
    pressKey,
    ranModuleScripts,
    importModule,
  };
}
