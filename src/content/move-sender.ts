/**
 * One move on the page: send it through the adapter and wait until the page has drawn a new board;
 * re-send (with backoff) when the page ignored it, looking first whether the board changed meanwhile.
 */
import type { Direction, Grid } from '../engine/types';
import { sameGrid } from '../engine/index';
import type { Adapter, BoardReading } from './adapters/types';
import { DriverError } from './errors';
import { statusMessage } from '../shared/status-message';

export interface MoveSending {
  readonly settleTimeoutMs: number;
  /** Waits before each re-send; as many re-sends as entries. */
  readonly retryBackoffMs: readonly number[];
  sleep(ms: number): Promise<void>;
  /** A stop or a pause was asked for: send nothing more. */
  interrupted(): boolean;
  /** Read the board now, or null when it cannot be read. */
  tryRead(adapter: Adapter): BoardReading | null;
}

/** The board after `move`, or null when interrupted first; a DriverError when the page ignored every attempt. */
export async function sendMove(adapter: Adapter, before: Grid, move: Direction, how: MoveSending): Promise<BoardReading | null> {
  const attempts = how.retryBackoffMs.length + 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) {
      await how.sleep(how.retryBackoffMs[attempt - 1]);
      // The page may have changed meanwhile (a late move, an overlay): look before pressing again.
      const fresh = how.tryRead(adapter);
      if (fresh && (!sameGrid(fresh.grid, before) || fresh.status !== 'playing')) return fresh;
    }
    if (how.interrupted()) return null;
    await adapter.sendMove(move);
    const result = await adapter.settled(before, how.settleTimeoutMs, move);
    if (result.kind === 'changed') return result.reading;
    if (how.interrupted()) return null;
  }
  throw new DriverError(statusMessage('moveIgnored', move, attempts));
}
