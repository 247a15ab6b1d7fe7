/**
 * Minimax with alpha-beta: the player maximises, the opponent places the worst 2 or 4 among its most
 * annoying placements. Evaluation: weighted smoothness, monotonicity, ln(empty cells) and max rank (heuristics.ts).
 * Iterative deepening under options.timeMs (default 100 ms), or a fixed options.depth (player moves).
 * Works on rank arrays, so on every board size.
 */
import type { Grid, MoveChoice, SearchOptions, Strategy } from '../types';
import * as rules from '../rules';
import * as heuristics from '../heuristics';
import { choice, deepen, depthPlan, now, prepare } from './common';
import { DEFAULT_TIME_MS } from '../limits';

const { moveRanks } = rules;
const { islands, minimaxEvaluation, smoothness } = heuristics;

const MAX_DEPTH = 12;
/** Penalty for a board where the player cannot move: large, yet graded by the evaluation so that
 *  a pessimistic search that sees a loss everywhere still prefers the better boards. */
const LOSS_PENALTY = 100;
const CHECK_EVERY = 2048;

let rows = 0;
let cols = 0;
let nodes = 0;
let deadline = Infinity;
let stopped = false;
let countdown = CHECK_EVERY;
let searchSignal: AbortSignal | undefined;

function poll(): void {
  countdown = CHECK_EVERY;
  if (searchSignal?.aborted || now() > deadline) stopped = true;
}

/** Player to move with `depth` player moves left. */
function maxNode(board: Uint8Array, depth: number, alpha: number, beta: number): number {
  if (depth === 0) return minimaxEvaluation(rows, cols, board);
  if (--countdown <= 0) poll();
  if (stopped) return 0;
  let best = -Infinity;
  const next = new Uint8Array(board.length);
  for (let d = 0; d < 4; d++) {
    nodes++;
    if (moveRanks(rows, cols, board, next, d) < 0) continue;
    const v = minNode(next, depth - 1, alpha, beta);
    if (v > best) best = v;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return best === -Infinity ? minimaxEvaluation(rows, cols, board) - LOSS_PENALTY : best;
}

/**
 * Opponent places a 2 or a 4 (ranks 1, 2) in an empty cell. As in the published player, it considers
 * only its most annoying placements (the least smooth, most scattered boards: max of −smoothness +
 * islands), and among those the one worst for the player.
 */
function minNode(board: Uint8Array, depth: number, alpha: number, beta: number): number {
  if (depth === 0) return minimaxEvaluation(rows, cols, board);
  let worst = -Infinity;
  const candidates: number[] = [];
  for (let i = 0; i < board.length; i++) {
    if (board[i] !== 0) continue;
    for (let t = 1; t <= 2; t++) {
      board[i] = t;
      const annoyance = -smoothness(rows, cols, board) + islands(rows, cols, board);
      board[i] = 0;
      if (annoyance > worst) {
        worst = annoyance;
        candidates.length = 0;
      }
      if (annoyance === worst) candidates.push(i * 4 + t);
    }
  }
  let best = Infinity;
  for (const code of candidates) {
    const i = code >> 2;
    board[i] = code & 3;
    const v = maxNode(board, depth, alpha, beta);
    board[i] = 0;
    if (stopped) return 0;
    if (v < best) best = v;
    if (best < beta) beta = best;
    if (alpha >= beta) break;
  }
  return best;
}

function searchRoot(ranks: Uint8Array, dir: number, depth: number): number {
  const next = new Uint8Array(ranks.length);
  nodes++;
  moveRanks(rows, cols, ranks, next, dir);
  return minNode(next, depth - 1, -Infinity, Infinity);
}

async function chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
  const started = now();
  const { ranks, roots } = prepare(grid, options, signal);
  if (roots.length === 0) return choice('minimax', {}, { depth: 0, nodes: 0, started });
  const plan = depthPlan(options, MAX_DEPTH, DEFAULT_TIME_MS);
  let totalNodes = 0;
  const { values, depth } = await deepen({
    roots,
    signal,
    started,
    ...plan,
    searchRoot(d, depth, rootDeadline) {
      rows = grid.rows;
      cols = grid.cols;
      nodes = 0;
      stopped = false;
      countdown = CHECK_EVERY;
      searchSignal = signal;
      deadline = rootDeadline;
      const v = searchRoot(ranks, d, depth);
      totalNodes += nodes;
      searchSignal = undefined;
      return stopped ? undefined : v;
    },
    // Alpha-beta keeps the growth per depth near 3.
    deeper: (_depth, _values, iterationMs, elapsed) => elapsed + iterationMs * 3 <= plan.timeMs,
  });
  return choice('minimax', values, { depth, nodes: totalNodes, started });
}

export const minimax: Strategy = {
  name: 'minimax',
  label: 'Minimax (alpha-beta)',
  description: 'Assumes the worst tile always appears in the worst place (alpha-beta search); cautious and steady.',
  takes: ['timeMs', 'depth'],
  split: 'root-moves',
  chooseMove,
};
