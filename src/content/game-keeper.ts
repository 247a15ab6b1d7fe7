/**
 * The driver's games: the tally of the game being played (./game-tally.ts) and the delivery of their
 * records (./game-reporter.ts). Every way a game leaves the driver records it once: finished (over, won),
 * stopped, paused (the person may start a new game by hand), a new game the page started, the page
 * going away, the extension going away (the record waits in `handover` for the page's next content
 * script, which sends it and goes on with the same game: `adopt`; so does a game stopped before the
 * extension was updated, when Solve is pressed again).
 */
import type { GameRecord, RunStatus } from '../shared/messages';
import type { Grid, StrategyName } from '../engine/types';
import type { Replay } from '../shared/history';
import type { Send } from '../shared/protocol';
import { GameTally } from './game-tally';
import { GameReporter } from './game-reporter';

/** What a record is made of besides the tally: the driver's state at that moment. */
export interface RecordContext {
  readonly status: RunStatus;
  readonly strategy: StrategyName;
  readonly adapter: string;
  readonly now: number;
  readonly settings?: Replay['settings'];
}

export class GameKeeper {
  readonly tally = new GameTally();
  private readonly reporter: GameReporter;
  /** The latest record of the game being played (null once it ended, or before its first record). */
  private latest: GameRecord | null = null;

  constructor(
    send: Send,
    /** False once the extension is gone (records then wait for the handover). */
    canSend: () => boolean,
    private readonly context: () => RecordContext,
  ) {
    this.reporter = new GameReporter(send, canSend);
  }

  /** Record the game so far (when there is news since its last record) and send it. */
  record(outcome: GameRecord['outcome']): void {
    const { status, strategy, adapter, now, settings } = this.context();
    const record = this.tally.finish(outcome, status, strategy, adapter, now, settings);
    if (!record) return;
    this.latest = outcome === 'stopped' ? record : null;
    this.reporter.report(record);
  }

  /** Send a record made elsewhere (coach mode's games). */
  report(record: GameRecord): void {
    this.reporter.report(record);
  }

  /**
   * The board before a move: when it starts a new game (less on it than before), the game before is
   * recorded and a new one begins. True then.
   */
  startsNewGame(grid: Grid, now: number): boolean {
    if (!this.tally.isNewGame(grid)) return false;
    this.record('stopped');
    this.tally.startNew(now);
    this.latest = null;
    return true;
  }

  /** The extension went away: the game so far is recorded, nothing more is sent (see `handover`). */
  dispose(): void {
    this.record('stopped');
    this.reporter.dispose();
  }

  /** The records not sent, and the latest record of the game being played (to go on with it). */
  handover(): { games: GameRecord[]; resume: GameRecord | null } {
    return { games: this.reporter.unsent(), resume: this.latest };
  }

  /**
   * Send what an earlier content script of the page handed over, and go on with its game (returned) when
   * it can: the same game, one record.
   */
  adopt(games: readonly GameRecord[], resume: GameRecord | undefined, now: number): GameRecord | null {
    for (const record of games) this.reporter.report(record);
    if (!resume || !this.tally.resume(resume, now)) return null;
    this.latest = resume;
    return resume;
  }
}
