/**
 * The reference expectimax positions (tests/fixtures/reference/expectimax-positions.tsv) as the split tests use
 * them: the cheapest few, each searched to the depth the reference used, and a choice held to its values and
 * move executions.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { DIRECTIONS } from '../../src/engine/index';
import type { Grid, MoveChoice } from '../../src/engine/index';
import { parsePositionsTsv } from '../../src/cli/positions';
import type { ReferencePosition } from '../../src/cli/positions';

const FILE = new URL('../fixtures/reference/expectimax-positions.tsv', import.meta.url);

/** The `count` positions whose reference search made the fewest move executions. */
export function cheapPositions(count: number): ReferencePosition[] {
  const positions = parsePositionsTsv(readFileSync(FILE, 'utf8'));
  const cost = (p: ReferencePosition): number => Object.values(p.executions).reduce((a, b) => a + b, 0);
  return [...positions].sort((a, b) => cost(a) - cost(b)).slice(0, count);
}

/** The depth limit the reference configuration gives a board (the native peer's rule). */
export function limitOf(grid: Grid): number {
  return Math.max(3, new Set(grid.cells.filter((v) => v !== 0)).size - 2);
}

/** A choice has the reference's value for every legal move (within float32 rounding) and its move executions in all. */
export function expectReferenceValues(choice: MoveChoice, p: ReferencePosition): void {
  let executions = 0;
  for (const d of DIRECTIONS) {
    if (p.values[d] === 0) expect(choice.values[d]).toBeUndefined();
    else expect(Math.abs((choice.values[d] as number) - p.values[d]) / p.values[d]).toBeLessThan(1e-6);
    executions += p.executions[d] ?? 0;
  }
  expect(choice.nodes).toBe(executions);
}
