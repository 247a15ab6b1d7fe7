/**
 * The current game's own counts (moves, desyncs, the score the driver adds up), its replay, and its record.
 *
 * A game keeps one id across its runs: Stop and then Solve again go on with the same game, and every
 * record of it carries that id, so the log keeps one record per game (the latest replaces the earlier) and
 * the replay goes on recording across the pause. A new game begins after one ended (over, won) or when the
 * board holds less than before: the sum of the tiles never shrinks within a game (a merge keeps it, a
 * spawn adds to it), so a smaller one is a new game.
 *
 * A record is made only when there is news since the last one (more moves, or another outcome), with
 * every field within the record's bounds (src/shared/messages.ts GameRecordSchema): a game is never lost
 * to a value the background would refuse. After an extension update the next content script of the page
 * can take the game over (`resume`), so that it stays one game with one record.
 */
import type { GameRecord, RunStatus } from '../shared/messages';
import type { Grid, StrategyName } from '../engine/types';
import { tileSum } from '../engine/grid';
import { ReplayRecorder, replayFrames } from '../shared/history';
import type { Replay, TracedMove } from '../shared/history';

/** The tile sum of a fresh game's board: two tiles of at most 4. */
const FRESH_SUM = 8;
/** The most two undone moves take off the board (each the tile it spawned). */
const UNDO_DROP = 8;

/** A score the record can carry (finite, not negative), else none. */
export function recordScore(score: number | null): number | null {
  return score !== null && Number.isFinite(score) && score >= 0 && score <= 1e15 ? score : null;
}

/** The page's host as a record names it, or 'unknown'. */
export function recordSite(site: string | undefined): string {
  return site !== undefined && /^[a-z0-9._:[\]-]{0,260}$/i.test(site) ? site : 'unknown';
}

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
  /** What the last record of this game said (null: none yet). */
  private recorded: { moves: number; outcome: GameRecord['outcome'] } | null = null;
  /** The score the moves made, for pages that show none. */
  score = 0;

  /** The id of the game being played. */
  get id(): string {
    return this.gameId;
  }

  /** Moves played in this game. */
  get moveCount(): number {
    return this.moves;
  }

  /**
   * The board before a move holds less than the last one seen: the page started a new game. An undo (a
   * page's powerup, or the person's) takes off only the tiles its moves spawned, at most 4 each: a drop of
   * up to UNDO_DROP is the same game, unless the board is as bare as a fresh one.
   */
  isNewGame(grid: Grid): boolean {
    const sum = tileSum(grid);
    return sum < this.lastSum && (sum <= FRESH_SUM || this.lastSum - sum > UNDO_DROP);
  }

  /** A new game starts now (the one before was recorded, or had no move). */
  startNew(now: number): void {
    this.reset(now);
    this.lastSum = 0;
  }

  /** A run begins: a game with no move yet starts its clock now. */
  begin(now: number): void {
    if (this.moves === 0) this.startedAt = now;
  }

  /** The board before a move: a board with less on it than the last one seen is a new game. */
  observe(grid: Grid, now: number): void {
    if (this.isNewGame(grid)) this.reset(now);
    this.lastSum = tileSum(grid);
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
    const news = !this.recorded || this.recorded.moves !== this.moves || this.recorded.outcome !== outcome;
    if (!news) {
      if (outcome !== 'stopped') this.reset(now);
      return null;
    }
    const replay = this.replay.snapshot(settings);
    const record: GameRecord = {
      gameId: this.gameId,
      site: recordSite(status.site),
      adapter: status.adapter ?? adapter,
      strategy,
      score: recordScore(status.score),
      bestTile: status.bestTile,
      moves: this.moves,
      ms: Math.min(1e11, Math.max(0, now - this.startedAt)),
      desyncs: this.desyncs,
      endedAt: Math.round(now),
      outcome,
      ...(replay ? { replay } : {}),
    };
    this.recorded = { moves: this.moves, outcome };
    if (outcome !== 'stopped') this.reset(now);
    return record;
  }

  /**
   * Take over the game an earlier content script of this page was playing (its last record, handed over
   * after an extension update): the same id, counts and replay, so that it stays one game. Only a
   * stopped game with its whole replay, and only before this tally counted a move; false otherwise.
   */
  resume(record: GameRecord, now: number): boolean {
    const replay = record.replay;
    if (this.moves > 0 || record.outcome !== 'stopped' || record.gameId === undefined || !replay || replay.truncated || replay.n !== record.moves) return false;
    let last: { board: Grid; score: number };
    try {
      const frames = replayFrames(replay);
      last = frames[frames.length - 1];
    } catch {
      return false;
    }
    this.replay.continueFrom(replay, last.board);
    this.gameId = record.gameId;
    this.moves = record.moves;
    this.desyncs = record.desyncs;
    this.score = last.score;
    this.startedAt = now - record.ms;
    this.lastSum = tileSum(last.board);
    this.recorded = { moves: record.moves, outcome: 'stopped' };
    return true;
  }

  private reset(now: number): void {
    this.gameId = newGameId();
    this.recorded = null;
    this.replay.reset();
    this.moves = 0;
    this.desyncs = 0;
    this.score = 0;
    this.startedAt = now;
  }
}
