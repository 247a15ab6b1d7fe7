/**
 * One game of coach mode (./coach.ts) as it is kept and recorded: the person's moves graded into their slots
 * (src/coach/grade.ts), the game's replay in the autopilot's format (the i-th move has the i-th mark), its
 * resyncs and last grade, the coach's part of the run status, and the game's record when it ends.
 */
import type { Direction, MoveChoice, StrategyName } from '../engine/types';
import { GradeTally, gradeChoice, isGradable } from '../coach/grade';
import type { MoveGrade } from '../coach/grade';
import { NO_GRADES_NOTE } from '../shared/coach';
import type { CoachStatus } from '../shared/coach';
import { ReplayRecorder } from '../shared/history';
import type { GameRecord } from '../shared/messages';

/** What the record says of the page and the end of the game (the rest is the game's own). */
export interface GameEnd {
  readonly site: GameRecord['site'];
  readonly adapter: string;
  readonly strategy: StrategyName;
  readonly score: GameRecord['score'];
  readonly bestTile: number;
  readonly endedAt: number;
}

export class CoachGame {
  readonly id = newGameId();
  readonly tally = new GradeTally();
  /** The person's game move by move, in the autopilot's replay format: the i-th move has the i-th mark. */
  readonly replay = new ReplayRecorder();
  resyncs = 0;
  private last: MoveGrade | undefined;
  /** The record was sent (at game over): not again. */
  recorded = false;

  constructor(private readonly startedAt: number) {}

  /** Grade `move`, played from the board `choice` is the search of, into its slot. */
  grade(choice: MoveChoice, move: Direction, slot: number): void {
    const grade = gradeChoice(choice, move);
    this.tally.settle(slot, grade);
    if (choice.chance) this.tally.chance(slot, choice.chance.next.p);
    if (grade) this.last = grade;
  }

  /** The coach's part of the run status. */
  status(active: boolean, suggestion: Direction | null, strategy: StrategyName): CoachStatus {
    const summary = this.tally.summary();
    const last = this.last;
    return {
      active,
      suggestion,
      graded: summary.graded,
      accuracy: summary.accuracy,
      counts: summary.counts,
      ...(last ? { last: { grade: last.grade, move: last.move, best: last.best, loss: last.loss, accuracy: last.accuracy, ...(last.chance ? { chance: last.chance } : {}) } } : {}),
      resyncs: this.resyncs,
      ...(isGradable(strategy) ? {} : { note: NO_GRADES_NOTE }),
    };
  }

  /** The game's record: its grades and its replay (the i-th move of the replay has the i-th mark). */
  record(outcome: GameRecord['outcome'], end: GameEnd): GameRecord {
    const summary = this.tally.summary();
    const replay = this.replay.snapshot();
    return {
      gameId: this.id,
      site: end.site,
      adapter: end.adapter,
      strategy: end.strategy,
      score: end.score,
      bestTile: end.bestTile,
      moves: this.tally.movesSeen,
      ms: Math.max(0, end.endedAt - this.startedAt),
      desyncs: this.resyncs,
      endedAt: end.endedAt,
      outcome,
      coach: { ...summary, resyncs: this.resyncs },
      ...(replay ? { replay } : {}),
    };
  }
}

function newGameId(): string {
  return `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
