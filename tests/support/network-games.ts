/**
 * One-ply games with a network, for the tests that hold a network's play fixed: each move the one whose score
 * plus the value of its afterstate is highest (ties to the first of up, down, left, right), a 2 (9 in 10) or a
 * 4 on a random empty cell after it, from a seeded random generator.
 */
import { createHash } from 'node:crypto';
import { OUT, executeMove } from '../../src/engine/board';
import { createRng } from '../../src/engine/rng';

export interface OnePlyGame {
  readonly moves: number;
  readonly score: number;
  /** SHA-256 of the moves played, one digit 0-3 each. */
  readonly movesHash: string;
  /** Every 50th afterstate (lo, hi as unsigned halves). */
  readonly sample: readonly { lo: number; hi: number }[];
}

function spawn(lo: number, hi: number, next: () => number): { lo: number; hi: number } {
  const empty: number[] = [];
  for (let cell = 0; cell < 16; cell++) if ((((cell < 8 ? lo : hi) >>> (4 * (cell % 8))) & 0xf) === 0) empty.push(cell);
  const cell = empty[Math.floor(next() * empty.length)];
  const rank = next() < 0.9 ? 1 : 2;
  if (cell < 8) return { lo: (lo | (rank << (4 * cell))) >>> 0, hi };
  return { lo, hi: (hi | (rank << (4 * (cell - 8)))) >>> 0 };
}

/** Play one game of at most `maxMoves` with `value` (the network's value of an afterstate). */
export function playOnePly(value: (lo: number, hi: number) => number, seed: number, maxMoves: number): OnePlyGame {
  const rng = createRng(seed);
  const next = (): number => rng.next();
  let board = spawn(0, 0, next);
  board = spawn(board.lo, board.hi, next);
  let score = 0;
  let moves = '';
  const sample: { lo: number; hi: number }[] = [];
  while (moves.length < maxMoves) {
    let best = -Infinity;
    let choice: { dir: number; score: number; lo: number; hi: number } | null = null;
    for (let dir = 0; dir < 4; dir++) {
      const gained = executeMove(board.lo | 0, board.hi | 0, dir);
      const lo = OUT[0] >>> 0;
      const hi = OUT[1] >>> 0;
      if (lo === board.lo && hi === board.hi) continue;
      const v = Math.fround(gained + value(lo, hi));
      if (v > best) {
        best = v;
        choice = { dir, score: gained, lo, hi };
      }
    }
    if (!choice) break;
    if (moves.length % 50 === 0) sample.push({ lo: choice.lo, hi: choice.hi });
    moves += String(choice.dir);
    score += choice.score;
    board = spawn(choice.lo, choice.hi, next);
  }
  return { moves: moves.length, score, movesHash: createHash('sha256').update(moves).digest('hex'), sample };
}
