/**
 * What runs in the page's main world (entry: src/page/main-world.ts), written as a testable function.
 *
 * It answers the content script's requests (bridge-protocol.ts): press an arrow key from the main world,
 * and, on a play2048.co-style page, find the game module (SITES.md §2: dynamically import each
 * `script[type=module][src]` and take the export with functions subscribe, move and sanitize), subscribe
 * to it, push every state as a validated snapshot, and call its move / continueAfterWin.
 */
import { dispatchMoveKey } from '../content/keys';
import type { Direction } from '../engine/types';
import { PageRequestSchema, StoreSnapshotSchema, channelName, parseBridgeDetail } from './bridge-protocol';
import type { PageRequest, StoreFindResult, StoreSnapshot } from './bridge-protocol';

/** The game module's export as play2048.co has it (only what we call). */
export interface GameStore {
  subscribe(callback: (game: unknown) => void): unknown;
  move(direction: Direction): unknown;
  sanitize(): unknown;
  continueAfterWin?: () => unknown;
}

export interface PageAgentOptions {
  /** Loads an ES module by URL (the page's own module map, so the same instance the page uses). */
  importModule?: (url: string) => Promise<unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

export function isGameStore(value: unknown): value is GameStore {
  return (
    isRecord(value) &&
    typeof value.subscribe === 'function' &&
    typeof value.move === 'function' &&
    typeof value.sanitize === 'function'
  );
}

/** The export of a module namespace that looks like the game store, or null. */
export function findStoreExport(namespace: unknown): GameStore | null {
  if (!isRecord(namespace)) return null;
  for (const key of Object.keys(namespace)) {
    let value: unknown;
    try {
      value = namespace[key];
    } catch {
      continue;
    }
    if (isGameStore(value)) return value;
  }
  return null;
}

/** Turn the game object a store delivers into a snapshot (tile values row-major), or null if it is not one. */
export function snapshotOf(game: unknown): StoreSnapshot | null {
  if (!isRecord(game)) return null;
  const board = game.board;
  if (!Array.isArray(board)) return null;
  const rows: number[][] = [];
  for (const row of board) {
    if (!Array.isArray(row)) return null;
    rows.push(
      row.map((cell: unknown) => {
        if (cell === null || cell === undefined || cell === 0) return 0;
        if (typeof cell === 'number') return cell;
        if (isRecord(cell) && typeof cell.value === 'number') return cell.value;
        return -1; // not a tile: fails validation
      }),
    );
  }
  const score = typeof game.score === 'number' && Number.isFinite(game.score) && game.score >= 0 ? game.score : null;
  const candidate = { state: typeof game.state === 'string' ? game.state.slice(0, 40) : 'unknown', score, board: rows };
  const parsed = StoreSnapshotSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

const defaultImport = (url: string): Promise<unknown> => import(/* @vite-ignore */ url);

/** Install the agent for `nonce` in `win`; returns a function that removes it. */
export function installPageAgent(win: Window, nonce: string, options: PageAgentOptions = {}): () => void {
  const doc = win.document;
  const importModule = options.importModule ?? defaultImport;
  const toPage = channelName(nonce, 'to-page');
  const toContent = channelName(nonce, 'to-content');
  let store: GameStore | null = null;
  let latest: StoreSnapshot | null = null;
  let finding: Promise<GameStore | null> | null = null;

  const send = (message: object): void => {
    win.dispatchEvent(new (win as Window & typeof globalThis).CustomEvent(toContent, { detail: JSON.stringify({ nonce, ...message }) }));
  };

  const publish = (game: unknown): void => {
    const snapshot = snapshotOf(game);
    if (!snapshot) return;
    latest = snapshot;
    send({ kind: 'push', type: 'store/state', payload: snapshot });
  };

  const findStore = async (): Promise<GameStore | null> => {
    if (store) return store;
    const urls = Array.from(doc.querySelectorAll('script[type="module"][src]'))
      .map((s) => (s as HTMLScriptElement).src)
      .filter((src) => /^https?:/i.test(src));
    for (const url of urls) {
      let namespace: unknown;
      try {
        namespace = await importModule(url);
      } catch {
        continue;
      }
      const found = findStoreExport(namespace);
      if (found) {
        store = found;
        try {
          found.subscribe(publish);
          found.sanitize();
        } catch {
          // A store that throws on subscribe is still usable for moves; snapshots then come from sanitize.
        }
        return found;
      }
    }
    return null;
  };

  const requireStore = async (): Promise<GameStore> => {
    finding ??= findStore();
    const found = await finding;
    if (!found) throw new Error('No game module on this page');
    return found;
  };

  const handle = async (request: PageRequest): Promise<unknown> => {
    switch (request.type) {
      case 'hello':
        return { agent: 1 };
      case 'key':
        dispatchMoveKey(doc, request.payload.direction);
        return null;
      case 'store/find': {
        finding ??= findStore();
        const found = await finding;
        const result: StoreFindResult = { found: found !== null, snapshot: latest };
        return result;
      }
      case 'store/snapshot': {
        const found = await requireStore();
        found.sanitize();
        return latest;
      }
      case 'store/move': {
        const found = await requireStore();
        found.move(request.payload.direction);
        return null;
      }
      case 'store/continue': {
        const found = await requireStore();
        if (typeof found.continueAfterWin !== 'function') return false;
        found.continueAfterWin();
        return true;
      }
    }
  };

  const onRequest = (event: Event): void => {
    const request = parseBridgeDetail((event as CustomEvent<unknown>).detail, PageRequestSchema, nonce);
    if (!request) return;
    handle(request).then(
      (result) => send({ kind: 'reply', id: request.id, ok: true, result: result ?? null }),
      (err: unknown) => send({ kind: 'reply', id: request.id, ok: false, error: String(err instanceof Error ? err.message : err).slice(0, 500) }),
    );
  };
  win.addEventListener(toPage, onRequest);
  // Say we are here: the content script may have asked before this script was injected.
  send({ kind: 'push', type: 'ready', payload: { agent: 1 } });
  return () => win.removeEventListener(toPage, onRequest);
}
