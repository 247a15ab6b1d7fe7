/**
 * The one writer of the game log (chrome.storage.local): recording a game, the background's fallback
 * guess, the panel's import, deleting a game and clearing the history all go through one queue, each a
 * read-modify-write of the log (src/shared/game-log.ts), so none of them can lose another's change. A change
 * writes the parts of the log it changes (changedChunks), and moves an earlier version's whole log into them.
 *
 * Nothing is refused without a word. A write the browser refuses (the storage is full) changes nothing:
 * the change's reply says `failed`. A recorded game that is not kept — the storage refused it, its site's
 * room is taken by its own newer games, it is a stopped game of fewer than 3 moves, it ends in the future
 * — and an unreadable record that found no room aside, and games a page's content script could not keep
 * waiting (`noteLost`), are counted in the history's notice (storage.session), which the popup and the
 * panel show until the history is cleared or a game deleted. An import's refusals are in its reply.
 */
import { ASIDE_STORAGE_KEY, GAMES_STORAGE_KEY, HISTORY_NOTICE_KEY, addGame, addToNotice, deleteFromLog, importIntoLog, readNotice, refusedAlone } from '../shared/game-log';
import { GAME_LOG_KEYS, changedChunks, gamesChunkKey, readStoredLog } from '../shared/game-log-parts';
import type { GameLog, LogChange, NoticeCounts } from '../shared/game-log';
import type { GameRecord, LogChangeReply } from '../shared/messages';

/** The part of a chrome.storage area the writer uses. */
export interface StorageArea {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

function replyOf(change: Omit<LogChange, 'log'>, failed: boolean): LogChangeReply {
  const { added, duplicates, evicted, refused, short, future, truncated, deleted } = change;
  return failed
    ? { added: 0, duplicates, evicted: 0, refused: 0, short, future, truncated: 0, deleted: 0, failed }
    : { added, duplicates, evicted, refused, short, future, truncated, deleted, failed };
}

const UNCHANGED: Omit<LogChange, 'log'> = { added: 0, duplicates: 0, evicted: 0, refused: 0, short: 0, future: 0, truncated: 0, deleted: 0 };

export class GameLogWriter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly local: StorageArea,
    private readonly session: StorageArea,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Record a game (a later record of the same game replaces it; a `fallback` guess only adds what is missing).
   * A record refused whatever the log holds (a short stopped game, a date in the future) is only counted:
   * the log is neither read nor written again.
   */
  record(record: GameRecord, options: { fallback?: boolean } = {}): Promise<LogChangeReply> {
    const refusal = refusedAlone(record, this.now());
    if (refusal) {
      return this.inTurn(async () => {
        await this.note({ short: refusal.short, future: refusal.future });
        return replyOf(refusal, false);
      });
    }
    return this.change((log) => addGame(log, record, { ...options, now: this.now() }), { unsavedIfFailed: 1, noteRefusals: true });
  }

  /** Merge imported games in (each validated and bounded by the protocol and the log). */
  importGames(games: readonly GameRecord[]): Promise<LogChangeReply> {
    return this.change((log) => importIntoLog(log, games, { now: this.now() }));
  }

  /** A page's content script let `games` go unsent (too many waited while the extension did not answer). */
  noteLost(games: number): Promise<void> {
    return games > 0 ? this.note({ lost: games }) : Promise.resolve();
  }

  deleteGame(key: string): Promise<LogChangeReply> {
    return this.change((log) => deleteFromLog(log, key), { clearsNotice: true });
  }

  /** Move an earlier version's whole log into the parts (when a session starts); nothing else changes. */
  async migrate(): Promise<void> {
    await this.change((log) => ({ log, ...UNCHANGED }), { onlyOldLog: true });
  }

  /** Every game goes, the unreadable ones too (the person asked for it). */
  clear(): Promise<LogChangeReply> {
    return this.change((log) => ({ log: { games: [], aside: [] }, ...UNCHANGED, deleted: log.games.length + log.aside.length }), {
      clearsNotice: true,
    });
  }

  /** Run `apply` on the log in turn (after every change queued before it); never rejects for a refused write. */
  private change(
    apply: (log: GameLog) => LogChange,
    options: { unsavedIfFailed?: number; clearsNotice?: boolean; noteRefusals?: boolean; onlyOldLog?: boolean } = {},
  ): Promise<LogChangeReply> {
    const run = async (): Promise<LogChangeReply> => {
      const items = await this.local.get([...GAME_LOG_KEYS]);
      if (options.onlyOldLog && items[GAMES_STORAGE_KEY] === undefined) return replyOf(UNCHANGED, false);
      const before = readStoredLog(items);
      const change = apply(before);
      const storedAside = items[ASIDE_STORAGE_KEY];
      const asideChanged = !Array.isArray(storedAside) || storedAside.length !== change.log.aside.length;
      const chunks = changedChunks(items, change.log);
      try {
        await this.local.set({
          ...Object.fromEntries(chunks.map(({ chunk, games }) => [gamesChunkKey(chunk), games])),
          ...(asideChanged ? { [ASIDE_STORAGE_KEY]: change.log.aside } : {}),
        });
        // The old whole log once its games are in the parts (a reader counts a game in both once).
        if (items[GAMES_STORAGE_KEY] !== undefined) await this.local.remove([GAMES_STORAGE_KEY]);
      } catch {
        if (options.unsavedIfFailed) await this.note({ unsaved: options.unsavedIfFailed });
        return replyOf(change, true);
      }
      if (options.clearsNotice) await this.session.remove([HISTORY_NOTICE_KEY]).catch(() => undefined);
      const counts: Partial<NoticeCounts> = {
        unreadable: before.droppedAside ?? 0,
        ...(options.noteRefusals ? { full: change.refused, short: change.short, future: change.future } : {}),
      };
      if (!options.clearsNotice && Object.values(counts).some((n) => n > 0)) await this.note(counts);
      return replyOf(change, false);
    };
    return this.inTurn(run);
  }

  /** Run `task` after every change queued before it. */
  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Add `counts` to the history's notice. */
  private async note(counts: Partial<NoticeCounts>): Promise<void> {
    try {
      const notice = readNotice((await this.session.get([HISTORY_NOTICE_KEY]))[HISTORY_NOTICE_KEY]);
      await this.session.set({ [HISTORY_NOTICE_KEY]: addToNotice(notice, counts, this.now()) });
    } catch {
      // The notice is the last resort: nothing more can be done.
    }
  }
}
