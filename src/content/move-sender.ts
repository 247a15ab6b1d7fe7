/**
 * One move on the page: send it through the adapter and wait until the page has taken it (the earliest
 * reading that shows the new board); re-send when the page ignored it, looking first whether the board
 * changed meanwhile. The driver thinks about the next move while the page still draws this one.
 *
 * Most pages take the next key at once. Some drop keys while their tiles slide: KeyPacing learns that per
 * page from the keys that moved nothing, and from then on holds each key until the page has drawn the last
 * move (its animations ended, when the adapter can tell, and the learnt time since the board changed).
 * A dropped key is sent again once the page has drawn; it is counted once, as the move it is.
 */
import type { Direction, Grid } from '../engine/types';
import { sameGrid } from '../engine/index';
import type { Adapter, BoardReading } from './adapters/types';
import { DriverError } from './errors';
import { statusMessage } from '../shared/status-message';

export interface MoveSending {
  readonly settleTimeoutMs: number;
  /** Least waits before each re-send; as many re-sends as entries. */
  readonly retryBackoffMs: readonly number[];
  sleep(ms: number): Promise<void>;
  /** A stop or a pause was asked for: send nothing more. */
  interrupted(): boolean;
  /** Read the board now, or null when it cannot be read. */
  tryRead(adapter: Adapter): BoardReading | null;
  /** This page's pacing of keys (learnt while playing). */
  readonly pacing: KeyPacing;
  readonly now: () => number;
}

/** The longest a key is held after a drawn board, however slow the page's animation looked. */
export const MAX_HOLD_MS = 1_000;

/**
 * How soon after a move the page takes the next key: at once (every page, until one drops a key), or — for
 * a page that dropped one — once its drawing has ended and `holdMs` have passed since the board changed.
 * Each dropped key doubles the hold (at least past the time that key was sent at), up to MAX_HOLD_MS.
 */
export class KeyPacing {
  /** Keys dropped by this page so far. */
  dropped = 0;
  /** Learnt: keys sent sooner than this after the board changed are dropped. */
  holdMs = 0;
  private changedAt = Number.NEGATIVE_INFINITY;
  private drawing: Promise<void> | null = null;

  /** The page took a move: its board changed at `at`; `drawn`, when given, ends with its animations. */
  moved(at: number, drawn?: Promise<void>): void {
    this.changedAt = at;
    this.drawing = drawn ?? null;
  }

  /** A key sent at `sentAt` moved nothing: the page was still busy with the move before. */
  keyDropped(sentAt: number): void {
    this.dropped++;
    const early = Math.max(0, sentAt - this.changedAt);
    this.holdMs = Math.min(MAX_HOLD_MS, Math.max(this.holdMs * 2, Math.round(early) + 100));
  }

  /** Wait until the page takes a key (at once for a page that never dropped one). */
  async ready(how: Pick<MoveSending, 'sleep' | 'now'>): Promise<void> {
    if (this.dropped === 0) return;
    if (this.drawing) await this.drawing;
    const wait = this.changedAt + this.holdMs - how.now();
    if (wait > 0) await how.sleep(Math.min(wait, MAX_HOLD_MS));
  }
}

/** The board after `move`, or null when interrupted first; a DriverError when the page ignored every attempt. */
export async function sendMove(adapter: Adapter, before: Grid, move: Direction, how: MoveSending): Promise<BoardReading | null> {
  const attempts = how.retryBackoffMs.length + 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const sinceSent = how.now();
    await how.pacing.ready(how);
    if (attempt > 0) {
      const rest = how.retryBackoffMs[attempt - 1] - (how.now() - sinceSent);
      if (rest > 0) await how.sleep(rest);
      // The page may have changed meanwhile (a late move, an overlay): look before pressing again.
      const fresh = how.tryRead(adapter);
      if (fresh && (!sameGrid(fresh.grid, before) || fresh.status !== 'playing')) return moved(how, fresh);
    }
    if (how.interrupted()) return null;
    const sentAt = how.now();
    await adapter.sendMove(move);
    const result = await adapter.settled(before, how.settleTimeoutMs, move);
    if (result.kind === 'changed') return moved(how, result.reading, result.drawn);
    how.pacing.keyDropped(sentAt);
    if (how.interrupted()) return null;
  }
  throw new DriverError(statusMessage('moveIgnored', move, attempts));
}

function moved(how: MoveSending, reading: BoardReading, drawn?: Promise<void>): BoardReading {
  how.pacing.moved(how.now(), drawn);
  return reading;
}
