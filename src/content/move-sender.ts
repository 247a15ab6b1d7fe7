/**
 * One move on the page: send it through the adapter and wait until the page has drawn a new board;
 * re-send (with backoff) when the page ignored it, looking first whether the board changed meanwhile.
 *
 * Some pages drop every key for a while after a move (while their tiles slide). Each dropped key costs a
 * whole settle timeout and a re-send, so such a page would play about one move a second. `InputPacing`
 * learns, from the keys a page dropped and then took, how long after a board change it takes keys again,
 * and the first key of each move waits that long (waiting never plays a wrong move; re-sending sooner could).
 */
import type { Direction, Grid } from '../engine/types';
import { sameGrid } from './adapters/common';
import type { Adapter, BoardReading } from './adapters/types';
import { DriverError } from './errors';

/** How long after a board change this page takes keys again, learnt from the keys it dropped. */
export class InputPacing {
  /** Drops despite the full learnt wait that show a page drops keys for some other reason than timing. */
  static readonly GIVE_UP_AFTER = 5;
  private lastChangeAt = Number.NEGATIVE_INFINITY;
  private waitMs = 0;
  private dropsDespiteWaiting = 0;
  private gaveUp = false;

  /** `maxWaitMs` caps what one page can teach. */
  constructor(private readonly maxWaitMs = 1_000) {}

  /** The learnt wait after a board change before a key (0 until the page has dropped one, or once pacing gave up). */
  get learntMs(): number {
    return this.waitMs;
  }

  /** How long a key about to be sent at `now` should wait. */
  delay(now: number): number {
    return Math.max(0, this.lastChangeAt + this.waitMs - now);
  }

  /** Milliseconds since the last board change (Infinity before the first). */
  sinceChange(now: number): number {
    return now - this.lastChangeAt;
  }

  /** The page drew a move at `now`. */
  changed(now: number): void {
    this.lastChangeAt = now;
  }

  /**
   * A key sent `gapMs` after the last board change was dropped and its re-send was taken: wait longer than
   * that from now on (at least double the wait that failed, so a few drops find a page's lock). A page that
   * keeps dropping keys sent after the whole learnt wait is not locked for a while after a move but drops
   * keys for other reasons; waiting would only slow it down, so pacing gives up there.
   */
  dropped(gapMs: number): void {
    if (!Number.isFinite(gapMs) || this.gaveUp) return;
    if (this.waitMs > 0 && gapMs >= this.waitMs && ++this.dropsDespiteWaiting > InputPacing.GIVE_UP_AFTER) {
      this.gaveUp = true;
      this.waitMs = 0;
      return;
    }
    this.waitMs = Math.min(this.maxWaitMs, Math.max(100, this.waitMs * 2, Math.ceil(gapMs) + 50));
  }
}

export interface MoveSending {
  readonly settleTimeoutMs: number;
  /** Waits before each re-send; as many re-sends as entries. */
  readonly retryBackoffMs: readonly number[];
  /** What the page has taught about when it takes keys; updated as moves are drawn or dropped. */
  readonly pacing: InputPacing;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** A stop or a pause was asked for: send nothing more. */
  interrupted(): boolean;
  /** Read the board now, or null when it cannot be read. */
  tryRead(adapter: Adapter): BoardReading | null;
}

/** The board after `move`, or null when interrupted first; a DriverError when the page ignored every attempt. */
export async function sendMove(adapter: Adapter, before: Grid, move: Direction, how: MoveSending): Promise<BoardReading | null> {
  const attempts = how.retryBackoffMs.length + 1;
  const wait = how.pacing.delay(how.now());
  if (wait > 0) await how.sleep(wait);
  /** How long after the last change the first key went out, while it is the only one that went unanswered. */
  let firstGap: number | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) {
      await how.sleep(how.retryBackoffMs[attempt - 1]);
      // The page may have changed meanwhile (a late move, an overlay): look before pressing again.
      const fresh = how.tryRead(adapter);
      if (fresh && (!sameGrid(fresh.grid, before) || fresh.status !== 'playing')) {
        if (!sameGrid(fresh.grid, before)) how.pacing.changed(how.now());
        return fresh;
      }
    }
    if (how.interrupted()) return null;
    const sentAt = how.now();
    await adapter.sendMove(move);
    const result = await adapter.settled(before, how.settleTimeoutMs, move);
    if (result.kind === 'changed') {
      // Only a first key dropped and its very re-send taken says "too soon": anything else is not a lock.
      if (attempt === 1 && firstGap !== null) how.pacing.dropped(firstGap);
      how.pacing.changed(how.now());
      return result.reading;
    }
    if (attempt === 0) firstGap = how.pacing.sinceChange(sentAt);
    if (how.interrupted()) return null;
  }
  throw new DriverError(
    `The page ignored the move ${move} (sent ${attempts} times, the board did not change): it may not accept synthetic keys, or an overlay blocks it`,
  );
}
