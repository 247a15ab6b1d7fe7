/**
 * The three commands as a user runs them (tsx in a child process: run-cli.ts), doing their work: solve prints
 * every move, play a game, bench --json ends stdout with one JSON object, and its options (threads, starts,
 * parts, the reference configuration, the time bank) do what they say. Bad input and usage: usage.test.ts.
 *
 * One command at a time: two at a time (tried) cut this file's time but starved the tests of the other
 * worker (a 9 s table test took 39 s and failed its limit on a loaded machine), and npm test runs the unit
 * tier beside the browser tiers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ROOT, TIMEOUT_MS, expectUsageError, gameLines, lastLine, run, runHere, temporaryDir } from './run-cli';

// A test may start the command line several times (each start loads tsx and may decode the network: seconds
// on a busy 2-core machine), so each test gets room for a few of them.
vi.setConfig({ testTimeout: 3 * TIMEOUT_MS });
const tmp = temporaryDir();

describe('commands that work', () => {
  it('solve prints every move, illegal ones as illegal, and the best move', async () => {
    // The top row is full and holds no pair, so up changes nothing: illegal.
    const result = await run('solve', ['--board', '2,4,8,16,0,0,0,0,0,0,0,0,0,0,0,0', '--strategy', 'priority', '--json']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^up\s+illegal/m);
    expect(result.stdout).toMatch(/best move: down/);
    const choice = JSON.parse(lastLine(result.stdout)) as { move: string; values: Record<string, number> };
    expect(choice.move).toBe('down');
    expect(choice.values.up).toBeUndefined();
  });

  it('play runs one game to its end and prints the summary', async () => {
    const result = await run('play', ['--strategy', 'random', '--seed', '3', '--size', '3']);
    expect(result.status).toBe(0);
    expect(lastLine(result.stdout)).toMatch(/^game over after \d+ moves: score [\d,]+, best tile \d+; random, seed 3/);
  });

  it('bench --positions --threads 2 shares each search between two threads: the reference best moves, all children searched', async () => {
    // The fixture's 6 cheapest positions (a few ms each) without a near tie (which thread reaches a node
    // first may move values a little: the reference's table ignores the probability a node was reached
    // with), in a file of their own.
    const text = readFileSync(join(ROOT, 'tests/fixtures/reference/expectimax-positions.tsv'), 'utf8');
    const lines = text.trimEnd().split('\n');
    const head = lines.filter((line) => line.startsWith('#') || line.startsWith('board'));
    const executions = (row: string): number => row.split('\t').slice(5, 9).reduce((sum, n) => sum + Number(n), 0);
    const clearBest = (row: string): boolean => {
      const [first, second] = row.split('\t').slice(1, 5).map(Number).sort((a, b) => b - a);
      return (first - second) / first > 1e-2;
    };
    const rows = lines.filter((line) => /^\d/.test(line) && clearBest(line));
    const cheap = [...rows].sort((a, b) => executions(a) - executions(b)).slice(0, 6);
    const file = join(tmp, 'cheap.tsv');
    writeFileSync(file, [...head, ...cheap].join('\n') + '\n');
    const result = await run('bench', ['--positions', file, '--engine', 'wasm', '--threads', '2', '--json']);
    expect(result.status).toBe(0);
    const summary = JSON.parse(lastLine(result.stdout)) as Record<string, number>;
    expect(summary).toMatchObject({ positions: 6, threads: 2, agree: 1 });
    const reference = cheap.reduce((sum, row) => sum + executions(row), 0);
    expect(summary.referenceMoveExecutions).toBe(reference);
    // Shared between two threads on one table the work stays about the same (a helper's work is counted).
    expect(summary.moveExecutions).toBeGreaterThan(reference * 0.95);
    expect(summary.moveExecutions).toBeLessThan(reference * 1.2);
    expect(summary.maxRelError).toBeLessThan(5e-2);
  });

  it('bench --json ends with one JSON summary, the same for 1 and 2 threads', async () => {
    const args = ['--strategy', 'random', '--games', '4', '--seed', '7', '--json'];
    const two = await run('bench', [...args, '--jobs', '2']);
    expect(two.status).toBe(0);
    const summary = JSON.parse(lastLine(two.stdout)) as Record<string, unknown>;
    for (const field of ['strategy', 'games', 'seed', 'reach', 'score', 'maxTile', 'moves', 'msPerMove']) {
      expect(summary).toHaveProperty(field);
    }
    expect(summary).toMatchObject({ strategy: 'random', games: 4, seed: 7 });
    expect(Object.keys(summary.reach as object)).toEqual(['256', '512', '1024', '2048', '4096', '8192', '16384', '32768']);
    expect(Object.keys(summary.score as object).sort()).toEqual(['max', 'mean', 'median', 'min']);
    expect(Object.keys(summary.maxTile as object).sort()).toEqual(['max', 'median']);
    expect(typeof summary.moves).toBe('number');
    expect(typeof summary.msPerMove).toBe('number');

    const one = JSON.parse(lastLine((await run('bench', [...args, '--jobs', '1'])).stdout)) as Record<string, unknown>;
    expect(one.score).toEqual(summary.score);
    expect(one.maxTile).toEqual(summary.maxTile);
    expect(one.moves).toEqual(summary.moves);
  });

  it('bench --start plays each game on from a board of the file: game i from board i mod their count', async () => {
    const file = join(tmp, 'starts.txt');
    // Two boards a move or two from game over: every game ends within a few moves, from its own board.
    const nearlyFull = '2 4 2 4 4 2 4 2 2 4 2 4 4 2 4 0';
    const withRoom = '# a comment line\n\n1024 512 256 128 0 0 0 0 0 0 0 0 0 0 2 2  # and a trailing one';
    writeFileSync(file, `${nearlyFull}\n${withRoom}\n`);
    const result = await run('bench', ['--strategy', 'priority', '--start', file, '--games', '3', '--target', '2048', '--jobs', '1', '--json']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/3 games from the 2 boards of .*starts\.txt/);
    const summary = JSON.parse(lastLine(result.stdout)) as { games: number; start: unknown; maxTile: { max: number }; reach: Record<string, number> };
    expect(summary.games).toBe(3);
    expect(summary.start).toEqual({ file, boards: 2 });
    // Games 1 and 3 start on the nearly full board (best tile 4: it ends at once or on a 4 or 8); game 2 on
    // the 1024 board, so one game in three holds a tile of at least 1024.
    expect(summary.reach['1024']).toBeCloseTo(1 / 3, 6);
    expect(summary.maxTile.max).toBeGreaterThanOrEqual(1024);
    // Without --games: one game per board.
    const each = JSON.parse(lastLine((await run('bench', ['--strategy', 'priority', '--start', file, '--jobs', '2', '--json'])).stdout)) as { games: number };
    expect(each.games).toBe(2);
    // With --threads (games one at a time, each move on the thread pool): the same boards, the same games.
    const threaded = await run('bench', ['--strategy', 'priority', '--start', file, '--games', '3', '--target', '2048', '--threads', '2', '--json']);
    expect(threaded.status).toBe(0);
    // Every game's line, the last one's too.
    expect(gameLines(threaded.stderr)).toHaveLength(3);
    const onThreads = JSON.parse(lastLine(threaded.stdout)) as typeof summary & { score: unknown };
    expect(onThreads.reach).toEqual(summary.reach);
    expect(onThreads.score).toEqual((JSON.parse(lastLine(result.stdout)) as { score: unknown }).score);
  });

  it('bench --first-game: parts of a bench play its games as the whole bench does, each by its number', async () => {
    const file = join(tmp, 'three-starts.txt');
    // Three boards, so that a part whose first game is not the bench's first starts its games from other
    // boards than a bench of its own would (game i from board i mod 3).
    writeFileSync(file, '2 4 8 16 0 2 32 64 0 0 4 128 0 0 2 256\n0 0 0 0 0 2 0 0 0 0 0 0 0 0 0 2\n64 32 16 8 0 0 0 4 0 0 0 0 2 0 0 0\n');
    // random: deterministic for a seed (each move's choice and each spawn come from the game's seed), and cheap.
    const args = ['--strategy', 'random', '--start', file, '--seed', '11', '--network', 'none', '--json'];
    type PerGame = { game: number; seed: number; score: number; maxTile: number; moves: number; end: string; thinkMs?: number };
    const played = async (extra: readonly string[], numbers: readonly number[]): Promise<{ lines: string[]; games: PerGame[] }> => {
      const result = await run('bench', [...args, ...extra]);
      expect(result.status).toBe(0);
      const lines = gameLines(result.stderr);
      const summary = JSON.parse(lastLine(result.stdout)) as { firstGame: number; games: number; perGame: PerGame[] };
      // Every game's line and entry, by its number in the whole bench, before anything is compared.
      expect(lines.map((line) => Number(/^game (\d+) /.exec(line)?.[1])).sort((a, b) => a - b)).toEqual(numbers);
      expect(summary).toMatchObject({ firstGame: numbers[0], games: numbers.length });
      expect(summary.perGame.map((g) => g.game)).toEqual(numbers);
      return { lines: lines.sort(), games: summary.perGame.map(({ thinkMs: _ms, ...game }) => game) };
    };
    const whole = await played(['--games', '6', '--jobs', '2'], [1, 2, 3, 4, 5, 6]);
    // The parts on one worker, on two, and with --threads (games one at a time: its last game's line too).
    const parts = [
      await played(['--games', '2', '--first-game', '1', '--jobs', '1'], [1, 2]),
      await played(['--games', '2', '--first-game', '3', '--threads', '2'], [3, 4]),
      await played(['--games', '2', '--first-game', '5', '--jobs', '2'], [5, 6]),
    ];
    expect(parts.flatMap((part) => part.games)).toEqual(whole.games);
    expect(parts.flatMap((part) => part.lines).sort()).toEqual(whole.lines);
    // Not a vacuous match: the games differ from one another.
    expect(new Set(whole.games.map((g) => `${g.seed} ${g.score} ${g.moves}`)).size).toBe(6);
  });

  it('bench --threads 2 shares each expectimax decision on one table, --split roots by root move', async () => {
    const shared = await run('bench', ['--strategy', 'expectimax', '--games', '1', '--seed', '3', '--target', '128', '--time-ms', '5', '--threads', '2', '--network', 'none', '--json']);
    expect(shared.status).toBe(0);
    expect(shared.stdout).toMatch(/each move searched on 2 threads/);
    const summary = JSON.parse(lastLine(shared.stdout)) as { threads: number; split: string; maxTile: { max: number }; depth: { mean: number } };
    expect(summary).toMatchObject({ threads: 2, split: 'shared' });
    expect(summary.maxTile.max).toBe(128);
    expect(summary.depth.mean).toBeGreaterThanOrEqual(1);
    const roots = await run('bench', ['--strategy', 'expectimax', '--games', '1', '--seed', '3', '--target', '128', '--time-ms', '5', '--threads', '2', '--split', 'roots', '--network', 'none', '--json']);
    expect(roots.status).toBe(0);
    expect(roots.stdout).toMatch(/each move searched on 2 threads by root move/);
    expect(JSON.parse(lastLine(roots.stdout))).toMatchObject({ threads: 2, split: 'roots' });
  });

  it('bench --start names the line of a bad board and a board of another size', async () => {
    const file = join(tmp, 'bad-starts.txt');
    writeFileSync(file, '# boards\n0 2 2 4 0 0 0 0 0 0 0 0 0 0 0 2\n0 2 3 4 0 0 0 0 0 0 0 0 0 0 0 2\n');
    expectUsageError(await runHere('bench', ['--start', file]), /bad-starts\.txt:3: cell \(row 0, col 2\) holds 3: not 0 or a power of two/);
    writeFileSync(file, '0 2 2 4 0 0 0 0 2\n');
    expectUsageError(await runHere('bench', ['--start', file]), /bad-starts\.txt:1: a 3x3 board, the bench plays 4x4/);
    writeFileSync(file, '# nothing\n');
    expectUsageError(await runHere('bench', ['--start', file]), /bad-starts\.txt: no boards/);
    expectUsageError(await runHere('bench', ['--start', join(tmp, 'none.txt')]), /cannot read .*none\.txt: no such file/);
  });

  it('bench --reference plays with the reference configuration (the depth rule, no clock)', async () => {
    const result = await run('bench', ['--reference', '--games', '2', '--seed', '3', '--target', '256', '--jobs', '1', '--json']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/reference configuration/);
    const summary = JSON.parse(lastLine(result.stdout)) as { options: { reference?: boolean }; reach: Record<string, number>; depth: { counts: number[] } };
    expect(summary.options.reference).toBe(true);
    expect(summary.reach['256']).toBe(1);
    // The depth rule: max(3, distinct tiles - 2); a board on the way to 256 has at most 8 distinct tiles.
    const depths = summary.depth.counts.flatMap((n, depth) => (n > 0 ? [depth] : []));
    expect(Math.min(...depths)).toBe(3);
    expect(Math.max(...depths)).toBeLessThanOrEqual(6);
  });

  it('bench --bank plays with a time bank per game and reports the moves that took extra time', async () => {
    const result = await run('bench', ['--bank', '3', '--time-ms', '5', '--games', '2', '--seed', '3', '--target', '256', '--jobs', '1', '--json']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/time 5 ms, target 256, time bank up to 3x/);
    expect(result.stdout).toMatch(/time bank: \d+ of \d+ moves took extra time \(up to 3 x 5 ms\)/);
    const summary = JSON.parse(lastLine(result.stdout)) as { bank: { factor: number; extendedMoves: number }; moves: number; reach: Record<string, number> };
    expect(summary.bank.factor).toBe(3);
    // At 5 ms the early moves exhaust their search well inside the budget, so the bank fills and hard moves take it.
    expect(summary.bank.extendedMoves).toBeGreaterThan(0);
    // `moves` is the mean per game: the two games' moves are twice it.
    expect(summary.bank.extendedMoves).toBeLessThanOrEqual(summary.moves * 2);
    expect(summary.reach['256']).toBe(1);
    // Without --bank there is no bank (the network, which has nothing to do with it, left out: ~3 CPU s to read).
    const without = JSON.parse(lastLine((await run('bench', ['--time-ms', '5', '--games', '1', '--seed', '3', '--target', '64', '--jobs', '1', '--network', 'none', '--json'])).stdout)) as { bank: unknown };
    expect(without.bank).toBeNull();
  });
});
