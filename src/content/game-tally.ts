/**
 * The current game's own counts (moves, desyncs, the score the driver adds up), its replay, and its record.
 *
 * A game keeps one id across its runs: Stop and then Solve again go on with the same game, and every
 * record of it carries that id, so the log keeps one record per game (the latest replaces the earlier) and
 * the replay goes on recording across the pause. A new game begins after one ended (over, won) or when the
 * board holds less than before: the sum of the tiles never shrinks within a game (a merge keeps it, a
 * spawn adds to it), so a smaller one is a new game.
 */
import type { GameRecord, RunStatus } from '../shared/messages';
import type { Grid, StrategyName } from '../engine/types';
import { tileSum } from '../engine/grid';
import { ReplayRecorder } from '../shared/history';
import type { Replay, TracedMove } from '../shared/history';

function newGameId(): string {
  return `g-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export class GameTally {
  private startedAt = 0;
  private moves = 0;
  private desyncs = 0;
  private lastSum = 0;
  private gameId = newGameId();
  private readonly replay = new ReplayRecorder();
  /** The score the moves made, for pages that show none. */
  score = 0;

  /** The id of the game being played. */
  get id(): string {
    return this.gameId;
  }

  /** A run begins: a game with no move yet starts its clock now. */
  begin(now: number): void {
    if (this.moves === 0) this.startedAt = now;
  }

  /** The board before a move: a board with less on it than the last one seen is a new game. */
  observe(grid: Grid, now: number): void {
    const sum = tileSum(grid);
    if (sum < this.lastSum) this.reset(now);
    this.lastSum = sum;
  }

  /** One move played; `step` (the boards and the think time) goes into the game's replay. */
  count(moveScore: number, desynced: boolean, step?: TracedMove): void {
    if (step) this.replay.add(step);
    this.score += moveScore;
    this.moves += 1;
    if (desynced) this.desyncs += 1;
  }

  /**
   * The record of the game so far (null when no move was played). A stopped game may go on (the same id
   * and the same replay next time); a game that ended (over, won) is done: the next move starts a new one.
   */
  finish(
    outcome: GameRecord['outcome'],
    status: RunStatus,
    strategy: StrategyName,
    adapter: string,
    now: number,
    settings?: Replay['settings'],
  ): GameRecord | null {
    if (this.moves === 0) return null;
    const replay = this.replay.snapshot(settings);
    const record: GameRecord = {
      gameId: this.gameId,
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
    if (outcome !== 'stopped') this.reset(now);
    return record;
  }

  private reset(now: number): void {
    this.gameId = newGameId();
    this.replay.reset();
    this.moves = 0;
    this.desyncs = 0;
    this.score = 0;
    this.startedAt = now;
  }
}
