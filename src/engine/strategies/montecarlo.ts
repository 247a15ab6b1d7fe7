/**
 * Monte-Carlo: for each legal move, N random playouts to game over (default 100, at most 100 000);
 * the move with the best mean final score wins. Playouts are spread evenly over the moves in batches,
 * so a time budget (options.timeMs) stops them with every move sampled the same number of times;
 * `samples` in the result lets partial results from several workers merge (weighted means).
 * 4x4 boards play out on the bitboard; other sizes on rank arrays.
 */
import type { Grid, MoveChoice, SearchOptions, Strategy } from '../types';
import { SEARCH_LIMITS } from '../limits';
import * as bitboard from '../board';
import * as rules from '../rules';
import { checkAbort, choice, intOption, now, prepare, seedOf, valuesOf, yieldToEventLoop } from './common';
import * as common from './common';

const { OUT, executeMove, fitsBitboard, fromGrid } = bitboard;
const { countEmptyRanks, moveRanks } = rules;
const { xorshift32 } = common;

export const DEFAULT_PLAYOUTS = 100;
const MAX_PLAYOUTS = SEARCH_LIMITS.playouts.max;
const BATCH = 25;
/** Longest playout on the general path (a 4x4 game ends by itself within a few hundred moves). */
const MAX_PLAYOUT_MOVES = 1000;

// xorshift32 state for the playouts (module level: no object per draw).
let seed = 1;
function randomInt(n: number): number {
  seed = xorshift32(seed);
  return ((seed >>> 0) * n) / 4294967296 | 0;
}
function randomUnit(): number {
  seed = xorshift32(seed);
  return (seed >>> 0) / 4294967296;
}

let movesPlayed = 0;

/** Spawn into the 4x4 board (lo, hi) → OUT; false when the board is full. */
function spawn4(lo: number, hi: number): boolean {
  let empty = 0;
  for (let s = 0; s < 32; s += 4) {
    if (((lo >>> s) & 0xf) === 0) empty++;
    if (((hi >>> s) & 0xf) === 0) empty++;
  }
  if (empty === 0) return false;
  let k = randomInt(empty);
  const tile = randomUnit() < 0.9 ? 1 : 2;
  for (let s = 0; s < 32; s += 4) {
    if (((lo >>> s) & 0xf) === 0 && k-- === 0) {
      OUT[0] = lo | (tile << s);
      OUT[1] = hi;
      return true;
    }
  }
  for (let s = 0; s < 32; s += 4) {
    if (((hi >>> s) & 0xf) === 0 && k-- === 0) {
      OUT[0] = lo;
      OUT[1] = hi | (tile << s);
      return true;
    }
  }
  return false;
}

const legalLo = new Int32Array(4);
const legalHi = new Int32Array(4);
const legalScore = new Float64Array(4);

/** Random play from the 4x4 board (already moved, before its spawn) to game over: the score gained. */
function playout4(lo: number, hi: number): number {
  let score = 0;
  for (;;) {
    if (!spawn4(lo, hi)) return score;
    lo = OUT[0];
    hi = OUT[1];
    let n = 0;
    for (let d = 0; d < 4; d++) {
      const gained = executeMove(lo, hi, d);
      if (OUT[0] !== lo || OUT[1] !== hi) {
        legalLo[n] = OUT[0];
        legalHi[n] = OUT[1];
        legalScore[n] = gained;
        n++;
      }
    }
    if (n === 0) return score;
    const pick = n === 1 ? 0 : randomInt(n);
    lo = legalLo[pick];
    hi = legalHi[pick];
    score += legalScore[pick];
    movesPlayed++;
  }
}

/** The same on any size, on rank arrays; `spare` holds 5 scratch boards of the same size (reordered). */
function playoutG(rows: number, cols: number, board: Uint8Array, spare: Uint8Array[]): number {
  let score = 0;
  let length = 0;
  let current = spare[4];
  current.set(board);
  for (;;) {
    const empty = countEmptyRanks(current);
    if (empty === 0) return score;
    let k = randomInt(empty);
    const tile = randomUnit() < 0.9 ? 1 : 2;
    for (let i = 0; i < current.length; i++) {
      if (current[i] === 0 && k-- === 0) {
        current[i] = tile;
        break;
      }
    }
    let n = 0;
    const gains = legalScore;
    for (let d = 0; d < 4; d++) {
      const gained = moveRanks(rows, cols, current, spare[n], d);
      if (gained >= 0) {
        gains[n] = gained;
        n++;
      }
    }
    if (n === 0) return score;
    // Random games on big boards last very long: stop at a move cap and count the score so far.
    if (++length > MAX_PLAYOUT_MOVES) return score;
    const pick = n === 1 ? 0 : randomInt(n);
    score += gains[pick];
    // Swap the picked board in; the old current board becomes a spare.
    const next = spare[pick];
    spare[pick] = current;
    spare[4] = next;
    current = next;
    movesPlayed++;
  }
}

async function chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
  const started = now();
  const { ranks, roots } = prepare(grid, options, signal);
  const playouts = intOption(options?.playouts, DEFAULT_PLAYOUTS, 1, MAX_PLAYOUTS);
  const deadline = options?.timeMs !== undefined && options.timeMs > 0 ? started + options.timeMs : Infinity;
  const totals = [0, 0, 0, 0];
  let done = 0;
  let nodes = 0;
  const bit = fitsBitboard(grid);
  let lo = 0;
  let hi = 0;
  if (bit) {
    fromGrid(grid);
    lo = OUT[0];
    hi = OUT[1];
  }
  const cells = ranks.length;
  const spare = [0, 1, 2, 3, 4].map(() => new Uint8Array(cells));
  const start = new Uint8Array(cells);
  let rngState = seedOf(options) | 1;
  while (roots.length > 0 && done < playouts) {
    if (done > 0) {
      await yieldToEventLoop(signal);
      if (now() > deadline) break;
    } else {
      checkAbort(signal);
    }
    // Under a time budget, one playout per move per round so the deadline is seen soon even on big boards.
    const batch = Math.min(deadline === Infinity ? BATCH : 1, playouts - done);
    seed = rngState;
    movesPlayed = 0;
    for (const d of roots) {
      for (let k = 0; k < batch; k++) {
        if (bit) {
          const gained = executeMove(lo, hi, d);
          totals[d] += gained + playout4(OUT[0], OUT[1]);
        } else {
          const gained = moveRanks(grid.rows, grid.cols, ranks, start, d);
          totals[d] += gained + playoutG(grid.rows, grid.cols, start, spare);
        }
      }
    }
    rngState = seed;
    nodes += movesPlayed + batch * roots.length;
    done += batch;
  }
  const means = totals.map((t) => (done > 0 ? t / done : 0));
  return choice('montecarlo', valuesOf(roots, means), { depth: 0, nodes, started, samples: done });
}

export const montecarlo: Strategy = {
  name: 'montecarlo',
  label: 'Monte-Carlo playouts',
  description: 'Plays many random games after each move and picks the move whose games score best on average.',
  /** The playouts are its work; a time budget only cuts them short. */
  takes: ['playouts', 'timeMs'],
  split: 'playouts',
  chooseMove,
};
