/**
 * The one writer of the game log (chrome.storage.local): recording a game, the background's fallback
 * guess, the panel's import, deleting a game and clearing the history all go through one queue, each a
 * read-modify-write of the log (src/shared/game-log.ts), so none of them can lose another's change.
 *
 * A write the browser refuses (the storage is full) changes nothing and is not swallowed: the change's
 * reply says `failed`, and a recorded game that could not be kept is counted in the history's notice
 * (storage.session), which the popup and the panel show until the history is cleared or a game deleted.
 */
import { ASIDE_STORAGE_KEY, GAMES_STORAGE_KEY, HISTORY_NOTICE_KEY, addGame, deleteFromLog, importIntoLog, readLog, readNotice } from '../shared/game-log';
import type { GameLog, LogChange } from '../shared/game-log';
import type { GameRecord, LogChangeReply } from '../shared/messages';

/** The part of a chrome.storage area the writer uses. */
export interface StorageArea {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

function replyOf(change: LogChange, failed: boolean): LogChangeReply {
  const { added, duplicates, evicted, refused, truncated, deleted } = change;
  return failed ? { added: 0, duplicates, evicted: 0, refused: 0, truncated: 0, deleted: 0, failed } : { added, duplicates, evicted, refused, truncated, deleted, failed };
}

export class GameLogWriter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly local: StorageArea,
    private readonly session: StorageArea,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Record a game (a later record of the same game replaces it; a `fallback` guess only adds what is missing). */
  record(record: GameRecord, options: { fallback?: boolean } = {}): Promise<LogChangeReply> {
    return this.change((log) => addGame(log, record, options), { unsavedIfFailed: 1 });
  }

  /** Merge imported games in (each validated and bounded by the protocol and the log). */
  importGames(games: readonly GameRecord[]): Promise<LogChangeReply> {
    return this.change((log) => importIntoLog(log, games));
  }

  deleteGame(key: string): Promise<LogChangeReply> {
    return this.change((log) => deleteFromLog(log, key), { clearsNotice: true });
  }

  /** Every game goes, the unreadable ones too (the person asked for it). */
  clear(): Promise<LogChangeReply> {
    return this.change((log) => ({ log: { games: [], aside: [] }, added: 0, duplicates: 0, evicted: 0, refused: 0, truncated: 0, deleted: log.games.length + log.aside.length }), {
      clearsNotice: true,
    });
  }

  /** Run `apply` on the log in turn (after every change queued before it); never rejects for a refused write. */
  private change(apply: (log: GameLog) => LogChange, options: { unsavedIfFailed?: number; clearsNotice?: boolean } = {}): Promise<LogChangeReply> {
    const run = async (): Promise<LogChangeReply> => {
      const items = await this.local.get([GAMES_STORAGE_KEY, ASIDE_STORAGE_KEY]);
      const before = readLog(items[GAMES_STORAGE_KEY], items[ASIDE_STORAGE_KEY]);
      const change = apply(before);
      const storedAside = items[ASIDE_STORAGE_KEY];
      const asideChanged = !Array.isArray(storedAside) || storedAside.length !== change.log.aside.length;
      try {
        await this.local.set({ [GAMES_STORAGE_KEY]: change.log.games, ...(asideChanged ? { [ASIDE_STORAGE_KEY]: change.log.aside } : {}) });
      } catch {
        if (options.unsavedIfFailed) await this.noteUnsaved(options.unsavedIfFailed);
        return replyOf(change, true);
      }
      if (options.clearsNotice) await this.session.remove([HISTORY_NOTICE_KEY]).catch(() => undefined);
      return replyOf(change, false);
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async noteUnsaved(games: number): Promise<void> {
    try {
      const notice = readNotice((await this.session.get([HISTORY_NOTICE_KEY]))[HISTORY_NOTICE_KEY]);
      await this.session.set({ [HISTORY_NOTICE_KEY]: { unsaved: (notice?.unsaved ?? 0) + games, since: notice?.since ?? this.now() } });
    } catch {
      // The notice is the last resort: nothing more can be done.
    }
  }
}
