/**
 * Games being played, kept where an extension update cannot erase them. The run statuses live in
 * storage.session, which the browser clears when the extension is updated or reloaded (and when it
 * restarts): a game in progress then would leave no trace. So while a tab's run plays, its game's record
 * as the last status tells it (no replay: src/background/run-status.ts stoppedGameRecord) is kept in
 * storage.local under LIVE_GAMES_KEY, written at most every LIVE_WRITE_INTERVAL_MS per tab and removed
 * when the run stops (the content script records the game itself then).
 *
 * When the background starts on an emptied storage.session (a new session: `isNewSession`), the games left
 * there are recorded as fallbacks (src/shared/game-log.ts addGame): a game's own record, with its replay,
 * replaces such a guess when the page hands it over later (src/content/index.ts), and a guess never
 * replaces a record with as many moves.
 */
import { GameRecordSchema } from '../shared/messages';
import type { GameRecord, RunStatus } from '../shared/messages';
import { stoppedGameRecord } from './run-status';
import type { GameLogWriter, StorageArea } from './game-log-writer';

const LIVE_GAMES_KEY = 'liveGames';
/** storage.session key set once per session: its absence at start says the session storage was emptied. */
const SESSION_MARK_KEY = 'sessionMark';
const LIVE_WRITE_INTERVAL_MS = 2_000;

/** Whether storage.session was emptied since the background last ran (and mark it as not). */
export async function isNewSession(session: StorageArea, now: number): Promise<boolean> {
  const items = await session.get([SESSION_MARK_KEY]);
  if (items[SESSION_MARK_KEY] !== undefined) return false;
  await session.set({ [SESSION_MARK_KEY]: now });
  return true;
}

function playing(status: RunStatus): boolean {
  return status.running && (status.state === 'thinking' || status.state === 'moving');
}

export class LiveGames {
  private queue: Promise<unknown>;
  /** Per tab: when its entry was written and for which game; null = it has none. Unknown after a restart. */
  private readonly tabs = new Map<number, { at: number; gameId: string | undefined } | null>();

  constructor(
    private readonly local: StorageArea,
    private readonly writer: Pick<GameLogWriter, 'record'>,
    /** Resolves true when the session is new: the games left from the last one are recorded first. */
    newSession: Promise<boolean>,
  ) {
    this.queue = newSession.then((fresh) => (fresh ? this.recover() : undefined)).catch(() => undefined);
  }

  /** A tab's status was stored: keep its game's entry current (throttled), or remove it when the run stopped. */
  note(tabId: number, status: RunStatus, now: number): Promise<void> {
    const known = this.tabs.get(tabId);
    if (playing(status) && status.gameId !== undefined && status.moves > 0) {
      if (known && known.gameId === status.gameId && now - known.at < LIVE_WRITE_INTERVAL_MS) return Promise.resolve();
      const record = stoppedGameRecord(status, now);
      if (!record) return Promise.resolve();
      this.tabs.set(tabId, { at: now, gameId: status.gameId });
      return this.update((entries) => ({ ...entries, [tabId]: record }));
    }
    return known === null ? Promise.resolve() : this.end(tabId);
  }

  /** The tab's run ended (its page went away, the tab closed): its entry goes. */
  end(tabId: number): Promise<void> {
    this.tabs.set(tabId, null);
    return this.update((entries) => {
      if (!(String(tabId) in entries)) return null;
      const { [String(tabId)]: _gone, ...rest } = entries;
      return rest;
    });
  }

  /** Wait for the changes queued so far (tests). */
  settled(): Promise<unknown> {
    return this.queue;
  }

  /** Apply `change` to the stored entries in turn; null = no change (nothing written). */
  private update(change: (entries: Record<string, unknown>) => Record<string, unknown> | null): Promise<void> {
    const run = async (): Promise<void> => {
      const stored = (await this.local.get([LIVE_GAMES_KEY]))[LIVE_GAMES_KEY];
      const entries = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {};
      const next = change(entries);
      if (next) await this.local.set({ [LIVE_GAMES_KEY]: next });
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result.catch(() => undefined);
  }

  /** The games of the last session that were still being played: recorded as fallbacks, then forgotten. */
  private async recover(): Promise<void> {
    const stored = (await this.local.get([LIVE_GAMES_KEY]))[LIVE_GAMES_KEY];
    if (typeof stored !== 'object' || stored === null) return;
    const records: GameRecord[] = [];
    for (const value of Object.values(stored as Record<string, unknown>)) {
      const parsed = GameRecordSchema.safeParse(value);
      if (parsed.success) records.push(parsed.data);
    }
    for (const record of records) await this.writer.record(record, { fallback: true });
    await this.local.remove([LIVE_GAMES_KEY]);
  }
}
