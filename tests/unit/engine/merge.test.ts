import { describe, expect, it } from 'vitest';
import { createRng, getStrategy, mergeChoices, newGame } from '../../../src/engine/index';
import type { MoveChoice } from '../../../src/engine/index';

const part = (fields: Partial<MoveChoice>): MoveChoice => ({
  strategy: 'expectimax',
  move: null,
  values: {},
  depth: 3,
  nodes: 10,
  ms: 5,
  ...fields,
});

describe('mergeChoices', () => {
  it('joins a search split by root moves: values, best move, nodes summed, slowest ms, shallowest depth', () => {
    const merged = mergeChoices([
      part({ values: { up: 5, down: 7 }, move: 'down', nodes: 100, ms: 20, depth: 4 }),
      part({ values: { left: 9 }, move: 'left', nodes: 50, ms: 30, depth: 3 }),
      part({ values: {}, nodes: 0, ms: 1, depth: 0 }),
    ]);
    expect(merged.values).toEqual({ up: 5, down: 7, left: 9 });
    expect(merged.move).toBe('left');
    expect(merged.nodes).toBe(150);
    expect(merged.ms).toBe(30);
    expect(merged.depth).toBe(3);
  });

  it('weights Monte-Carlo means by samples and adds the samples of a move', () => {
    const merged = mergeChoices([
      part({ strategy: 'montecarlo', values: { up: 100, left: 10 }, samples: 30 }),
      part({ strategy: 'montecarlo', values: { up: 200, left: 400 }, samples: 10 }),
    ]);
    expect(merged.values.up).toBeCloseTo(125);
    expect(merged.values.left).toBeCloseTo(107.5);
    expect(merged.samples).toBe(40);
    expect(merged.move).toBe('up');
  });

  it('gives the same answer as the unsplit reference search', async () => {
    const grid = newGame(createRng(3));
    const expectimax = getStrategy('expectimax');
    const whole = await expectimax.chooseMove(grid, { reference: true });
    const parts = await Promise.all(
      (['up', 'down', 'left', 'right'] as const).map((d) => expectimax.chooseMove(grid, { reference: true, rootMoves: [d] })),
    );
    const merged = mergeChoices(parts);
    expect(merged.values).toEqual(whole.values);
    expect(merged.move).toBe(whole.move);
    expect(merged.nodes).toBe(whole.nodes);
  });

  it('merges valuesByDepth level by level and ties break up, down, left, right', () => {
    const merged = mergeChoices([
      part({ values: { right: 1 }, valuesByDepth: [{}, { right: 1 }] }),
      part({ values: { down: 1 }, valuesByDepth: [{}, { down: 0.5 }] }),
    ]);
    expect(merged.move).toBe('down');
    expect(merged.valuesByDepth).toEqual([{}, { right: 1, down: 0.5 }]);
  });

  it('says which engine searched: wasm only when every part did, ts when one did not, nothing when none said', () => {
    expect(mergeChoices([part({ engine: 'wasm' }), part({ engine: 'wasm' })]).engine).toBe('wasm');
    expect(mergeChoices([part({ engine: 'wasm' }), part({ engine: 'ts' })]).engine).toBe('ts');
    expect(mergeChoices([part({ engine: 'wasm' }), part({})]).engine).toBe('ts');
    expect('engine' in mergeChoices([part({}), part({})])).toBe(false);
  });

  it('says the network valued the positions only when every part did; the heuristic when one did not; nothing when none said', () => {
    expect(mergeChoices([part({ evaluation: 'network' }), part({ evaluation: 'network' })]).evaluation).toBe('network');
    expect(mergeChoices([part({ evaluation: 'network' }), part({ evaluation: 'heuristic' })]).evaluation).toBe('heuristic');
    expect(mergeChoices([part({ evaluation: 'network' }), part({})]).evaluation).toBe('heuristic');
    expect('evaluation' in mergeChoices([part({}), part({})])).toBe(false);
  });

  it('says extended when a part took extra time from the bank, nothing otherwise', () => {
    expect(mergeChoices([part({ extended: true }), part({})]).extended).toBe(true);
    expect('extended' in mergeChoices([part({}), part({})])).toBe(false);
  });

  it('rejects nothing to merge and mixed strategies', () => {
    expect(() => mergeChoices([])).toThrow(RangeError);
    expect(() => mergeChoices([part({}), part({ strategy: 'greedy' })])).toThrow(RangeError);
  });
});
