/**
 * Network: one look ahead with the learned evaluation — each legal move valued by the score it makes plus the
 * trained network's value of the board after it (docs: engine.md, "The learned evaluation"). No search: a move
 * takes microseconds. Where no network is loaded (yet: the first moves while it loads), or the board is not
 * 4x4, it plays expectimax on the corner-gradient heuristic at a fixed depth of FALLBACK_DEPTH (a millisecond or
 * so) and says so (evaluation: 'heuristic'). One look ahead on the heuristic lost the game at the 256 before a
 * network 7.6 s in loading was ready (a fresh browser, "Learned network (instant)", then Solve).
 */
import type { Grid, MoveChoice, MoveValues, SearchOptions, Strategy } from '../types';
import { DIRECTIONS } from '../types';
import { OUT, executeMove, fromGrid } from '../board';
import { evaluateBoard } from '../network/evaluate';
import { installedNetwork, networkCore } from '../network/installed';
import { bestOf, now, prepare } from './common';
import { expectimax } from './expectimax';

/** The depth of the heuristic search that stands in for the network where there is none. */
const FALLBACK_DEPTH = 2;

/**
 * The one-look-ahead values of the moves `roots` (direction indexes) on a 4x4 grid with the installed
 * network: each move's score plus the network's value of the board after it. Null without a network or on
 * another size. The network strategy plays by these; the chance meter (../chance.ts) maps them to chances.
 */
export function networkMoveValues(grid: Grid, roots: readonly number[]): MoveValues | null {
  const net = installedNetwork();
  if (!net || grid.rows !== 4 || grid.cols !== 4) return null;
  const core = networkCore();
  fromGrid(grid);
  const lo = OUT[0];
  const hi = OUT[1];
  const values: MoveValues = {};
  for (const d of roots) {
    const score = executeMove(lo, hi, d);
    const afterLo = OUT[0] >>> 0;
    const afterHi = OUT[1] >>> 0;
    values[DIRECTIONS[d]] = Math.fround(score + (core ? core.networkValueOf(afterLo, afterHi) : evaluateBoard(net, afterLo, afterHi)));
  }
  return values;
}

export const network: Strategy = {
  name: 'network',
  label: 'Learned network (instant)',
  description: 'Plays the move whose score plus the trained network\u2019s value of the board after it is highest: no search, a move in microseconds.',
  takes: [],
  split: 'single',
  usesNetwork: true,
  async chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
    const started = now();
    const { roots } = prepare(grid, options, signal);
    const net = installedNetwork();
    if (!net || grid.rows !== 4 || grid.cols !== 4) {
      const choice = await expectimax.chooseMove(grid, { ...options, depth: FALLBACK_DEPTH, timeMs: undefined }, signal);
      return { ...choice, strategy: 'network', evaluation: 'heuristic' };
    }
    const values = networkMoveValues(grid, roots) ?? {};
    return { strategy: 'network', move: bestOf(values), values, depth: 1, nodes: roots.length, ms: now() - started, evaluation: 'network' };
  },
};
