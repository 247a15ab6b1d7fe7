/**
 * Every game, kept compactly and replayable (pure: no DOM, no chrome.*).
 *
 * A finished or stopped game's record carries a `replay`: the start board and, per move, the direction
 * packed 2 bits each and the spawn packed in one byte (cell index in the low 6 bits, bit 6 set for a 4),
 * both base64. When the page showed something else than one move plus one spawn (a desync, an undo), the
 * spawn byte is RESYNC and the board the page showed is stored whole under that move's index, so the
 * replay always reaches the boards the page showed. A 4 000-move game takes about 6.7 kB.
 *
 * The stored log is bounded (HISTORY_CAP games and HISTORY_BYTE_BUDGET characters in all, SITE_CAP games
 * and SITE_BYTE_BUDGET characters per site; a site makes room with its own oldest games only:
 * ./game-log.ts); a replay keeps at most MAX_RESYNC_BOARDS whole boards; one record takes at most
 * RECORD_BYTE_CAP characters: a longer replay is kept cut short (`truncated`, ./replay-cut.ts), never at the
 * cost of other games (./game-log.ts). Every field has a bound (REPLAY_LIMITS), so whatever validates can be
 * stored, shown and exported.
 */
import { z } from 'zod';
import { DIRECTIONS } from '../engine/types';
import type { Direction, Grid } from '../engine/types';
import { applyMove, sameGrid } from '../engine/grid';

/** Spawn byte of a move after which the page showed a board that is not one move + one spawn later. */
export const RESYNC = 0xff;
/** Most games kept in all. */
export const HISTORY_CAP = 600;
/** Most games kept of one site (its oldest go first): no site can push another's games out. */
export const SITE_CAP = 300;
/** Characters of game records kept in all (storage.local holds 10 MB without `unlimitedStorage`). */
export const HISTORY_BYTE_BUDGET = 6_000_000;
/** Characters of one site's records. */
export const SITE_BYTE_BUDGET = HISTORY_BYTE_BUDGET / 2;
/**
 * Whole boards one replay keeps (RESYNC moves: a page that shows something else than the move's board).
 * A page that desyncs every move would otherwise store a board per move; past this the replay stops,
 * marked `truncated` (the record's counts go on).
 */
export const MAX_RESYNC_BOARDS = 200;
/**
 * Characters one record may take: a replay beyond it (a flaky page that desyncs every move stores a whole
 * board per move) is kept cut short at the last move that fits, marked `truncated`.
 */
export const RECORD_BYTE_CAP = 1_000_000;

/** What a replay may hold at most, whatever its source (an import, an older version). */
const REPLAY_LIMITS = {
  /** Moves of one replay. */
  moves: 1_000_000,
  /** Boards kept whole (RESYNC moves). */
  resyncs: 200_000,
} as const;

const cells = z.array(z.number().int().min(0).max(1 << 17)).max(64);
/** Base64 of at most `bytes` bytes. */
const base64 = (bytes: number) =>
  z
    .string()
    .max(4 * Math.ceil(bytes / 3))
    .regex(/^[A-Za-z0-9+/]*={0,2}$/);
const setting = (max: number) => z.number().finite().min(0).max(max);

export const ReplaySchema = z.object({
  v: z.literal(1),
  rows: z.number().int().min(2).max(8),
  cols: z.number().int().min(2).max(8),
  start: cells,
  /** Number of moves. */
  n: z.number().int().min(0).max(REPLAY_LIMITS.moves),
  /** Directions, 2 bits each (index into DIRECTIONS), base64. */
  moves: base64(Math.ceil(REPLAY_LIMITS.moves / 4)),
  /** One byte per move: the spawn, or RESYNC. base64. */
  spawns: base64(REPLAY_LIMITS.moves),
  /** The board the page showed after move i, for each RESYNC move i. */
  resyncs: z
    .record(z.string().regex(/^\d{1,7}$/), cells)
    .refine((boards) => Object.keys(boards).length <= REPLAY_LIMITS.resyncs, { message: 'too many boards' })
    .optional(),
  /** Think time (ms) the search took per move, as whole milliseconds capped at 65 535, base64 of uint16 LE. */
  think: base64(2 * REPLAY_LIMITS.moves).optional(),
  /** The settings the game was played with. */
  settings: z
    .object({
      thinkMs: setting(600_000),
      pauseMs: setting(600_000),
      depth: setting(64).nullable(),
      playouts: setting(1e9),
    })
    .optional(),
  /** The replay stops before the game did: the rest did not fit in RECORD_BYTE_CAP (the record's `moves` says how far it went). */
  truncated: z.literal(true).optional(),
});
export type Replay = z.infer<typeof ReplaySchema>;

// --------------------------------------------------------------------------------------------- base64

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

// ------------------------------------------------------------------------------------------ recording

/** What one move did: the board before, the direction, the board the page showed after, the think time. */
export interface TracedMove {
  readonly before: Grid;
  readonly move: Direction;
  readonly after: Grid;
  readonly thinkMs?: number;
}

/** The spawn byte of a move: where the new tile appeared, or RESYNC when `after` is not one move + one spawn later. */
export function spawnByte(before: Grid, move: Direction, after: Grid): number {
  if (before.rows !== after.rows || before.cols !== after.cols) return RESYNC;
  const moved = applyMove(before, move);
  if (!moved.moved) return RESYNC;
  let spawn = -1;
  for (let i = 0; i < after.cells.length; i++) {
    const expected = moved.grid.cells[i];
    const seen = after.cells[i];
    if (expected === seen) continue;
    if (expected !== 0 || (seen !== 2 && seen !== 4) || spawn >= 0) return RESYNC;
    spawn = i;
  }
  if (spawn < 0 || spawn > 63) return RESYNC;
  return spawn | (after.cells[spawn] === 4 ? 0x40 : 0);
}

/** Accumulates one game's moves as it is played (the content script's side). */
export class ReplayRecorder {
  private start: Grid | null = null;
  private dirs: number[] = [];
  private spawns: number[] = [];
  private thinks: number[] = [];
  private resyncs: Record<string, number[]> = {};
  private current: Grid | null = null;
  /** MAX_RESYNC_BOARDS reached: no more moves recorded. */
  private capped = false;

  private boards(): number {
    return Object.keys(this.resyncs).length;
  }

  get moves(): number {
    return this.dirs.length;
  }

  /** One move played. The first one fixes the start board. Past MAX_RESYNC_BOARDS boards the replay stops (marked truncated). */
  add(step: TracedMove): void {
    if (this.capped) return;
    if (this.start === null) this.start = copyGrid(step.before);
    // The page changed between moves (the person moved, an undo): the previous move ends on what it showed.
    else this.sync(step.before);
    if (this.capped) return;
    this.dirs.push(DIRECTIONS.indexOf(step.move));
    const spawn = spawnByte(step.before, step.move, step.after);
    if (spawn === RESYNC && this.boards() >= MAX_RESYNC_BOARDS) {
      this.dirs.pop();
      this.capped = true;
      return;
    }
    this.spawns.push(spawn);
    if (spawn === RESYNC) this.resyncs[String(this.dirs.length - 1)] = [...step.after.cells];
    this.thinks.push(Math.max(0, Math.min(65_535, Math.round(step.thinkMs ?? 0))));
    this.current = copyGrid(step.after);
  }

  /**
   * The page shows `board`, which no recorded move explains (two moves could have, an undo, a change behind
   * the game's back): the last move is marked a resync ending on it, so the replay ends on what the page
   * shows even when no move follows. Nothing before the first move (the first move fixes the start).
   */
  sync(board: Grid): void {
    if (this.capped || this.current === null || this.dirs.length === 0 || sameGrid(this.current, board)) return;
    const last = this.dirs.length - 1;
    if (this.resyncs[String(last)] === undefined && this.boards() >= MAX_RESYNC_BOARDS) {
      this.capped = true;
      return;
    }
    this.spawns[last] = RESYNC;
    this.resyncs[String(last)] = [...board.cells];
    this.current = copyGrid(board);
  }

  /**
   * Go on recording a game from its replay so far (`last`: the board it ends on, its last frame): the
   * game an earlier content script of the page was playing when the extension was updated.
   */
  continueFrom(replay: Replay, last: Grid): void {
    this.reset();
    this.start = { rows: replay.rows, cols: replay.cols, cells: [...replay.start] };
    this.dirs = unpackMoves(replay.moves, replay.n).map((move) => DIRECTIONS.indexOf(move));
    this.spawns = Array.from(base64ToBytes(replay.spawns).subarray(0, replay.n));
    const think = replay.think ? base64ToBytes(replay.think) : new Uint8Array(0);
    this.thinks = think.length === 2 * replay.n ? Array.from(new Uint16Array(think.slice().buffer)) : new Array<number>(replay.n).fill(0);
    for (const [key, board] of Object.entries(replay.resyncs ?? {})) this.resyncs[key] = [...board];
    this.current = copyGrid(last);
  }

  /** The replay of the game so far, and a fresh recorder; null when no move was played. */
  finish(settings?: Replay['settings']): Replay | null {
    const replay = this.snapshot(settings);
    this.reset();
    return replay;
  }

  /** The replay of the game so far, recording going on (a stopped game may resume); null when no move was played. */
  snapshot(settings?: Replay['settings']): Replay | null {
    if (this.start === null || this.dirs.length === 0) return null;
    return {
      v: 1,
      rows: this.start.rows,
      cols: this.start.cols,
      start: [...this.start.cells],
      n: this.dirs.length,
      moves: packMoves(this.dirs),
      spawns: bytesToBase64(Uint8Array.from(this.spawns)),
      think: bytesToBase64(new Uint8Array(Uint16Array.from(this.thinks).buffer)),
      ...(Object.keys(this.resyncs).length > 0 ? { resyncs: this.resyncs } : {}),
      ...(settings ? { settings } : {}),
      ...(this.capped ? { truncated: true as const } : {}),
    };
  }

  reset(): void {
    this.capped = false;
    this.start = null;
    this.current = null;
    this.dirs = [];
    this.spawns = [];
    this.thinks = [];
    this.resyncs = {};
  }
}

function copyGrid(grid: Grid): Grid {
  return { rows: grid.rows, cols: grid.cols, cells: [...grid.cells] };
}

export function packMoves(dirs: readonly number[]): string {
  const bytes = new Uint8Array(Math.ceil(dirs.length / 4));
  dirs.forEach((d, i) => {
    bytes[i >> 2] |= (d & 3) << ((i & 3) * 2);
  });
  return bytesToBase64(bytes);
}

export function unpackMoves(text: string, n: number): Direction[] {
  const bytes = base64ToBytes(text);
  if (bytes.length < Math.ceil(n / 4)) throw new ReplayError(`the moves hold ${bytes.length * 4} entries, ${n} expected`);
  const out: Direction[] = [];
  for (let i = 0; i < n; i++) out.push(DIRECTIONS[(bytes[i >> 2] >> ((i & 3) * 2)) & 3]);
  return out;
}

// ------------------------------------------------------------------------------------------- replaying

export class ReplayError extends Error {
  override name = 'ReplayError';
}

export interface ReplayFrame {
  readonly board: Grid;
  /** The move that led to this board (null for the start). */
  readonly move: Direction | null;
  readonly score: number;
  readonly thinkMs: number;
}

/**
 * Every board of a game, from the start to the end (n + 1 frames). Throws a ReplayError when the data
 * do not describe a game (a spawn on an occupied cell, a move that does not move, lengths that disagree).
 */
export function replayFrames(replay: Replay): ReplayFrame[] {
  const { rows, cols, n } = replay;
  if (replay.start.length !== rows * cols) throw new ReplayError('the start board has the wrong size');
  const moves = unpackMoves(replay.moves, n);
  const spawns = base64ToBytes(replay.spawns);
  if (spawns.length !== n) throw new ReplayError(`${spawns.length} spawns for ${n} moves`);
  const thinkBytes = replay.think ? base64ToBytes(replay.think) : new Uint8Array(0);
  const thinks = thinkBytes.length === n * 2 ? new Uint16Array(thinkBytes.buffer, thinkBytes.byteOffset, n) : null;
  let board: Grid = { rows, cols, cells: [...replay.start] };
  let score = 0;
  const frames: ReplayFrame[] = [{ board, move: null, score: 0, thinkMs: 0 }];
  for (let i = 0; i < n; i++) {
    const moved = applyMove(board, moves[i]);
    score += moved.score;
    const spawn = spawns[i];
    if (spawn === RESYNC) {
      const shown = replay.resyncs?.[String(i)];
      if (!shown || shown.length !== rows * cols) throw new ReplayError(`move ${i + 1}: the board the page showed is missing`);
      board = { rows, cols, cells: [...shown] };
    } else {
      if (!moved.moved) throw new ReplayError(`move ${i + 1} (${moves[i]}) does not move the board`);
      const cell = spawn & 0x3f;
      if (cell >= rows * cols || moved.grid.cells[cell] !== 0) throw new ReplayError(`move ${i + 1}: the new tile lands on an occupied cell`);
      const cellsAfter = [...moved.grid.cells];
      cellsAfter[cell] = spawn & 0x40 ? 4 : 2;
      board = { rows, cols, cells: cellsAfter };
    }
    frames.push({ board, move: moves[i], score, thinkMs: thinks ? thinks[i] : 0 });
  }
  return frames;
}

/** The first move at which each tile from 512 up appeared, for chart markers: [{tile, move}]. */
export function tileMilestones(bestTiles: readonly number[], from = 512): { tile: number; move: number }[] {
  const out: { tile: number; move: number }[] = [];
  let next = from;
  bestTiles.forEach((best, move) => {
    while (best >= next) {
      out.push({ tile: next, move });
      next *= 2;
    }
  });
  return out;
}
