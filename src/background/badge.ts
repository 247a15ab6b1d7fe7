/** The toolbar badge of a tab, from its run status (pure: src/background/service-worker.ts sets it). */
import type { RunStatus } from '../shared/messages';

/** Short tile text for a four-character badge: 512, 2048, 16k, 131k. */
export function shortTile(value: number): string {
  if (value < 10_000) return String(value);
  return `${Math.floor(value / 1024)}k`;
}

export interface Badge {
  readonly text: string;
  readonly color: string;
}

/** The toolbar badge for a tab: best tile while playing, "II" when paused, "!" on error, nothing when idle. */
export function badgeFor(status: RunStatus | null): Badge {
  if (!status) return { text: '', color: '#8f7a66' };
  if (status.state === 'error') return { text: '!', color: '#d9432f' };
  if (status.state === 'paused') return { text: 'II', color: '#bbada0' };
  if (status.running || status.state === 'thinking' || status.state === 'moving') {
    return { text: status.bestTile > 0 ? shortTile(status.bestTile) : '▶', color: '#f67c5f' };
  }
  if (status.state === 'won') return { text: shortTile(status.bestTile), color: '#edc22e' };
  return { text: '', color: '#8f7a66' };
}

/**
 * The badge last set on each tab, so that a run's statuses (one or more a move) set it only when it changes:
 * two calls to the browser a status otherwise. A tab's entry is forgotten when its page goes (a tab's badge
 * does not outlive its page) and when setting it failed.
 */
export class ShownBadges {
  private readonly shown = new Map<number, string>();

  /** Whether `badge` differs from what `tabId` shows; notes it as shown. */
  changed(tabId: number, badge: Badge): boolean {
    const key = `${badge.text}\n${badge.color}`;
    if (this.shown.get(tabId) === key) return false;
    this.shown.set(tabId, key);
    return true;
  }

  forget(tabId: number): void {
    this.shown.delete(tabId);
  }
}
