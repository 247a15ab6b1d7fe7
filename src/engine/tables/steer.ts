/**
 * Steering toward the endgame tables' formations (issue 15 item 3), at the root of the search: when the
 * board holds a formation a table serves (`rows8`: the 8 biggest tiles filling the two rows along an edge;
 * `block6`: the 6 biggest in a 3x2 corner block), prefer a move that keeps it, as long as the search values
 * that move within `margin` (a share) of its best. The search itself is unchanged (the reference
 * configuration stays exact: callers never steer a reference search); only the choice among its root
 * moves is. Pure; 4x4 only.
 */
import { applyMove } from '../grid';
import type { Direction, Grid, MoveChoice } from '../types';

/** The 8 symmetries of a 4x4 board as index maps: the canonical cell i is the real cell map[i]. */
const SYMMETRIES: readonly (readonly number[])[] = Array.from({ length: 8 }, (_, t) => {
  const map: number[] = [];
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      let rr = r;
      let cc = c;
      if (t & 4) [rr, cc] = [cc, rr];
      if (t & 1) cc = 3 - cc;
      if (t & 2) rr = 3 - rr;
      map.push(rr * 4 + cc);
    }
  }
  return map;
});

/** Canonical cell sets of the steered formations (the same shapes as formation.ts's fixed cells). */
export const STEER_FORMATIONS = {
  rows8: [0, 1, 2, 3, 4, 5, 6, 7],
  block6: [0, 1, 2, 4, 5, 6],
} as const;
export type SteerFormation = keyof typeof STEER_FORMATIONS;

/** Does some orientation put the k biggest tiles (distinct, and bigger than every other) on `set`? */
export function holdsFormation(cells: readonly number[], set: readonly number[]): boolean {
  const sorted = cells.filter((v) => v > 0).sort((a, b) => b - a);
  const k = set.length;
  if (sorted.length < k) return false;
  for (let i = 1; i < k; i++) if (sorted[i] === sorted[i - 1]) return false;
  if (sorted.length > k && sorted[k] === sorted[k - 1]) return false;
  const min = sorted[k - 1]!;
  return SYMMETRIES.some((map) => set.every((cell) => cells[map[cell]!]! >= min));
}

/** The formations `cells` holds now. */
export function formationsHeld(cells: readonly number[]): SteerFormation[] {
  return (Object.keys(STEER_FORMATIONS) as SteerFormation[]).filter((name) => holdsFormation(cells, STEER_FORMATIONS[name]));
}

/**
 * The search's choice, or a move that keeps the formation the board holds when the search values it within
 * `margin` of its best (margin 0: never steer). `steered` in the result says so.
 */
export function steerChoice(grid: Grid, choice: MoveChoice, margin: number): MoveChoice & { steered?: boolean } {
  if (margin <= 0 || grid.rows !== 4 || grid.cols !== 4 || choice.move === null) return choice;
  const held = formationsHeld(grid.cells);
  if (held.length === 0) return choice;
  const best = choice.values[choice.move];
  if (best === undefined || !(best > 0)) return choice;
  const afterKeeps = (move: Direction): boolean => {
    const after = applyMove(grid, move);
    return after.moved && held.some((name) => holdsFormation(after.grid.cells, STEER_FORMATIONS[name]));
  };
  if (afterKeeps(choice.move)) return choice;
  let pick: Direction | null = null;
  let pickValue = -Infinity;
  for (const [move, value] of Object.entries(choice.values) as [Direction, number][]) {
    if (value > pickValue && value >= best * (1 - margin) && afterKeeps(move)) {
      pick = move;
      pickValue = value;
    }
  }
  return pick ? { ...choice, move: pick, steered: true } : choice;
}
