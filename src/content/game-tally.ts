/** The current game's own counts (moves, desyncs, the score the driver adds up) and its record at the end. */
import type { GameRecord, RunStatus } from '../shared/messages';
import type { StrategyName } from '../engine/types';
import { ReplayRecorder } from '../shared/history';
import type { Replay, TracedMove } from '../shared/history';

export class GameTally {
  private startedAt = 0;
  private moves = 0;
  private desyncs = 0;
  private readonly replay = new ReplayRecorder();
  /** The score the moves made, for pages that show none. */
  score = 0;

  /** A run begins: a game with no move yet starts its clock now. */
  begin(now: number): void {
    if (this.moves === 0) this.startedAt = now;
  }

  /** One move played; `step` (the boards and the think time) goes into the game's replay. */
  count(moveScore: number, desynced: boolean, step?: TracedMove): void {
    if (step) this.replay.add(step);
    this.score += moveScore;
    this.moves += 1;
    if (desynced) this.desyncs += 1;
  }

  /** The record of the game so far, and a fresh tally; null when no move was played. */
  finish(
    outcome: GameRecord['outcome'],
    status: RunStatus,
    strategy: StrategyName,
    adapter: string,
    now: number,
    settings?: Replay['settings'],
  ): GameRecord | null {
    if (this.moves === 0) {
      this.replay.reset();
      return null;
    }
    const replay = this.replay.finish(settings);
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
      ...(replay ? { replay } : {}),
    };
    this.moves = 0;
    this.desyncs = 0;
    this.score = 0;
    return record;
  }
}
