/**
 * The reference expectimax reproduces nneonneo/2048-ai's values and move-execution counts exactly
 * (tests/fixtures/reference/expectimax-positions.tsv, copied from shared/reference): our "perft".
 * Eight of the cheapest positions and two mid-priced ones keep this test to a few seconds; the CLI
 * benchmark runs all 200.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIRECTIONS, getStrategy } from '../../../src/engine/index';
import type { Grid } from '../../../src/engine/index';
import { referenceSearch } from '../../../src/engine/strategies/expectimax';
import { parsePositionsTsv } from '../../../src/cli/positions';

interface Position {
  readonly grid: Grid;
  readonly values: number[];
  readonly executions: number[];
  readonly best: string;
}

const file = fileURLToPath(new URL('../../fixtures/reference/expectimax-positions.tsv', import.meta.url));
// One parser for the file: the CLI's strict one (src/cli/positions.ts), here in the order of DIRECTIONS.
const positions: Position[] = parsePositionsTsv(readFileSync(file, 'utf8')).map((p) => ({
  grid: p.board,
  values: DIRECTIONS.map((d) => p.values[d]),
  executions: DIRECTIONS.map((d) => p.executions[d]),
  best: p.best,
}));
const total = (p: Position): number => p.executions.reduce((a, b) => a + b, 0);
const byCost = [...positions].sort((a, b) => total(a) - total(b));
const cheapest = [...byCost.slice(0, 8), byCost[60], byCost[100]];

describe('expectimax reference configuration', () => {
  it('reads the 200 positions of the fixture', () => {
    expect(positions.length).toBe(200);
    expect(positions.reduce((s, p) => s + total(p), 0)).toBe(798_269_488);
  });

  it.each(cheapest.map((p, i) => [i, p] as const))('reproduces position %i exactly', (_i, p) => {
    const got = referenceSearch(p.grid);
    expect(got.executions).toEqual(p.executions);
    for (let d = 0; d < 4; d++) {
      if (p.values[d] === 0) expect(got.values[d]).toBe(0);
      // The file prints 6 decimals; the float32 values agree to a few 1e-9 relative.
      else expect(Math.abs(got.values[d] - p.values[d]) / p.values[d]).toBeLessThan(1e-6);
    }
  });

  it.each(byCost.slice(0, 4).map((p, i) => [i, p] as const))(
    'the general (any size) path reproduces position %i exactly too',
    (_i, p) => {
      const got = referenceSearch(p.grid, 'general');
      expect(got.executions).toEqual(p.executions);
      for (let d = 0; d < 4; d++) {
        if (p.values[d] === 0) expect(got.values[d]).toBe(0);
        else expect(Math.abs(got.values[d] - p.values[d]) / p.values[d]).toBeLessThan(1e-6);
      }
    },
  );

  it('chooseMove with reference: true gives the same values, executions as nodes, and the best move', async () => {
    const p = cheapest[3];
    const choice = await getStrategy('expectimax').chooseMove(p.grid, { reference: true });
    expect(choice.move).toBe(p.best);
    expect(choice.nodes).toBe(total(p));
    (['up', 'down', 'left', 'right'] as const).forEach((d, i) => {
      if (p.values[i] === 0) expect(choice.values[d]).toBeUndefined();
      else expect(Math.abs((choice.values[d] ?? 0) - p.values[i]) / p.values[i]).toBeLessThan(1e-6);
    });
  });

  it('searches only the given root moves, with their reference counts', async () => {
    const p = cheapest[5];
    const choice = await getStrategy('expectimax').chooseMove(p.grid, { reference: true, rootMoves: ['left', 'up'] });
    expect(Object.keys(choice.values).sort()).toEqual(['left', 'up'].filter((d, _k) => p.values[['up', 'down', 'left', 'right'].indexOf(d)] !== 0).sort());
    expect(choice.nodes).toBe(p.executions[0] + p.executions[2]);
  });
});
