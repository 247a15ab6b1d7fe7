import { describe, expect, it } from 'vitest';
import { applyMove, createRng, getStrategy, maxTile, newGame, spawnRandomTile } from '../../../src/engine/index';
import { midGame } from '../../support/boards';

/** The network strategy where no network is installed (this file installs none): the first moves while it loads. */
describe('the network strategy without a network', () => {
  const network = getStrategy('network');
  const expectimax = getStrategy('expectimax');

  it('plays the heuristic expectimax at depth 2 and says the heuristic valued it', async () => {
    for (const [rows, cols, seed] of [[4, 4, 1], [4, 4, 2], [3, 3, 5], [5, 5, 7]] as const) {
      const grid = midGame(rows, cols, seed, 12);
      const choice = await network.chooseMove(grid, {});
      const searched = await expectimax.chooseMove(grid, { depth: 2 });
      expect(choice).toMatchObject({ strategy: 'network', evaluation: 'heuristic', depth: 2, move: searched.move });
      expect(choice.values).toEqual(searched.values);
    }
  });

  it('keeps a game alive well past the 256 from the start (one look ahead lost there)', async () => {
    const rng = createRng(11);
    let grid = newGame(rng, 4, 4);
    for (let moves = 0; moves < 3_000 && maxTile(grid) < 512; moves++) {
      const { move } = await network.chooseMove(grid, {});
      if (move === null) break;
      grid = spawnRandomTile(applyMove(grid, move).grid, rng);
    }
    expect(maxTile(grid)).toBeGreaterThanOrEqual(512);
  });
});
