/**
 * The driver's games: the tally of the game being played (./game-tally.ts) and the delivery of their
 * records (./game-reporter.ts). Every way a game leaves the driver records it once: finished (over, won),
 * stopped, paused (the person may start a new game by hand), a new game the page started, the page
 * going away, the extension going away (the record waits in `handover` for the page's next content
 * script, which sends it and goes on with the game: `adopt`).
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
    if (record) this.reporter.report(record);
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
    return true;
  }

  /** The extension went away: the game so far is recorded, nothing more is sent (see `handover`). */
  dispose(): void {
    this.record('stopped');
    this.reporter.dispose();
  }

  /** The records not sent, and the id of the game being played (its record among them). */
  handover(): { games: GameRecord[]; current: string } {
    return { games: this.reporter.unsent(), current: this.tally.id };
  }

  /** Send what an earlier content script of the page handed over; its game in progress goes on here (returned) when it can. */
  adopt(games: readonly GameRecord[], current: string | undefined, now: number): GameRecord | null {
    let resumed: GameRecord | null = null;
    for (const record of games) {
      if (record.gameId === current && this.tally.resume(record, now)) resumed = record;
      this.reporter.report(record);
    }
    return resumed;
  }
}
