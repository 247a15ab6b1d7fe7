/**
 * The game store of a play2048.co-like page (docs: sites.md, "play2048.co") as the main-world agent reaches it:
 * found among the exports of the page's own module scripts, subscribed to, and each game it publishes turned
 * into the snapshot text the agent sends (`{"state":..,"score":..,"board":[[..]]}`, built from checked numbers
 * and cleaned text, never the page's own words). A part of the agent (src/page/main-world.ts), written into its
 * body by the build (build/vite-main-world.ts); self-contained, no import but types, no module-level binding.
 */
import type { Direction } from '../engine/types';

/** A game store: what a module export must have to be taken for one. */
export interface Store {
  subscribe(cb: (game: unknown) => void): unknown;
  move(direction: Direction): unknown;
  sanitize(): unknown;
  continueAfterWin?: () => unknown;
}

/**
 * The store, looked for once (in `scripts()`, loaded with `importModule`); each game it publishes goes to
 * `onState` as snapshot text (`clean`: agentText's). `leave` unsubscribes: from then on nothing is published.
 */
export function agentStore(
  scripts: () => string[],
  importModule: (url: string) => Promise<unknown>,
  clean: (value: unknown, max: number) => string,
  onState: (snapshot: string) => void,
): {
  /** The store, or null when the page has none (looked for on the first call only). */
  readonly find: () => Promise<Store | null>;
  /** The last snapshot published, 'null' before the first. */
  readonly latest: () => string;
  readonly leave: () => void;
} {
  const apply = Reflect.apply;
  const isArray = Array.isArray;
  let latest = 'null';
  let finding: Promise<Store | null> | null = null;
  /** The store's unsubscribe, when its subscribe returned one. */
  let unsubscribe: unknown = null;
  let left = false;

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
    if (left) return;
    const text = snapshotText(game);
    if (text === null) return;
    latest = text;
    onState(text);
  };

  const findStore = async (): Promise<Store | null> => {
    const urls = scripts();
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

  return {
    find: () => {
      if (!finding) finding = findStore();
      return finding;
    },
    latest: () => latest,
    leave: () => {
      left = true;
      if (typeof unsubscribe === 'function') {
        try {
          apply(unsubscribe as () => unknown, undefined, []);
        } catch {
          // The page's unsubscribe failed: publish ignores its calls from now on anyway.
        }
      }
      unsubscribe = null;
      finding = null;
    },
  };
}
