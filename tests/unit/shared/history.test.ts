import { describe, expect, it } from 'vitest';
import { applyMove, createRng, legalMoves, newGame, spawnRandomTile } from '../../../src/engine/index';
import type { Direction, Grid } from '../../../src/engine/types';
import {
  RESYNC,
  ReplayError,
  ReplayRecorder,
  ReplaySchema,
  packMoves,
  replayFrames,
  spawnByte,
  tileMilestones,
  unpackMoves,
} from '../../../src/shared/history';
import type { Replay } from '../../../src/shared/history';
import { truncateReplay } from '../../../src/shared/replay-cut';
import { addGame, boundRecord, readGames, readLog } from '../../../src/shared/game-log';
import type { GameRecord } from '../../../src/shared/messages';

const g = (cells: number[]): Grid => ({ rows: 4, cols: 4, cells });

/** A seeded game of `n` moves, with the boards the page would show. */
function playGame(n: number, seed = 7): { steps: { before: Grid; move: Direction; after: Grid }[]; final: Grid } {
  const rng = createRng(seed);
  let board = newGame(rng);
  const steps: { before: Grid; move: Direction; after: Grid }[] = [];
  for (let i = 0; i < n; i++) {
    const moves = legalMoves(board);
    if (moves.length === 0) break;
    const move = moves[Math.floor(rng.next() * moves.length)];
    const after = spawnRandomTile(applyMove(board, move).grid, rng);
    steps.push({ before: board, move, after });
    board = after;
  }
  return { steps, final: board };
}

const T0 = 1_700_000_000_000;

/** A board no move explains (its first cell 131072): the recorder keeps it whole. */
const odd = (grid: Grid): Grid => ({ ...grid, cells: grid.cells.map((v, i) => (i === 0 ? 1 << 17 : v)) });

function record(replay: Replay | undefined, endedAt = 1): GameRecord {
  return { site: 's', adapter: 'classic', strategy: 'random', score: 10, bestTile: 64, moves: replay?.n ?? 1, ms: 5, desyncs: 0, endedAt: T0 + endedAt, outcome: 'over', ...(replay ? { replay } : {}) };
}

describe('replay packing', () => {
  it('packs moves 2 bits each and unpacks them back', () => {
    const dirs = [0, 1, 2, 3, 3, 2, 1, 0, 1];
    expect(unpackMoves(packMoves(dirs), dirs.length)).toEqual(['up', 'down', 'left', 'right', 'right', 'left', 'down', 'up', 'down']);
  });

  it('spawn byte: cell and value, RESYNC when the board is not one move plus one spawn later', () => {
    const before = g([2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const after = g([4, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(spawnByte(before, 'up', after)).toBe(3 | 0x40);
    expect(spawnByte(before, 'up', g([4, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe(3);
    expect(spawnByte(before, 'up', g([4, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe(RESYNC);
    expect(spawnByte(before, 'down', after)).toBe(RESYNC);
  });
});

describe('ReplayRecorder → replayFrames', () => {
  it('a whole seeded game replays to the board the page showed, move by move', () => {
    const { steps, final } = playGame(400);
    const recorder = new ReplayRecorder();
    for (const step of steps) recorder.add({ ...step, thinkMs: 12 });
    const replay = recorder.finish({ thinkMs: 100, pauseMs: 0, depth: null, playouts: 100 });
    expect(replay).not.toBeNull();
    expect(ReplaySchema.parse(JSON.parse(JSON.stringify(replay)))).toEqual(replay);
    const frames = replayFrames(replay!);
    expect(frames).toHaveLength(steps.length + 1);
    steps.forEach((step, i) => {
      expect(frames[i].board.cells).toEqual(step.before.cells);
      expect(frames[i + 1].move).toBe(step.move);
    });
    expect(frames.at(-1)!.board.cells).toEqual(final.cells);
    expect(frames.at(-1)!.thinkMs).toBe(12);
    // Compact: about 1.25 bytes of base64 per move for directions and spawns.
    expect(replay!.moves.length + replay!.spawns.length).toBeLessThan(steps.length * 1.8);
  });

  it('a desync (the page showed another board) is kept whole and the replay follows the page', () => {
    const { steps } = playGame(30, 3);
    const odd = g([...steps[10].after.cells]);
    const tweaked = { ...odd, cells: odd.cells.map((v, i) => (i === 0 ? v * 2 || 8 : v)) };
    const recorder = new ReplayRecorder();
    steps.slice(0, 10).forEach((s) => recorder.add(s));
    recorder.add({ ...steps[10], after: tweaked });
    // The next move starts from the tweaked board.
    const next = applyMove(tweaked, legalMoves(tweaked)[0]);
    const nextAfter = spawnRandomTile(next.grid, createRng(1));
    recorder.add({ before: tweaked, move: legalMoves(tweaked)[0], after: nextAfter });
    const frames = replayFrames(recorder.finish()!);
    expect(frames[11].board.cells).toEqual(tweaked.cells);
    expect(frames[12].board.cells).toEqual(nextAfter.cells);
  });

  it('a board changed between moves (the person moved) marks the previous move as a resync', () => {
    const { steps } = playGame(6, 5);
    const recorder = new ReplayRecorder();
    recorder.add(steps[0]);
    // steps[2] starts from a board the recorder never saw after steps[0].
    recorder.add(steps[2]);
    const frames = replayFrames(recorder.finish()!);
    expect(frames[1].board.cells).toEqual(steps[2].before.cells);
    expect(frames[2].board.cells).toEqual(steps[2].after.cells);
  });

  it('a board no move explains, shown last (sync), ends the replay; the same board or no move yet changes nothing', () => {
    const { steps } = playGame(8, 6);
    const recorder = new ReplayRecorder();
    recorder.sync(steps[0].before);
    steps.slice(0, 3).forEach((s) => recorder.add(s));
    recorder.sync(steps[2].after);
    expect(replayFrames(recorder.snapshot()!).at(-1)!.board.cells).toEqual(steps[2].after.cells);
    // The person's move the coach could not tell (two moves explain it): the page shows steps[3].after.
    recorder.sync(steps[3].after);
    const frames = replayFrames(recorder.finish()!);
    expect(frames).toHaveLength(4);
    expect(frames[2].board.cells).toEqual(steps[1].after.cells);
    expect(frames[3].board.cells).toEqual(steps[3].after.cells);
  });

  it('no move, no replay', () => {
    expect(new ReplayRecorder().finish()).toBeNull();
  });

  it('corrupt data give a ReplayError, never a wrong board', () => {
    const { steps } = playGame(20, 9);
    const recorder = new ReplayRecorder();
    steps.forEach((s) => recorder.add(s));
    const replay = recorder.finish()!;
    expect(() => replayFrames({ ...replay, n: replay.n + 8 })).toThrow(ReplayError);
    expect(() => replayFrames({ ...replay, start: [2, 2] })).toThrow(ReplayError);
    // Every spawn on cell 0 with a 2: some lands on an occupied cell.
    const badSpawns = btoa(String.fromCharCode(...new Array<number>(replay.n).fill(0)));
    expect(() => replayFrames({ ...replay, spawns: badSpawns })).toThrow(ReplayError);
    expect(() => replayFrames({ ...replay, spawns: btoa(String.fromCharCode(RESYNC)).repeat(1), n: 1 })).toThrow(ReplayError);
  });

  it('tile milestones: the first move each tile from 512 appeared', () => {
    expect(tileMilestones([4, 256, 512, 512, 1024, 4096])).toEqual([
      { tile: 512, move: 2 },
      { tile: 1024, move: 4 },
      { tile: 2048, move: 5 },
      { tile: 4096, move: 5 },
    ]);
  });
});

describe('the stored game log', () => {
  it('a corrupt record (or a corrupt replay) is skipped, never fatal', () => {
    const { steps } = playGame(10);
    const recorder = new ReplayRecorder();
    steps.forEach((s) => recorder.add(s));
    const good = record(recorder.finish()!);
    const games = readGames([good, { ...good, replay: { v: 2 } }, null, 'junk', { ...good, score: 'x' }, record(undefined, 2)]);
    expect(games).toEqual([good, record(undefined, 2)]);
  });

  it('is bounded by a byte budget: the oldest games go first, only as many as overflow', () => {
    const { steps } = playGame(200);
    const recorder = new ReplayRecorder();
    steps.forEach((s) => recorder.add(s));
    const replay = recorder.finish()!;
    const size = JSON.stringify(record(replay)).length;
    let log = readLog([]);
    for (let i = 0; i < 10; i++) log = addGame(log, record(replay, i), { cap: 300, budget: size * 4 }).log;
    expect(log.games.map((r) => r.endedAt - T0)).toEqual([6, 7, 8, 9]);
    const next = addGame(log, record(replay, 10), { cap: 300, budget: size * 4 });
    expect(next.evicted).toBe(1);
    expect(next.log.games.map((r) => r.endedAt - T0)).toEqual([7, 8, 9, 10]);
  });

  it('a record over the cap is kept with its replay cut short and marked, never evicting others', () => {
    const { steps } = playGame(600);
    const recorder = new ReplayRecorder();
    // Every move a desync: a whole board kept per move (a flaky page).
    steps.forEach((s) => {
      recorder.add(s);
      recorder.sync(odd(s.after));
    });
    const huge = recorder.finish()!;
    const small = record(undefined, 1);
    const big = { ...record(huge, 2), moves: 600 };
    const bounded = boundRecord(big, 4_000);
    expect(bounded.truncated).toBe(true);
    expect(JSON.stringify(bounded.record).length).toBeLessThanOrEqual(4_000);
    expect(bounded.record.replay?.truncated).toBe(true);
    expect(bounded.record.moves).toBe(600);
    // What is kept replays: the first moves of the game, as recorded.
    expect(() => replayFrames(bounded.record.replay!)).not.toThrow();
    const change = addGame(readLog([small]), big);
    expect(change.evicted).toBe(0);
    expect(change.log.games).toHaveLength(2);
  });
});

describe('truncateReplay', () => {
  it('cuts at the last move that fits, exactly, and replays those moves', () => {
    const { steps } = playGame(300, 3);
    const recorder = new ReplayRecorder();
    steps.forEach((s, i) => {
      recorder.add(s);
      if (i % 5 === 0) recorder.sync(odd(s.after));
    });
    const replay = recorder.finish({ thinkMs: 1, pauseMs: 0, depth: null, playouts: 1 })!;
    const full = JSON.stringify(replay).length;
    expect(truncateReplay(replay, full)).toBe(replay);
    for (const max of [full - 1, Math.floor(full / 2), 400, 200, 10]) {
      const cut = truncateReplay(replay, max);
      expect(cut.truncated).toBe(true);
      const size = JSON.stringify(cut).length;
      if (cut.n > 0) expect(size, `max ${max}`).toBeLessThanOrEqual(max);
      // As many moves as fit: the cut's own size as the limit gives the same cut.
      expect(truncateReplay(replay, size).n).toBe(cut.n);
      expect(truncateReplay(replay, size - 1).n).toBeLessThan(Math.max(1, cut.n));
      const frames = replayFrames(cut);
      const whole = replayFrames(replay);
      expect(frames.map((f) => f.board.cells)).toEqual(whole.slice(0, cut.n + 1).map((f) => f.board.cells));
      // A cut replay is cut again the same way (idempotent within its size).
      if (cut.n > 0) expect(truncateReplay(cut, max)).toBe(cut);
    }
  });

  it('never throws on data that cannot be decoded', () => {
    const broken: Replay = { v: 1, rows: 4, cols: 4, start: new Array<number>(16).fill(0), n: 5, moves: 'A', spawns: 'AAA', resyncs: { '1': new Array<number>(16).fill(2) } };
    const cut = truncateReplay(broken, 20);
    expect(cut).toMatchObject({ n: 0, truncated: true });
  });
});
