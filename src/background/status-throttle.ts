/**
 * A fast run reports its status once or twice per move (a hundred and more a second on a quick page).
 * Each stored status wakes every open extension page (storage.onChanged in the popup and the side panel)
 * and redraws the badge, and that work competes with the game for the same two cores. So the background
 * stores a running run's statuses at most every STATUS_WRITE_INTERVAL_MS, always the newest one, and hands
 * on the moves played in between as `recent` points, so the panel's charts still get every move. A status
 * that is not a running run's (stopped, paused, won, over, an error) is stored at once. Every 250 ms is
 * four redraws a second in the popup and the panel (which redraw at most that often anyway). Pure.
 */
import { STATUS_RECENT_CAP, movePointOf } from '../shared/messages';
import type { MovePoint, RunStatus } from '../shared/messages';

export const STATUS_WRITE_INTERVAL_MS = 250;

interface TabState {
  lastWrite: number;
  held: RunStatus | null;
  points: MovePoint[];
}

export type Offer = { readonly write: RunStatus } | { readonly holdMs: number };

export class StatusThrottle {
  private readonly tabs = new Map<number, TabState>();

  constructor(private readonly intervalMs = STATUS_WRITE_INTERVAL_MS) {}

  /**
   * A status arrived: store `write` now, or hold it (the newest held one is stored by `due` after
   * `holdMs`; a later offer replaces it).
   */
  offer(tabId: number, status: RunStatus, now: number): Offer {
    const tab = this.tabs.get(tabId) ?? { lastWrite: Number.NEGATIVE_INFINITY, held: null, points: [] };
    this.tabs.set(tabId, tab);
    const point = movePointOf(status);
    if (point && point.moves !== tab.points.at(-1)?.moves) {
      tab.points.push(point);
      if (tab.points.length > STATUS_RECENT_CAP) tab.points.splice(0, tab.points.length - STATUS_RECENT_CAP);
    }
    const playing = status.running && (status.state === 'thinking' || status.state === 'moving');
    const since = now - tab.lastWrite;
    if (playing && since < this.intervalMs) {
      tab.held = status;
      return { holdMs: this.intervalMs - since };
    }
    return { write: this.release(tab, status, now) };
  }

  /** The held status of a tab, to store now (null when none is held any more). */
  due(tabId: number, now: number): RunStatus | null {
    const tab = this.tabs.get(tabId);
    if (!tab?.held) return null;
    return this.release(tab, tab.held, now);
  }

  /** The tab's page ended or the tab closed: nothing held is stored any more. */
  forget(tabId: number): void {
    this.tabs.delete(tabId);
  }

  private release(tab: TabState, status: RunStatus, now: number): RunStatus {
    tab.lastWrite = now;
    tab.held = null;
    const recent = tab.points;
    tab.points = [];
    return recent.length > 0 ? { ...status, recent } : status;
  }
}
