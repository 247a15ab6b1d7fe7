/**
 * A split session: expectimax's decisions with a time budget searched by several threads together on one
 * transposition table (src/engine/split.ts), the way the extension's defaults and the CLI's `--threads` play.
 *
 * The deepening is the time manager's (./strategies/expectimax/time-manager.ts: its easy stops, finer
 * cut-offs, hard stop and bank extensions), with each iteration shared: the root moves best first, every
 * thread taking the spawn children of the first move not yet taken (sequentialPlan), so that the moves
 * complete one after another as on one thread and an iteration stopped at the deadline has completed a
 * prefix of them. Each iteration gets table generations of its own (an entry of a coarser cut-off must not
 * serve a finer one). The threads themselves belong to the host (SplitHost): worker_threads in the CLI
 * (src/cli/split-pool.ts), the solver's Web Workers in the extension (src/solver/split-host.ts).
 */
import type { Evaluation, Grid, MoveChoice, MoveValues, SearchOptions } from './types';
import { DIRECTIONS } from './types';
import { fitsBitboard, fromGrid, OUT } from './board';
import { sequentialPlan } from './split';
import type { SplitPlan } from './split';
import { checkAbort, choice, now, prepare, timeBudget } from './strategies/common';
import { DEFAULT_TIME_MS } from './limits';
import { TimeManager } from './strategies/expectimax/time-manager';

/** One split search as the host runs it on its threads. */
export interface SplitSearch {
  readonly grid: Grid;
  readonly plan: SplitPlan;
  /** Depth limit in layers. */
  readonly limit: number;
  /** The probability cut-off (0: the reference's). */
  readonly cutoff: number;
  /** When the threads stop: ms on the clock of the thread that calls the host (performance.now()); Infinity: never. */
  readonly deadline: number;
  /** Value leaves with the learned network (the host has one) or with the heuristic. */
  readonly network: boolean;
}

/** What runs split searches: a fixed set of threads on one shared memory. */
export interface SplitHost {
  readonly threads: number;
  /** Whether the threads' shared memory holds a learned network. */
  readonly hasNetwork: boolean;
  /** Every thread's share of one search; resolves once all have returned, with the values of the moves whose
   *  children were all searched (mergeSearched) and the move executions by direction. */
  search(job: SplitSearch): Promise<{ values: MoveValues; executions: readonly number[] }>;
}

/** Can a split session search `grid` with `options` (a 4x4 board the 64-bit board holds, a time budget or a depth)? */
export function splitSearchable(grid: Grid, options: SearchOptions | undefined): boolean {
  return fitsBitboard(grid) && !options?.reference;
}

export class SplitSession {
  /** What the session learns from search to search (how the work grows, how late the threads stop). */
  private readonly manager = new TimeManager();

  constructor(private readonly host: SplitHost) {}

  /** expectimax's choice of `grid` (see splitSearchable) searched on the host's threads. */
  async chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice> {
    const started = now();
    if (!splitSearchable(grid, options)) throw new RangeError('SplitSession: needs a 4x4 board with tiles up to 32768, not the reference configuration');
    const { roots } = prepare(grid, options, signal);
    const network = this.host.hasNetwork && (options?.evaluation ?? 'network') === 'network';
    const evaluation: Evaluation = network ? 'network' : 'heuristic';
    if (roots.length === 0) return { ...choice('expectimax', {}, { depth: 0, nodes: 0, started, engine: 'wasm' }), evaluation };
    fromGrid(grid);
    const lo = OUT[0] >>> 0;
    const hi = OUT[1] >>> 0;
    const scores = [0, 0, 0, 0];
    const iterations = {
      run: async (order: readonly number[], limit: number, cutoff: number, deadline: number) => {
        const plan = sequentialPlan(grid, order);
        const { values, executions } = await this.host.search({ grid, plan, limit, cutoff, deadline, network });
        checkAbort(signal);
        const done: number[] = [];
        for (const dir of plan.dirs) {
          const value = values[DIRECTIONS[dir]];
          if (value === undefined) break;
          done.push(dir);
          scores[dir] = value;
        }
        return { done, scores, executions: executions.reduce((a, b) => a + b, 0) };
      },
    };
    if (options?.depth !== undefined) {
      const limit = Math.max(1, Math.min(16, Math.floor(options.depth)));
      const { done, executions } = await iterations.run(roots, limit, 0, Infinity);
      const values: MoveValues = {};
      for (const dir of done) values[DIRECTIONS[dir]] = scores[dir];
      return { ...choice('expectimax', values, { depth: limit, nodes: executions, started, engine: 'wasm' }), evaluation };
    }
    const timeMs = timeBudget(options, DEFAULT_TIME_MS);
    const found = await this.manager.spendBudget(iterations, lo, hi, roots, timeMs, options, signal, started, network);
    return { ...found, evaluation };
  }
}
