/** The current game's own counts (moves, desyncs, the score the driver adds up) and its record at the end. */
import type { GameRecord, RunStatus } from '../shared/messages';
import type { StrategyName } from '../engine/types';

export class GameTally {
  private startedAt = 0;
  private moves = 0;
  private desyncs = 0;
  /** The score the moves made, for pages that show none. */
  score = 0;

  /** A run begins: a game with no move yet starts its clock now. */
  begin(now: number): void {
    if (this.moves === 0) this.startedAt = now;
  }

  count(moveScore: number, desynced: boolean): void {
    this.score += moveScore;
    this.moves += 1;
    if (desynced) this.desyncs += 1;
  }

  /** The record of the game so far, and a fresh tally; null when no move was played. */
  finish(outcome: GameRecord['outcome'], status: RunStatus, strategy: StrategyName, adapter: string, now: number): GameRecord | null {
    if (this.moves === 0) return null;
    const record: GameRecord = {
      site: status.site ?? '',
      adapter: status.adapter ?? adapter,
      strategy,
      score: status.score,
      bestTile: status.bestTile,
      moves: this.moves,
      ms: Math.max(0, now - this.startedAt),
      desyncs: this.desyncs,
      endedAt: now,
      outcome,
    };
    this.moves = 0;
    this.desyncs = 0;
    this.score = 0;
    return record;
  }
}
