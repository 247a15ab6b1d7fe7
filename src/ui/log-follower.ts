/**
 * The game log as the popup and the panel follow it. Each change of the log in storage (a game recorded,
 * imported or deleted) carries the parts of the stored log it changed: they are taken from the change, not
 * read again. And a burst of changes — a page that starts a new game every few moves has hundreds recorded in
 * a minute — is taken at most every LOG_FOLLOW_INTERVAL_MS: the first change at once, the last one always.
 */
import { GAME_LOG_KEYS } from '../shared/game-log-parts';
import { browser } from '../platform/runtime';

/** The least time between two takes of the log while it keeps changing. */
const LOG_FOLLOW_INTERVAL_MS = 500;

/**
 * The log as stored: chrome.storage.local's items under GAME_LOG_KEYS, none validated yet (src/shared/game-log.ts
 * readStoredLog).
 */
export type StoredLog = Readonly<Record<string, unknown>>;

/** Call `take` with the stored log after each change of it (a burst of changes: at most every `intervalMs`). */
export function followLog(initial: StoredLog, take: (log: StoredLog) => void, intervalMs = LOG_FOLLOW_INTERVAL_MS): void {
  let latest: StoredLog = initial;
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
    const changed = GAME_LOG_KEYS.filter((key) => key in changes);
    if (changed.length === 0) return;
    latest = { ...latest, ...Object.fromEntries(changed.map((key) => [key, changes[key].newValue])) };
    pending = true;
    if (timer === undefined) flush();
  });
}
