import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { applyMove, getStrategy } from '../../../src/engine/index';
import type { Direction, Grid, SearchOptions, StrategyName } from '../../../src/engine/types';
import { Coach } from '../../../src/content/coach';
import { NO_GRADES_NOTE } from '../../../src/shared/coach';
import type { CoachSolver } from '../../../src/content/coach';
import type { Adapter, BoardReading, BoardRect } from '../../../src/content/adapters/types';
import { Interrupted } from '../../../src/content/errors';
import type { SolverAnswer } from '../../../src/content/solver-client';
import { GameRecordSchema, RunStatusSchema, initialStatus } from '../../../src/shared/messages';
import { RESYNC, base64ToBytes, replayFrames } from '../../../src/shared/history';
import type { GameRecord, RunStatus } from '../../../src/shared/messages';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import type { Settings } from '../../../src/shared/settings';

function grid(cells: number[]): Grid {
  return { rows: 4, cols: 4, cells };
}

/** `before` moved, with a 2 in its first empty cell. */
function successor(before: Grid, move: Direction): Grid {
  const moved = applyMove(before, move).grid;
  const cells = [...moved.cells];
  cells[cells.indexOf(0)] = 2;
  return { ...moved, cells };
}

/** A page the person plays: its board changes only when the test says so; keys the extension sends are counted. */
class PersonGame implements Adapter {
  readonly name = 'fake';
  sentByExtension = 0;
  constructor(public board: Grid) {}
  async detect(): Promise<number> {
    return 1;
  }
  readBoard(): BoardReading {
    return { grid: this.board, score: null, status: 'playing' };
  }
  async sendMove(): Promise<void> {
    this.sentByExtension++;
  }
  async settled(): Promise<{ kind: 'ignored' }> {
    return { kind: 'ignored' };
  }
  boardRect(): BoardRect {
    return { left: 10, top: 20, width: 400, height: 400 };
  }
  async continueAfterWin(): Promise<'no-control'> {
    return 'no-control';
  }
}

/** The real expectimax at depth 2 (deterministic), answered when `release()` is called if `hold` is on. */
class Solver implements CoachSolver {
  asked: Grid[] = [];
  cancels = 0;
  hold = false;
  private waiting: (() => void)[] = [];
  private rejectors: ((err: unknown) => void)[] = [];
  async ask(strategy: StrategyName, board: Grid, _options: SearchOptions): Promise<SolverAnswer> {
    this.asked.push(board);
    if (this.hold) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.push(resolve);
        this.rejectors.push(reject);
      });
    }
    return { choice: await getStrategy(strategy).chooseMove(board, { depth: 2, seed: 1 }) };
  }
  cancel(): void {
    this.cancels++;
    for (const reject of this.rejectors.splice(0)) reject(new Interrupted('cancelled'));
    this.waiting = [];
  }
  release(): void {
    this.rejectors = [];
    for (const go of this.waiting.splice(0)) go();
  }
}

class Overlay {
  shown: Direction | null = null;
  rect: BoardRect | null = null;
  show(direction: Direction, rectOf: () => BoardRect | null): void {
    this.shown = direction;
    this.rect = rectOf();
  }
  hide(): void {
    this.shown = null;
  }
}

function setup(board: Grid, settings: Partial<Settings> = {}) {
  const dom = new JSDOM('<!DOCTYPE html><html><body></body></html>', { url: 'http://game.test/' });
  const game = new PersonGame(board);
  const solver = new Solver();
  const overlay = new Overlay();
  let now = 1_700_000_000_000;
  let status: RunStatus = initialStatus('expectimax', 0);
  const records: GameRecord[] = [];
  const moves: Direction[] = [];
  const coach = new Coach({
    window: dom.window as unknown as Window,
    boards: {
      ensureAdapter: async () => game,
      tryRead: (adapter) => adapter.readBoard(),
    },
    solver,
    overlay,
    settings: () => ({ ...DEFAULT_SETTINGS, ...settings }),
    report: (patch) => {
      status = RunStatusSchema.parse({ ...status, ...patch });
    },
    record: (record) => records.push(GameRecordSchema.parse(record)),
    onMove: (step) => moves.push(step.move),
    now: () => now,
    quietMs: 100,
    burstMs: [],
    pollMs: 60_000,
  });
  /** Let the solver's promise chain run. */
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  };
  return {
    coach,
    game,
    solver,
    overlay,
    records,
    moves,
    settle,
    /** Coach mode on, its first search done. */
    begin: async (): Promise<void> => {
      await coach.start();
      await settle();
    },
    /** The page shows `board` (a person's move, an undo, an edit) and the coach's searches run. */
    show: async (board: Grid): Promise<void> => {
      game.board = board;
      coach.check();
      await settle();
    },
    status: () => status,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

// The corner position of the grading tests: left keeps the chain, up breaks it (a blunder).
const CORNER = grid([0, 0, 0, 0, 0, 0, 0, 2, 2, 4, 8, 16, 1024, 512, 256, 128]);

describe('Coach', () => {
  it('at start evaluates the board, points the suggestion over the board and sends no key', async () => {
    const t = setup(CORNER);
    await t.begin();
    expect(t.solver.asked).toEqual([CORNER]);
    expect(t.overlay.shown).toBe('left');
    expect(t.overlay.rect).toEqual({ left: 10, top: 20, width: 400, height: 400 });
    expect(t.status().coach).toMatchObject({ active: true, suggestion: 'left', graded: 0, accuracy: null, resyncs: 0 });
    expect(t.game.sentByExtension).toBe(0);
  });

  it('grades the person\'s move against the search of the board it was played from, then evaluates the new board', async () => {
    const t = setup(CORNER);
    await t.begin();
    t.game.board = successor(CORNER, 'up');
    t.coach.check();
    // The old suggestion goes at once: it was for the board before.
    expect(t.overlay.shown).toBeNull();
    await t.settle();
    const coach = t.status().coach;
    expect(coach?.graded).toBe(1);
    expect(coach?.last).toMatchObject({ grade: 'blunder', move: 'up', best: 'left' });
    expect(coach?.accuracy).toBe(0);
    expect(t.solver.asked).toHaveLength(2);
    expect(t.overlay.shown).not.toBeNull();
    expect(t.game.sentByExtension).toBe(0);
  });

  it('the best move is graded best; accuracy runs over the game', async () => {
    const t = setup(CORNER);
    await t.begin();
    await t.show(successor(CORNER, 'left'));
    expect(t.status().coach).toMatchObject({ graded: 1, accuracy: 100, last: { grade: 'best', move: 'left', best: 'left' } });
  });

  it('undo: no grade, a silent re-evaluation once the page is quiet', async () => {
    const t = setup(CORNER);
    await t.begin();
    await t.show(successor(CORNER, 'left'));
    const graded = t.status().coach?.graded;
    t.game.board = CORNER; // undo
    t.coach.check();
    t.advance(150);
    t.coach.check();
    await t.settle();
    expect(t.status().coach?.graded).toBe(graded);
    expect(t.status().coach?.resyncs).toBe(1);
    // The board shown now has its suggestion again (from the cache: no new search).
    expect(t.overlay.shown).toBe('left');
  });

  it('a board changed behind the game\'s back is never graded', async () => {
    const t = setup(CORNER);
    await t.begin();
    const edited = grid([...CORNER.cells.slice(0, 15), 256]);
    t.game.board = edited;
    t.coach.check();
    t.advance(150);
    t.coach.check();
    await t.settle();
    expect(t.status().coach).toMatchObject({ graded: 0, resyncs: 1 });
    expect(t.solver.asked.at(-1)).toEqual(edited);
  });

  it('a move played before its search ended is graded when the search ends', async () => {
    const t = setup(CORNER);
    t.solver.hold = true;
    await t.coach.start();
    t.game.board = successor(CORNER, 'up');
    t.coach.check();
    expect(t.status().coach?.graded).toBe(0);
    t.solver.release();
    await t.settle();
    t.solver.release();
    await t.settle();
    expect(t.status().coach).toMatchObject({ graded: 1, last: { grade: 'blunder', best: 'left' } });
  });

  it('two moves before one search ended: the first is graded when it ends, the second is not guessed', async () => {
    const t = setup(CORNER);
    t.solver.hold = true;
    await t.coach.start();
    const first = successor(CORNER, 'left');
    t.game.board = first;
    t.coach.check();
    t.game.board = successor(first, 'right');
    t.coach.check();
    for (let i = 0; i < 3; i++) {
      t.solver.release();
      await t.settle();
    }
    const coach = t.status().coach;
    expect(coach?.graded).toBe(1);
    expect(coach?.last?.move).toBe('left');
    t.coach.stop();
    // The first move's grade arrived after the second was seen: it still has the first mark.
    expect(t.records[0].coach).toMatchObject({ marks: '!-', better: '--' });
    expect(t.records[0].replay?.n).toBe(2);
  });

  it('the record keeps the person\'s game as a replay: the i-th replay move has the i-th mark', async () => {
    const t = setup(CORNER);
    await t.begin();
    const boards = [CORNER];
    const played: Direction[] = ['up', 'left', 'down'];
    for (const move of played) {
      t.game.board = successor(t.game.board, move);
      boards.push(t.game.board);
      t.coach.check();
      await t.settle();
    }
    t.coach.stop();
    expect(t.records).toHaveLength(1);
    const record = t.records[0];
    expect(record.gameId).toMatch(/^c-/);
    expect(record.moves).toBe(3);
    expect(record.replay?.n).toBe(3);
    const frames = replayFrames(record.replay!);
    expect(frames.slice(1).map((f) => f.move)).toEqual(played);
    expect(frames.map((f) => f.board.cells)).toEqual(boards.map((b) => b.cells));
    expect(record.coach?.marks).toHaveLength(3);
    expect(record.coach?.better).toHaveLength(3);
    // Up from the corner position is a blunder, the search preferred left.
    expect(record.coach?.marks[0]).toBe('X');
    expect(record.coach?.better?.[0]).toBe('l');
    expect(t.moves).toEqual(played);
  });

  it('an undo between moves: the replay reaches the board the page showed, the marks stay aligned', async () => {
    const t = setup(CORNER);
    await t.begin();
    const first = successor(CORNER, 'left');
    await t.show(first);
    t.game.board = CORNER; // undo
    t.coach.check();
    t.advance(150);
    t.coach.check();
    await t.settle();
    const second = successor(CORNER, 'up');
    await t.show(second);
    t.coach.stop();
    const record = t.records[0];
    expect(record.coach).toMatchObject({ marks: '!X', better: '-l', resyncs: 1 });
    expect(record.replay?.n).toBe(2);
    expect(base64ToBytes(record.replay!.spawns)[0]).toBe(RESYNC);
    const frames = replayFrames(record.replay!);
    expect(frames.map((f) => f.move)).toEqual([null, 'left', 'up']);
    expect(frames[1].board.cells).toEqual(CORNER.cells);
    expect(frames[2].board.cells).toEqual(second.cells);
  });

  it('stop: the overlay goes, the game is recorded with its grades', async () => {
    const t = setup(CORNER);
    await t.begin();
    await t.show(successor(CORNER, 'left'));
    t.coach.stop();
    expect(t.overlay.shown).toBeNull();
    expect(t.status().coach?.active).toBe(false);
    expect(t.records).toHaveLength(1);
    expect(t.records[0]).toMatchObject({ outcome: 'stopped', moves: 1, coach: { graded: 1, accuracy: 100, marks: '!', resyncs: 0 } });
    // One move handed to the replay hook per mark.
    expect(t.moves).toEqual(['left']);
  });

  it('a new game on the page records the game before and starts a fresh tally', async () => {
    const t = setup(CORNER);
    await t.begin();
    await t.show(successor(CORNER, 'up'));
    t.game.board = grid([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0]);
    t.coach.check();
    t.advance(150);
    t.coach.check();
    await t.settle();
    expect(t.records).toHaveLength(1);
    expect(t.records[0].coach).toMatchObject({ graded: 1, marks: 'X' });
    expect(t.status().coach).toMatchObject({ graded: 0, accuracy: null });
  });

  it('the last move of a game: graded, and the game recorded as over at once', async () => {
    // Right, then a 4 in the corner: a full board with no merge.
    const before = grid([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 2, 4, 2, 0]);
    const t = setup(before);
    await t.begin();
    const end = grid([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]);
    await t.show(end);
    expect(t.records).toHaveLength(1);
    expect(t.records[0]).toMatchObject({ outcome: 'over', moves: 1, coach: { graded: 1 } });
    expect(t.records[0].replay?.n).toBe(1);
    t.coach.stop();
    expect(t.records).toHaveLength(1);
  });

  it('the last move of a game played before its search ended: the record waits for its grade', async () => {
    const before = grid([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 2, 4, 2, 0]);
    const t = setup(before);
    t.solver.hold = true;
    await t.coach.start();
    t.game.board = grid([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]);
    t.coach.check();
    t.coach.check();
    expect(t.records).toHaveLength(0);
    for (let i = 0; i < 3; i++) {
      t.solver.release();
      await t.settle();
    }
    expect(t.records).toHaveLength(1);
    expect(t.records[0]).toMatchObject({ outcome: 'over', moves: 1, coach: { graded: 1, marks: expect.stringMatching(/^[!g?mX]$/) } });
  });

  it('stopped while the last move of a game waits for its grade: recorded as over, that move ungraded', async () => {
    const before = grid([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 2, 4, 2, 0]);
    const t = setup(before);
    t.solver.hold = true;
    await t.coach.start();
    t.game.board = grid([2, 4, 2, 4, 4, 2, 4, 2, 2, 4, 2, 4, 4, 2, 4, 2]);
    t.coach.check();
    t.coach.stop();
    expect(t.records).toHaveLength(1);
    expect(t.records[0]).toMatchObject({ outcome: 'over', moves: 1, coach: { graded: 0, marks: '-' } });
    expect(t.records[0].replay?.n).toBe(1);
  });

  it('a strategy that does not evaluate suggests but grades nothing, and says so', async () => {
    const t = setup(CORNER, { strategy: 'priority' });
    await t.begin();
    expect(t.overlay.shown).not.toBeNull();
    await t.show(successor(CORNER, 'up'));
    expect(t.status().coach).toMatchObject({ graded: 0, note: NO_GRADES_NOTE });
  });
});
