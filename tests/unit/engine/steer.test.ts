/**
 * Steering the root choice toward the endgame tables' formations (issue 15 item 3): which boards hold a
 * formation (any orientation), and that a move keeping it replaces the search's best only within the margin.
 */
import { describe, expect, it } from 'vitest';
import type { Grid, MoveChoice } from '../../../src/engine/index';
import { formationsHeld, holdsFormation, steerChoice, STEER_FORMATIONS } from '../../../src/engine/tables/steer';

const grid = (cells: number[]): Grid => ({ rows: 4, cols: 4, cells });
const choice = (values: MoveChoice['values'], move: MoveChoice['move']): MoveChoice => ({ strategy: 'expectimax', move, values, depth: 3, nodes: 1, ms: 1 });

// rows8 along the top edge: the 8 biggest tiles fill rows 0 and 1.
const ROWS8 = [4096, 2048, 1024, 512, 32, 64, 128, 256, 16, 8, 0, 0, 2, 0, 0, 0];

describe('formations held', () => {
  it('finds rows8 and block6 in every orientation, and not when tiles tie or stray', () => {
    expect(formationsHeld(ROWS8)).toEqual(['rows8']);
    const transposed = [0, 1, 2, 3].flatMap((r) => [0, 1, 2, 3].map((c) => ROWS8[c * 4 + r]!));
    expect(holdsFormation(transposed, STEER_FORMATIONS.rows8)).toBe(true);
    const bottom = [...ROWS8.slice(12), ...ROWS8.slice(8, 12), ...ROWS8.slice(4, 8), ...ROWS8.slice(0, 4)];
    expect(holdsFormation(bottom, STEER_FORMATIONS.rows8)).toBe(true);
    const block = [4096, 2048, 1024, 8, 128, 256, 512, 0, 16, 2, 0, 0, 4, 0, 0, 0];
    expect(formationsHeld(block)).toEqual(['block6']);
    const tie = [...ROWS8];
    tie[8] = 32; // a 32 below the rows ties with the smallest of the eight
    expect(holdsFormation(tie, STEER_FORMATIONS.rows8)).toBe(false);
    const stray = [...ROWS8];
    [stray[4], stray[8]] = [stray[8]!, stray[4]!]; // the 32 out of the rows, a 16 in
    expect(holdsFormation(stray, STEER_FORMATIONS.rows8)).toBe(false);
  });
});

describe('steerChoice', () => {
  it('keeps the formation when a keeping move is within the margin, else leaves the choice', () => {
    // "down" moves the big rows (breaks rows8); "right" moves only the small tiles below them.
    const searched = choice({ down: 1000, right: 990 }, 'down');
    const steered = steerChoice(grid(ROWS8), searched, 0.02);
    expect(steered.move).toBe('right');
    expect(steered.steered).toBe(true);
    expect(steerChoice(grid(ROWS8), searched, 0.005)).toBe(searched);
    expect(steerChoice(grid(ROWS8), searched, 0)).toBe(searched);
  });

  it('leaves a choice that keeps the formation, and boards without one', () => {
    const keeping = choice({ down: 990, right: 1000 }, 'right');
    expect(steerChoice(grid(ROWS8), keeping, 0.5)).toBe(keeping);
    const loose = grid([2, 0, 0, 4, 0, 8, 0, 0, 0, 0, 16, 0, 2, 0, 0, 0]);
    const searched = choice({ down: 1000, left: 999 }, 'down');
    expect(steerChoice(loose, searched, 0.5)).toBe(searched);
  });
});
