import { describe, expect, it } from 'vitest';
import { reachShares, summarize, summarizeBench } from '../../../src/cli/stats';
import { lowerMedian, median, quantile } from '../../../src/shared/statistics';
import type { GameResult } from '../../../src/cli/stats';

describe('median and summarize', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('lowerMedian picks an element of the input', () => {
    expect(lowerMedian([512, 256])).toBe(256);
    expect(lowerMedian([5, 1, 3])).toBe(3);
    expect(lowerMedian([])).toBeNaN();
  });

  it('summarizes min, median, mean and max without reordering the input', () => {
    const values = [10, 2, 6, 2];
    expect(summarize(values)).toEqual({ min: 2, median: 4, mean: 5, max: 10 });
    expect(values).toEqual([10, 2, 6, 2]);
  });
});

describe('reachShares', () => {
  it('counts a game as reaching every tile up to its best tile', () => {
    const shares = reachShares([256, 512, 2048, 128], [256, 512, 1024, 2048, 4096]);
    expect(shares).toEqual({ '256': 0.75, '512': 0.5, '1024': 0.25, '2048': 0.25, '4096': 0 });
  });

  it('reports 256..32768 by default', () => {
    expect(Object.keys(reachShares([4096]))).toEqual(['256', '512', '1024', '2048', '4096', '8192', '16384', '32768']);
  });
});

describe('summarizeBench', () => {
  const game = (index: number, score: number, maxTile: number, moves: number, thinkMs: number, end: GameResult['end'] = 'game-over'): GameResult => ({
    index,
    seed: index,
    score,
    maxTile,
    moves,
    thinkMs,
    end,
  });

  it('summarizes games into the JSON shape of the bench', () => {
    const summary = summarizeBench('greedy', 9, [game(0, 1000, 128, 100, 50), game(1, 3000, 512, 300, 150), game(2, 2000, 256, 200, 100, 'stuck')]);
    expect(summary).toMatchObject({
      strategy: 'greedy',
      games: 3,
      seed: 9,
      score: { min: 1000, median: 2000, mean: 2000, max: 3000 },
      maxTile: { median: 256, max: 512 },
      moves: 200,
      movesPerGame: { min: 100, median: 200, mean: 200, max: 300 },
      msPerMove: 0.5,
      stuck: 1,
    });
    expect(summary.reach['256']).toBeCloseTo(2 / 3);
    expect(summary.reach['512']).toBeCloseTo(1 / 3);
    expect(summary.reach['2048']).toBe(0);
  });

  it('reports a best-tile median that is a tile for an even number of games', () => {
    const summary = summarizeBench('random', 1, [game(0, 10, 256, 1, 1), game(1, 20, 512, 1, 1)]);
    expect(summary.maxTile).toEqual({ median: 256, max: 512 });
  });
});

describe('think time and depth statistics', () => {
  it('summarizes a long bench (300 000 moves: more values than a spread call takes) without overflowing', () => {
    const moveMs = Array.from({ length: 300_000 }, (_, i) => (i % 1000) / 10);
    moveMs[123_456] = 250;
    const games: GameResult[] = [0, 1].map((index) => ({ index, seed: index, score: 1, maxTile: 16384 * (index + 1), moves: 150_000, thinkMs: 1, end: 'target', moveMs: moveMs.slice(index * 150_000, (index + 1) * 150_000) }));
    const summary = summarizeBench('expectimax', 1, games);
    expect(summary.thinkMs.max).toBe(250);
    expect(summary.maxTile.max).toBe(32768);
  });

  it('reports mean, p50, p99 and max think time, and the depth spread', () => {
    const moveMs = Array.from({ length: 100 }, (_, i) => i + 1);
    const result: GameResult = { index: 0, seed: 1, score: 0, maxTile: 4, moves: 100, thinkMs: 5050, end: 'game-over', moveMs, depthCounts: [0, 0, 50, 50] };
    const summary = summarizeBench('expectimax', 1, [result]);
    expect(summary.thinkMs).toEqual({ mean: 50.5, p50: 50, p99: 99, max: 100 });
    expect(summary.depth).toEqual({ mean: 2.5, counts: [0, 0, 50, 50] });
    expect(quantile([], 0.5)).toBeNaN();
  });
});
