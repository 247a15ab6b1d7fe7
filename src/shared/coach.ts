/**
 * What coach mode reports (src/content/coach.ts): the live coach status carried in the RunStatus, and the
 * per-game summary kept in the game record. Schemas here, imported by the protocol (messages.ts); the
 * popup and the side panel read both.
 */
import { z } from 'zod';
import { DIRECTIONS } from '../engine/types';
import { GRADES } from '../coach/grade';
import { CHANCES_PATTERN } from '../coach/chances';

const Direction = z.enum(DIRECTIONS);
const GradeSchema = z.enum(GRADES);
/** A count of moves (the bound of a game record's moves: ./messages.ts RECORD_LIMITS). */
const count = z.number().int().min(0).max(10_000_000);

const GradeCountsSchema = z.object({
  best: count,
  good: count,
  inaccuracy: count,
  mistake: count,
  blunder: count,
});

/** The grade of the person's last graded move, with the move the search preferred. */
const LastGradeSchema = z.object({
  grade: GradeSchema,
  move: Direction,
  best: Direction,
  /** Relative loss of value against the best move (0–1). */
  loss: z.number().min(0),
  accuracy: z.number().min(0).max(100),
  /** Graded by the chance meter: the milestone and the chance of it the move gave up (0–1). */
  chance: z.object({ target: z.number().int().min(4).max(131_072), lost: z.number().min(0).max(1) }).optional(),
});

/** The coach status's `note` when the strategy does not evaluate positions: it suggests moves, grades none. */
export const NO_GRADES_NOTE = 'no-grades';

export const CoachStatusSchema = z.object({
  /** Coach mode is on in this tab. */
  active: z.boolean(),
  /** The suggested move for the board the page shows now (null while evaluating, or no move left). */
  suggestion: Direction.nullable(),
  /** Moves graded in this game, and their mean accuracy (null before the first). */
  graded: count,
  accuracy: z.number().min(0).max(100).nullable(),
  counts: GradeCountsSchema,
  last: LastGradeSchema.optional(),
  /** Board changes that were not one move (undo, new game, edits): evaluated again, never graded. */
  resyncs: count,
  /** Why moves are not graded, when they are not: NO_GRADES_NOTE (the pages say it in their language). */
  note: z.literal(NO_GRADES_NOTE).optional(),
});
export type CoachStatus = z.infer<typeof CoachStatusSchema>;

/** Kept in the game record of a game the person played with the coach on. */
export const CoachSummarySchema = z.object({
  graded: count,
  accuracy: z.number().min(0).max(100).nullable(),
  counts: GradeCountsSchema,
  /**
   * One character per move the person played, in order: ! best, g good, ? inaccuracy, m mistake,
   * X blunder, - not graded (played before its evaluation ended). For the replay's marks.
   */
  marks: z.string().regex(/^[!g?mX-]*$/).max(100_000),
  /**
   * The search's better move per move, aligned with `marks`: u d l r for a graded move that was not the
   * best, - otherwise. Absent in records of older versions.
   */
  better: z.string().regex(/^[udlr-]*$/).max(100_000).optional(),
  /**
   * The chance meter's chance of the next milestone at the position each move was played from, aligned
   * with `marks` (src/coach/chances.ts). Absent in records of older versions and games without a network.
   */
  chances: z.string().regex(CHANCES_PATTERN).max(100_000).optional(),
  resyncs: count,
});
export type CoachSummary = z.infer<typeof CoachSummarySchema>;
