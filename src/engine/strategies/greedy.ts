/**
 * Greedy look-ahead: the best sequence of k moves, boards scored by a corner-gradient template ×
 * tile values (heuristics.ts). Spawns between the moves are sampled (a few random 2s/4s, averaged),
 * never chosen. Iterative deepening on k under options.timeMs (default 100 ms), or fixed options.depth.
 */
import type { Grid, MoveChoice, SearchOptions, Strategy } from '../types';
import * as rules from '../rules';
import * as heuristics from '../heuristics';
import { choice, deepen, depthPlan, now, prepare, seedOf } from './common';
import * as common from './common';
import { DEFAULT_TIME_MS } from '../limits';

const { countEmptyRanks, moveRanks } = rules;
const { xorshift32 } = common;
const { gradientScore, gradientTemplate } = heuristics;

const MAX_DEPTH = 8;
const SAMPLES = 4;
const CHECK_EVERY = 1024;

let rows = 0;
let cols = 0;
let template: Float64Array = new Float64Array(0);
let nodes = 0;
let deadline = Infinity;
let stopped = false;
let countdown = CHECK_EVERY;
let searchSignal: AbortSignal | undefined;
let seed = 1;

function randomInt(n: number): number {
  seed = xorshift32(seed);
  return ((seed >>> 0) * n) / 4294967296 | 0;
}

/** Value of moving `board` in `dir` with `k` moves (this one included) to look ahead; -1 when illegal. */
function moveValue(board: Uint8Array, dir: number, k: number): number {
  const moved = new Uint8Array(board.length);
  nodes++;
  if (moveRanks(rows, cols, board, moved, dir) < 0) return -1;
  if (k <= 1) return gradientScore(template, moved);
  if (--countdown <= 0) {
    countdown = CHECK_EVERY;
    if (searchSignal?.aborted || now() > deadline) stopped = true;
  }
  if (stopped) return 0;
  const empty = countEmptyRanks(moved);
  let total = 0;
  for (let s = 0; s < SAMPLES; s++) {
    let at = randomInt(empty);
    let cell = 0;
    for (let i = 0; i < moved.length; i++) {
      if (moved[i] === 0 && at-- === 0) {
        cell = i;
        break;
      }
    }
    moved[cell] = randomInt(10) === 0 ? 2 : 1;
    let best = 0; // no legal move: the game is over, the worst value
    for (let d = 0; d < 4; d++) {
      const v = moveValue(moved, d, k - 1);
      if (v > best) best = v;
    }
    moved[cell] = 0;
    total += best;
  }
  return total / SAMPLES;
}

async function chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
  const started = now();
  const { ranks, roots } = prepare(grid, options, signal);
  if (roots.length === 0) return choice('greedy', {}, { depth: 0, nodes: 0, started });
  const plan = depthPlan(options, MAX_DEPTH, DEFAULT_TIME_MS);
  let rng = seedOf(options) | 1;
  let totalNodes = 0;
  const { values, depth } = await deepen({
    roots,
    signal,
    started,
    ...plan,
    searchRoot(d, depth, rootDeadline) {
      rows = grid.rows;
      cols = grid.cols;
      template = gradientTemplate(rows, cols);
      nodes = 0;
      stopped = false;
      countdown = CHECK_EVERY;
      searchSignal = signal;
      seed = rng;
      deadline = rootDeadline;
      const v = moveValue(ranks, d, depth);
      rng = seed;
      totalNodes += nodes;
      searchSignal = undefined;
      return stopped ? undefined : v;
    },
    // The next depth costs about 4 moves × SAMPLES spawns times this one.
    deeper: (_depth, _values, iterationMs, elapsed) => elapsed + iterationMs * 4 * SAMPLES <= plan.timeMs,
  });
  return choice('greedy', values, { depth, nodes: totalNodes, started });
}

export const greedy: Strategy = {
  name: 'greedy',
  label: 'Greedy look-ahead',
  description: 'Tries short sequences of moves and keeps the big tiles gathered in a corner; quick and fairly strong.',
  takes: ['timeMs', 'depth'],
  split: 'root-moves',
  chooseMove,
};
