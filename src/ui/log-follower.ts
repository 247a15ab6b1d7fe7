/**
 * The game log as the popup and the panel follow it. Each change of the log in storage (a game recorded,
 * imported or deleted) carries the stored log itself: it is taken from the change, not read again. And a
 * burst of changes — a page that starts a new game every few moves has hundreds recorded in a minute, each
 * change carrying the whole log — is taken at most every LOG_FOLLOW_INTERVAL_MS: the first change at once,
 * the last one always.
 */
import { ASIDE_STORAGE_KEY, GAMES_STORAGE_KEY } from '../shared/game-log';
import { browser } from '../platform/runtime';

/** The least time between two takes of the log while it keeps changing. */
const LOG_FOLLOW_INTERVAL_MS = 500;

/** The log as stored: its records and the records kept aside, neither validated yet (src/shared/game-log.ts readLog). */
export interface StoredLog {
  readonly games: unknown;
  readonly aside: unknown;
}

/** Call `take` with the stored log after each change of it (a burst of changes: at most every `intervalMs`). */
export function followLog(initial: StoredLog, take: (log: StoredLog) => void, intervalMs = LOG_FOLLOW_INTERVAL_MS): void {
  let latest = initial;
  let pending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    timer = undefined;
    if (!pending) return;
    pending = false;
    take(latest);
    timer = setTimeout(flush, intervalMs);
  };
  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local') return;
    const games = changes[GAMES_STORAGE_KEY];
    const aside = changes[ASIDE_STORAGE_KEY];
    if (!games && !aside) return;
    latest = { games: games ? games.newValue : latest.games, aside: aside ? aside.newValue : latest.aside };
    pending = true;
    if (timer === undefined) flush();
  });
}
