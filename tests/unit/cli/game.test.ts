import { describe, expect, it } from 'vitest';
import { legalMoves, maxTile } from '../../../src/engine/index';
import type { Grid, MoveChoice, SearchOptions } from '../../../src/engine/index';
import { playGame } from '../../../src/cli/game';
import type { GameState } from '../../../src/cli/game';

describe('playGame', () => {
  it('plays a game to its end, the same for the same seed', async () => {
    const settings = { strategy: 'random' as const, options: {} };
    const a = await playGame(0, 123, settings);
    const b = await playGame(5, 123, settings);
    expect(a.end).toBe('game-over');
    expect(a.moves).toBeGreaterThan(0);
    expect(a.maxTile).toBe(maxTile(a.grid));
    expect({ ...b, index: 0, thinkMs: 0, moveMs: [] }).toEqual({ ...a, thinkMs: 0, moveMs: [] });
    expect(a.moveMs).toHaveLength(a.moves);
    expect(a.depthCounts?.reduce((s, n) => s + n, 0)).toBe(a.moves);
    expect(b.index).toBe(5);
  });

  it('reports every state, moves counted from 0, scores never decreasing', async () => {
    const states: GameState[] = [];
    const game = await playGame(0, 9, { strategy: 'priority', options: {}, rows: 3, cols: 3 }, { onState: (s) => states.push(s) });
    expect(states[0].moves).toBe(0);
    expect(states[0].grid.cells.filter((v) => v !== 0)).toHaveLength(2);
    expect(states.map((s) => s.moves)).toEqual(states.map((_, i) => i));
    for (let i = 1; i < states.length; i++) expect(states[i].score).toBeGreaterThanOrEqual(states[i - 1].score);
    expect(states[states.length - 1].score).toBe(game.score);
    expect(game.grid).toMatchObject({ rows: 3, cols: 3 });
  });

  it('starts from settings.start when given: the board as it is, the score from 0, spawns from the seed', async () => {
    const start = { rows: 4, cols: 4, cells: [1024, 512, 256, 128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2] };
    const states: GameState[] = [];
    const settings = { strategy: 'priority' as const, options: {}, start, target: 2048 };
    const game = await playGame(0, 3, settings, { onState: (s) => states.push(s) });
    expect(states[0].grid).toEqual(start);
    expect(states[0].score).toBe(0);
    expect(game.moves).toBeGreaterThan(0);
    expect(game.maxTile).toBeGreaterThanOrEqual(1024);
    const again = await playGame(0, 3, settings);
    expect(again.grid).toEqual(game.grid);
    expect((await playGame(0, 4, settings)).grid).not.toEqual(game.grid);
  });

  it('stops when the best tile reaches the target', async () => {
    const game = await playGame(0, 1, { strategy: 'priority', options: {}, target: 32 });
    expect(game.end).toBe('target');
    expect(game.maxTile).toBe(32);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const game = await playGame(0, 1, { strategy: 'random', options: {} }, {
      signal: controller.signal,
      onState: (s) => {
        if (s.moves === 10) controller.abort();
      },
    });
    expect(game.end).toBe('stopped');
    expect(game.moves).toBe(10);
  });

  it('with a time bank, offers a search factor − 1 budgets once earlier moves have left that much, and counts the moves that took it', async () => {
    const offered: (number | undefined)[] = [];
    const choose = (grid: Grid, options: SearchOptions): Promise<MoveChoice> => {
      offered.push(options.extraMs);
      const move = legalMoves(grid)[0];
      // Instant: each move leaves its whole budget; every third one says it took extra time.
      return Promise.resolve({ strategy: 'expectimax', move, values: { [move]: 1 }, depth: 3, nodes: 1, ms: 0, ...(offered.length % 3 === 0 ? { extended: true } : {}) });
    };
    // Budgets of 500 ms: the moves' measured time (a few µs, more on a loaded machine) is no part of the rule.
    const game = await playGame(0, 1, { strategy: 'expectimax', options: { timeMs: 500 }, target: 64, bank: 3 }, { choose });
    // Nothing before 1 000 ms are banked: two instant moves leave a little less (they take a few µs).
    expect(offered.length).toBe(game.moves);
    expect(game.moves).toBeGreaterThan(10);
    expect(offered.slice(0, 2)).toEqual([undefined, undefined]);
    expect(offered[2] ?? 1_000).toBe(1_000);
    for (const extra of offered.slice(3)) expect(extra).toBe(1_000);
    expect(game.extendedMoves).toBe(Math.floor(game.moves / 3));
    const without = await playGame(0, 1, { strategy: 'expectimax', options: { timeMs: 500 }, target: 64 }, { choose: (grid, options) => {
      expect(options.extraMs).toBeUndefined();
      return choose(grid, options);
    } });
    expect(without.extendedMoves).toBeUndefined();
  });
});
