/**
 * Sends finished and stopped games to the background (`content/game-finished`) until each is answered:
 * a background that is restarting, a port that closed, a storage write in progress — the record is sent
 * again (RETRY_MS, the last wait repeated) while the page lives and the extension is there. A newer
 * record of the same game replaces one still waiting. The records that could not be sent when the
 * extension went away (an update, a reload) are handed to the next content script of the page
 * (src/content/index.ts), which sends them. Past MAX_WAITING the oldest waiting record is let go, never
 * without a word: the count goes with the next record sent, and the history's notice says it.
 */
import type { GameRecord } from '../shared/messages';
import { DeliveryError } from '../shared/protocol';
import type { Send } from '../shared/protocol';

/** Waits before each new attempt (ms); the last one repeats for as long as it takes. */
const RETRY_MS = [250, 500, 1_000, 2_000, 5_000, 10_000, 30_000] as const;

/** Records waiting at most (the oldest give way: a page cannot pile up games without end). */
const MAX_WAITING = 20;

function keyOf(record: GameRecord): string {
  return record.gameId ?? `${record.endedAt}|${record.moves}`;
}

export class GameReporter {
  private readonly waiting = new Map<string, GameRecord>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private sending = false;
  private disposed = false;
  /** Records let go (MAX_WAITING) and not yet told to the background. */
  private lost = 0;

  constructor(
    private readonly send: Send,
    /** False once the extension is gone: nothing can be sent any more (the records wait for a handover). */
    private readonly canSend: () => boolean,
    private readonly retryMs: readonly number[] = RETRY_MS,
  ) {}

  /** Send `record` now (and again until it is answered). */
  report(record: GameRecord): void {
    const key = keyOf(record);
    this.waiting.delete(key);
    this.waiting.set(key, record);
    while (this.waiting.size > MAX_WAITING) {
      this.waiting.delete(this.waiting.keys().next().value as string);
      this.lost++;
    }
    this.attempt = 0;
    void this.flush();
  }

  /** The records not answered yet (for the next content script, after the extension went away). */
  unsent(): GameRecord[] {
    return [...this.waiting.values()];
  }

  /** No more attempts (the records stay for `unsent`). */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async flush(): Promise<void> {
    if (this.sending || this.disposed) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.sending = true;
    let answered = true;
    try {
      for (const [key, record] of [...this.waiting]) {
        if (!this.canSend() || this.disposed) return;
        const lost = this.lost;
        try {
          await this.send('content/game-finished', lost > 0 ? { record, lost } : { record });
          this.lost -= lost;
        } catch (err) {
          // The background answered with a refusal (a record it cannot take): sending it again changes nothing.
          if (!(err instanceof DeliveryError && err.remote)) throw err;
        }
        // Answered: done, unless a newer record of the game came in meanwhile.
        if (this.waiting.get(key) === record) this.waiting.delete(key);
      }
      this.attempt = 0;
    } catch {
      answered = false;
    } finally {
      this.sending = false;
    }
    if (this.waiting.size === 0 || this.disposed || !this.canSend()) return;
    // A record that came in while the others were sent goes at once; a failure waits a while.
    if (answered) {
      void this.flush();
      return;
    }
    const wait = this.retryMs[Math.min(this.attempt, this.retryMs.length - 1)];
    this.attempt++;
    this.timer = setTimeout(() => void this.flush(), wait);
  }
}
