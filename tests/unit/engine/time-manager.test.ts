/**
 * Time where it matters: the share of its budget a search with the learned evaluation may stop at — small in
 * calm positions (many empty cells), all of it in cramped ones, small again when one move is clearly best or
 * before the 2048 —
 * and the search ends early on the core in a calm position while spending its budget's share in a cramped one.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { easyShare } from '../../../src/engine/strategies/expectimax/time-manager';
import { getStrategy, installNetwork, installWasmCore, instantiateWasmCore } from '../../../src/engine/index';
import { OUT, fromGrid } from '../../../src/engine/board';
import { quantise } from '../../../src/engine/network/format';
import { weightCount } from '../../../src/engine/network/shapes';
import { WASM_FILE } from '../../../src/cli/wasm-files';
import type { Grid } from '../../../src/engine/index';

const config = {
  calmShares: [
    [8, 0.05],
    [4, 0.3],
  ] as const,
  clearMargin: 0.02,
  clearShare: 0.1,
};

function halves(cells: number[]): [number, number] {
  fromGrid({ rows: 4, cols: 4, cells });
  return [OUT[0], OUT[1]];
}

const calm = [2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 2];
const cramped = [2, 4, 8, 16, 32, 64, 128, 256, 2, 4, 8, 16, 0, 0, 2, 4];

describe('easyShare', () => {
  it('gives calm positions a small share and cramped ones the whole budget', () => {
    const close = { up: 1000, down: 999, left: 998 };
    expect(easyShare(config, ...halves(calm), close)).toBe(0.05);
    expect(easyShare(config, ...halves([2, 4, 8, 16, 32, 0, 0, 0, 0, 0, 0, 0, 2, 4, 8, 16]), close)).toBe(0.3);
    expect(easyShare(config, ...halves(cramped), close)).toBe(1);
  });

  it('gives a clearly best move the clear share, whatever the cells', () => {
    expect(easyShare(config, ...halves(cramped), { up: 1000, down: 900 })).toBe(0.1);
    expect(easyShare(config, ...halves(calm), { up: 1000, down: 900 })).toBe(0.05);
    expect(easyShare(config, ...halves(cramped), { up: 1000 })).toBe(1);
  });

  it('gives the opening (no 2048 yet) at most the opening share, however cramped', () => {
    const opening = { ...config, openingRank: 11, openingShare: 0.1 };
    const close = { up: 1000, down: 999, left: 998 };
    const cramped1024 = [2, 4, 8, 16, 32, 64, 128, 1024, 2, 4, 8, 16, 0, 0, 2, 4];
    const cramped2048 = [2, 4, 8, 16, 32, 64, 128, 2048, 2, 4, 8, 16, 0, 0, 2, 4];
    expect(easyShare(opening, ...halves(cramped1024), close)).toBe(0.1);
    expect(easyShare(opening, ...halves(cramped2048), close)).toBe(1);
    expect(easyShare(opening, ...halves(calm), close)).toBe(0.05);
    // Without the opening in the config the same board keeps its whole budget.
    expect(easyShare(config, ...halves(cramped1024), close)).toBe(1);
  });
});

describe('the search with the network on the core', () => {
  beforeAll(() => {
    installWasmCore(instantiateWasmCore(readFileSync(WASM_FILE)));
    // Any network will do for timing: every weight the same, so every move is worth about the same.
    const q = quantise(new Float32Array(weightCount('4x4')).fill(100));
    installNetwork({ shape: '4x4', encoding: 'i16', scale: q.scale, stages: [0], weights: q.weights, metadata: {} });
  });
  afterAll(() => {
    installNetwork(null);
    installWasmCore(null);
  });

  it('stops early in a calm position, and spends the budget without the easy stops', async () => {
    const expectimax = getStrategy('expectimax');
    const grid: Grid = { rows: 4, cols: 4, cells: calm };
    await expectimax.chooseMove(grid, { timeMs: 20 });
    const easy = await expectimax.chooseMove(grid, { timeMs: 400 });
    const full = await expectimax.chooseMove(grid, { timeMs: 400, easyStops: false });
    expect(easy.evaluation).toBe('network');
    expect(easy.ms).toBeLessThan(0.5 * full.ms);
    expect(full.depth).toBeGreaterThan(easy.depth);
  });
});
