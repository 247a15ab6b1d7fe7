/**
 * Grading a person's move, chess-engine style (pure: no DOM, no chrome.*).
 *
 * A move is graded by the value it gives up against the best move of the SAME search (one search of the
 * position before the move, all root moves valued together), relative to the position's value:
 *
 *     loss = (value(best) − value(played)) / |value(best)|          (0 when the played move is the best)
 *
 * and sorted by thresholds on that loss, multiplied by the strategy's scale (below):
 *
 *     best        loss = 0 (the played move is the best one, or ties with it)
 *     good        loss < 0.5 %
 *     inaccuracy  loss < 3 %
 *     mistake     loss < 10 %
 *     blunder     loss ≥ 10 %          (a move into a lost position has loss 100 %)
 *
 * The thresholds were set on expectimax with the reference's evaluation weights from the losses of every
 * non-best legal move in positions of a real game (`npx tsx bench/grade-spread.ts expectimax`: every 15th
 * position of a seeded expectimax game to 2048, 175 moves): median 0.41 %, 75th percentile 3.3 %, 90th
 * 9.6 %, 95th 15.6 % — so about one non-best move in ten is a blunder. Expectimax plays with those weights
 * (scale 1). With `--weights shallow` (src/engine/board.ts SHALLOW_WEIGHTS: a larger constant and a gentler
 * monotonicity penalty) the same script gave median 0.10 %, 75th 0.64 %, 90th 1.10 %, 95th 1.29 %: grading
 * with those would need a scale of 0.12. Greedy's losses have the reference's spread (scale 1); Monte-Carlo's
 * values are noisy playout averages (90th percentile 32 %: scale 3) and minimax's are worst-case
 * heuristics (90th percentile 71 %: scale 8). Random and
 * priority do not evaluate positions (their "values" are a pick and a fixed order): their moves are not
 * graded — the coach still shows their suggestion.
 *
 * Values from the learned network spread wider: a move's value is its score plus the network's estimate of
 * all the score still to come, and a move that breaks the board's order loses a good part of that. The same
 * script with the network the extension ships (`npx tsx bench/grade-spread.ts --strategy expectimax --network
 * models/4x6.ntn`, every 15th position of the seeded game to 2048; the two-stage network of 2026-12-08, 512 228
 * episodes, 222 non-best moves): expectimax median 0.33 %, 75th 18 %, 90th 31 %, 95th 39 % (scale 3); the
 * network strategy (one look ahead) median 1.7 %, 75th 47 %, 90th 74 %, 95th 79 % (scale 8) — as the earlier
 * networks' (90th 31 % and 73 % at 417 340 episodes, 32 % and 78 % with one stage), so the scales stay. A choice says what valued it (`evaluation`), and grades use its scale;
 * the network strategy without a network plays greedy's one look ahead on the heuristic (scale 1).
 *
 * Accuracy of one move = 100 × (1 − min(1, loss / blunder threshold)): 100 for the best move, 0 for a
 * blunder; the accuracy of a game is the mean over its graded moves.
 *
 * By the chance (gradeChoice, whenever the search's answer carries the chance meter's estimate: a 4x4 board
 * with the learned network loaded): a move's loss is the chance of the next milestone it gives up against the
 * best chance among the legal moves, in points (src/engine/chance.ts), graded by CHANCE_THRESHOLDS. The move
 * the search suggested is always graded best (the search looks deeper than the one look the meter takes).
 * Moves that change nothing in the opening lose well under a point of the chance of 2048 and stay best or
 * good; a move that walls in the corner tile late in a game costs tens of points.
 */
import { DIRECTIONS } from '../engine/types';
import type { Direction, Evaluation, MoveChoice, MoveValues, StrategyName } from '../engine/types';
import { NO_CHANCE, encodeChance } from './chances';

export const GRADES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const;
export type Grade = (typeof GRADES)[number];

/** Upper bounds of the relative loss for good, inaccuracy and mistake (scale 1: expectimax with the reference's weights). */
export const GRADE_THRESHOLDS = { good: 0.005, inaccuracy: 0.03, mistake: 0.1 } as const;

/** Upper bounds of the chance lost (0–1: points / 100) for good, inaccuracy and mistake; a blunder loses more. */
export const CHANCE_THRESHOLDS = { good: 0.01, inaccuracy: 0.04, mistake: 0.1 } as const;

/** How far each strategy's relative losses spread compared with the thresholds' scale; absent = not graded. */
export const GRADE_SCALE: Partial<Record<StrategyName, number>> = { expectimax: 1, network: 1, greedy: 1, montecarlo: 3, minimax: 8 };
/** The same for values the learned network gave (a choice's `evaluation` says so). */
export const NETWORK_GRADE_SCALE: Partial<Record<StrategyName, number>> = { expectimax: 3, network: 8 };

function gradeScale(strategy: StrategyName, evaluation: Evaluation | undefined): number | undefined {
  return evaluation === 'network' ? NETWORK_GRADE_SCALE[strategy] : GRADE_SCALE[strategy];
}

/** Values closer than this (relative) are a tie: the played move then counts as the best. */
const TIE = 1e-9;

export function isGradable(strategy: StrategyName): boolean {
  return GRADE_SCALE[strategy] !== undefined;
}

export interface MoveGrade {
  readonly grade: Grade;
  /** The move played. */
  readonly move: Direction;
  /** The best move of the search (the played one when it ties with the best). */
  readonly best: Direction;
  /** Relative loss of value against the best move, ≥ 0 (1 = everything lost). */
  readonly loss: number;
  /** 0–100. */
  readonly accuracy: number;
  /** Graded by the chance meter: the milestone and the chance of it the move gave up (0–1). */
  readonly chance?: { readonly target: number; readonly lost: number };
}

/** The best move of a search's values and its value (null when no move has a finite value). */
export function bestOf(values: MoveValues): { move: Direction; value: number } | null {
  let best: { move: Direction; value: number } | null = null;
  // In direction order, as the engine picks its move (a tie goes to the first), whatever order the values
  // were merged in.
  for (const move of DIRECTIONS) {
    const value = values[move];
    if (value === undefined || !Number.isFinite(value)) continue;
    if (!best || value > best.value) best = { move, value };
  }
  return best;
}

/** Relative loss of `value` against `bestValue` (0 for a tie or better). */
export function relativeLoss(bestValue: number, value: number): number {
  const gap = bestValue - value;
  const scale = Math.abs(bestValue);
  if (gap <= TIE * Math.max(1, scale)) return 0;
  if (scale === 0) return 1;
  return gap / scale;
}

/** The grade of a relative loss for a strategy's scale. */
export function gradeOfLoss(loss: number, scale = 1): Grade {
  if (loss <= 0) return 'best';
  if (loss < GRADE_THRESHOLDS.good * scale) return 'good';
  if (loss < GRADE_THRESHOLDS.inaccuracy * scale) return 'inaccuracy';
  if (loss < GRADE_THRESHOLDS.mistake * scale) return 'mistake';
  return 'blunder';
}

function accuracyOfLoss(loss: number, scale = 1): number {
  return 100 * (1 - Math.min(1, loss / (GRADE_THRESHOLDS.mistake * scale)));
}

/**
 * Grade `move` played in a position whose search gave `values` (valued by `evaluation`: the learned network
 * or the heuristic). Null when it cannot be graded: the strategy does not evaluate positions, or the search
 * has no value for the move played (the move was illegal there, i.e. the board the search saw is not the one
 * the person moved from).
 */
export function gradeMove(strategy: StrategyName, values: MoveValues, move: Direction, evaluation?: Evaluation): MoveGrade | null {
  const scale = gradeScale(strategy, evaluation);
  if (scale === undefined) return null;
  const played = values[move];
  if (played === undefined || !Number.isFinite(played)) return null;
  const top = bestOf(values);
  if (!top) return null;
  const loss = relativeLoss(top.value, played);
  return {
    grade: gradeOfLoss(loss, scale),
    move,
    best: loss === 0 ? move : top.move,
    loss,
    accuracy: accuracyOfLoss(loss, scale),
  };
}

function gradeOfChanceLost(lost: number): Grade {
  if (lost <= 0) return 'best';
  if (lost < CHANCE_THRESHOLDS.good) return 'good';
  if (lost < CHANCE_THRESHOLDS.inaccuracy) return 'inaccuracy';
  if (lost < CHANCE_THRESHOLDS.mistake) return 'mistake';
  return 'blunder';
}

/**
 * Grade `move` against a search's answer: by the chance it lost where the answer carries the chance meter's
 * estimate (the suggested move always best), else by value (gradeMove). Null when it cannot be graded.
 */
export function gradeChoice(choice: MoveChoice, move: Direction): MoveGrade | null {
  const byValue = gradeMove(choice.strategy, choice.values, move, choice.evaluation);
  const chances = choice.chance?.moves;
  const played = chances?.[move];
  if (!byValue || !choice.chance || !chances || played === undefined) return byValue;
  const target = choice.chance.next.target;
  if (move === choice.move) return { grade: 'best', move, best: move, loss: 0, accuracy: 100, chance: { target, lost: 0 } };
  let top = played;
  let topMove: Direction = move;
  for (const d of DIRECTIONS) {
    const p = chances[d];
    if (p !== undefined && p > top) {
      top = p;
      topMove = d;
    }
  }
  const lost = Math.max(0, top - played);
  const grade = gradeOfChanceLost(lost);
  const best = grade === 'best' ? move : lost > 0 && choice.move !== null ? choice.move : topMove;
  return { grade, move, best, loss: byValue.loss, accuracy: 100 * (1 - Math.min(1, lost / CHANCE_THRESHOLDS.mistake)), chance: { target, lost } };
}

export type GradeCounts = Record<Grade, number>;

function emptyCounts(): GradeCounts {
  return { best: 0, good: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
}

/** One letter per grade, for the per-move marks a game record keeps (`-` = a move seen but not graded). */
export const GRADE_MARK: Readonly<Record<Grade, string>> = { best: '!', good: 'g', inaccuracy: '?', mistake: 'm', blunder: 'X' };
const UNGRADED_MARK = '-';

/** One letter per direction, for the better move a game record keeps per graded move (`-` = none). */
export const MOVE_LETTER: Readonly<Record<Direction, string>> = { up: 'u', down: 'd', left: 'l', right: 'r' };
const NO_BETTER = '-';

/**
 * A game's grades as they come: counts, running accuracy, and per move seen a mark and the better move.
 * The i-th move seen has the i-th mark, whatever the order its grade arrives in: a move played before its
 * search ended takes its slot at once (`reserve`) and is graded into it later (`settle`).
 */
export class GradeTally {
  private accuracySum = 0;
  private graded = 0;
  private readonly counts = emptyCounts();
  private readonly marks: string[] = [];
  private readonly better: string[] = [];
  private readonly chances: string[] = [];

  add(grade: MoveGrade): void {
    this.settle(this.reserve(), grade);
  }

  /** A move the person played that could not be graded (played before its search ended, a tie of boards). */
  skip(): void {
    this.reserve();
  }

  /** A move seen whose grade comes later: its slot (ungraded until `settle`). */
  reserve(): number {
    this.marks.push(UNGRADED_MARK);
    this.better.push(NO_BETTER);
    this.chances.push(NO_CHANCE);
    return this.marks.length - 1;
  }

  /** The chance meter's chance of the next milestone at the position the move in `slot` was played from. */
  chance(slot: number, p: number): void {
    if (slot >= 0 && slot < this.chances.length) this.chances[slot] = encodeChance(p);
  }

  /** The grade of the move in `slot` (reserved and not graded yet); null leaves it ungraded. */
  settle(slot: number, grade: MoveGrade | null): void {
    if (!grade || this.marks[slot] !== UNGRADED_MARK) return;
    this.graded += 1;
    this.accuracySum += grade.accuracy;
    this.counts[grade.grade] += 1;
    this.marks[slot] = GRADE_MARK[grade.grade];
    this.better[slot] = grade.grade === 'best' ? NO_BETTER : MOVE_LETTER[grade.best];
  }

  get gradedMoves(): number {
    return this.graded;
  }

  get movesSeen(): number {
    return this.marks.length;
  }

  /** Mean accuracy of the graded moves (null before the first graded move). */
  get accuracy(): number | null {
    return this.graded === 0 ? null : this.accuracySum / this.graded;
  }

  summary(): { graded: number; accuracy: number | null; counts: GradeCounts; marks: string; better: string; chances?: string } {
    const chances = this.chances.join('');
    const kept = [...chances].some((c) => c !== NO_CHANCE);
    return { graded: this.graded, accuracy: this.accuracy, counts: { ...this.counts }, marks: this.marks.join(''), better: this.better.join(''), ...(kept ? { chances } : {}) };
  }
}
