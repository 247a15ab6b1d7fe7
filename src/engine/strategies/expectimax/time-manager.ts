/**
 * The time manager of expectimax on the WebAssembly core: iterative deepening that spends a move's time
 * budget (docs: engine.md, "The time manager"). Its tuning constants are one config object,
 * TIME_MANAGER_CONFIG; what it learns over a thread's searches (how the work grows per layer and per finer
 * cut-off, how late the thread comes back from a stop, the depth reached lately) is the state of one
 * TimeManager per thread.
 */
import type { MoveChoice, MoveValues, SearchOptions } from '../../types';
import { DIRECTIONS } from '../../types';
import type { WasmCore } from '../../wasm/core';
import { bestOf, checkAbort, choice, now, valuesOf, yieldToEventLoop } from '../common';
import { PROB_THRESHOLD } from './ts-search';

export interface TimeManagerConfig {
  /** The core's transposition table in play: 2^tableLog2 entries of 16 bytes (21: 32 MiB per worker). */
  readonly tableLog2: number;
  /** The hard stop comes at this share of the budget, less deadlineMarginMs (the answer still has to be
   *  posted, and a busy machine may not schedule the thread exactly at the deadline). */
  readonly deadlineShare: number;
  readonly deadlineMarginMs: number;
  /** The hard stop never comes before this share of the budget, however late the thread has been. */
  readonly minDeadlineShare: number;
  /** How late the thread came back from a stopped search is a decaying maximum: up at once, down by this
   *  factor per stopped search; the hard stop comes that much before the budget's end. */
  readonly latenessDecay: number;
  /** The best move's search costs about this many times an average root move's. */
  readonly pvShare: number;
  /** Iterations of at least this many move executions tell how the work grows (smaller ones are mostly
   *  overhead, and never stop the deepening). */
  readonly growthSampleMin: number;
  /** The learnt growth: each new sample weighs growthSampleWeight, the estimate so far growthMemory. */
  readonly growthMemory: number;
  readonly growthSampleWeight: number;
  /** Bounds of the learnt growth per layer and per finer cut-off (ratios of move executions). */
  readonly minLayerGrowth: number;
  readonly minCutoffGrowth: number;
  readonly maxGrowth: number;
  /** Starting estimates of the growth per layer and per finer cut-off. */
  readonly initialLayerGrowth: number;
  readonly initialCutoffGrowth: number;
  /** An iteration whose work grew by at most this factor is bounded by the cut-off: a layer adds nothing. */
  readonly saturatedGrowth: number;
  /** Finer cut-offs (and the saturation test) start at this depth. */
  readonly minFinerDepth: number;
  /** A finer step divides the probability cut-off by this, down to minCutoff. */
  readonly cutoffDivisor: number;
  readonly minCutoff: number;
  /** The deepest layer (the core caches chance nodes down to layer 15). */
  readonly maxDepth: number;
  /** A move not searched at the last, cut iteration keeps its shallower value, held below the best's by this factor. */
  readonly heldBelowBest: number;
  /** The depth reached lately: a moving average (memory, sample weight) over the searches not extended,
   *  starting at initialRecentDepth. */
  readonly recentDepthMemory: number;
  readonly recentDepthSampleWeight: number;
  readonly initialRecentDepth: number;
  /**
   * Time where it matters (with the learned evaluation, whose shallow values are good: spendBudget's `easy`):
   * once easyMinDepth is complete, a search's deadline comes at its position's share of the budget — calm positions (many empty cells, where no move loses the game) take a
   * small share, cramped ones all of it; a clearly best move (ahead of the second by clearMargin of its
   * value) ends the search at clearShare.
   */
  readonly easyMinDepth: number;
  /** [at least this many empty cells, share of the budget], most empty first; fewer cells: the whole budget. */
  readonly calmShares: readonly (readonly [number, number])[];
  readonly clearMargin: number;
  readonly clearShare: number;
  /**
   * The opening: while the largest tile is below 2^openingRank (11: the 2048), a position gets at most
   * openingShare of the budget — no game is decided there (docs: engine.md, "Time where it matters"), and
   * people watch it to see the 2048 come.
   */
  readonly openingRank: number;
  readonly openingShare: number;
}

const TIME_MANAGER_CONFIG: TimeManagerConfig = Object.freeze<TimeManagerConfig>({
  tableLog2: 21,
  deadlineShare: 0.97,
  deadlineMarginMs: 1,
  minDeadlineShare: 0.75,
  latenessDecay: 0.9,
  pvShare: 1.5,
  growthSampleMin: 20_000,
  growthMemory: 0.8,
  growthSampleWeight: 0.2,
  minLayerGrowth: 1.5,
  minCutoffGrowth: 1.1,
  maxGrowth: 20,
  initialLayerGrowth: 6,
  initialCutoffGrowth: 2,
  saturatedGrowth: 1.1,
  minFinerDepth: 3,
  cutoffDivisor: 4,
  minCutoff: 1e-9,
  maxDepth: 16,
  heldBelowBest: 0.999999,
  recentDepthMemory: 0.9,
  recentDepthSampleWeight: 0.1,
  initialRecentDepth: 8,
  easyMinDepth: 1,
  calmShares: [
    [8, 0.03],
    [6, 0.06],
    [4, 0.2],
    [3, 0.5],
  ],
  clearMargin: 0.02,
  clearShare: 0.1,
  openingRank: 11,
  openingShare: 0.1,
});

/** Empty cells of a 4x4 bitboard given as two 32-bit halves. */
function emptyCells(lo: number, hi: number): number {
  let n = 0;
  for (let i = 0; i < 8; i++) {
    if (((lo >>> (4 * i)) & 0xf) === 0) n++;
    if (((hi >>> (4 * i)) & 0xf) === 0) n++;
  }
  return n;
}

/** The largest rank (log2 of the largest tile) of a 4x4 bitboard given as two 32-bit halves. */
function largestRank(lo: number, hi: number): number {
  let rank = 0;
  for (let i = 0; i < 8; i++) rank = Math.max(rank, (lo >>> (4 * i)) & 0xf, (hi >>> (4 * i)) & 0xf);
  return rank;
}

/**
 * The share of its budget a search of this position may stop at once its best move is settled (see
 * TimeManagerConfig.calmShares, clearMargin and openingShare): 1 when it must spend it all.
 */
export function easyShare(
  config: Pick<TimeManagerConfig, 'calmShares' | 'clearMargin' | 'clearShare'> & Partial<Pick<TimeManagerConfig, 'openingRank' | 'openingShare'>>,
  lo: number,
  hi: number,
  values: MoveValues,
): number {
  const empty = emptyCells(lo, hi);
  let share = 1;
  for (const [cells, calm] of config.calmShares) {
    if (empty >= cells) {
      share = calm;
      break;
    }
  }
  const sorted = Object.values(values)
    .filter((v): v is number => v !== undefined)
    .sort((a, b) => b - a);
  if (sorted.length >= 2 && sorted[0] - sorted[1] >= config.clearMargin * Math.abs(sorted[0])) share = Math.min(share, config.clearShare);
  if (config.openingRank !== undefined && config.openingShare !== undefined && largestRank(lo, hi) < config.openingRank) share = Math.min(share, config.openingShare);
  return share;
}

/** options.maxNodes: the move executions a timed search may do in all (Infinity when not given). */
export function nodeBudget(options: SearchOptions | undefined): number {
  const n = options?.maxNodes;
  return n !== undefined && Number.isFinite(n) && n >= 0 ? Math.floor(n) : Infinity;
}

/**
 * Whether a search that has spent its budget is worth more time (options.extraMs): its best move changed
 * at its last completed depth, or it completed a layer less than this thread's searches lately (a big
 * tree, where the reference's depth rule would search longest). Below depth 3 a search has seen nothing.
 */
export function worthExtending(valuesByDepth: readonly MoveValues[], depth: number, recentDepth: number): boolean {
  if (depth < 3) return true;
  if (depth < recentDepth - 1) return true;
  return bestOf(valuesByDepth[depth] ?? {}) !== bestOf(valuesByDepth[depth - 1] ?? {});
}

/** One iteration of the deepening: the root moves searched to a depth, best first. */
export interface IterationRunner {
  /**
   * Search the moves of `order` (best first) to `depth` layers at the probability cut-off `cutoff`, stopping at
   * `deadline` (ms, this thread's clock; Infinity: never) or past `maxExecutions` move executions. `done`: the
   * moves searched completely, a prefix of `order` (all of it unless stopped), their values in `scores`.
   */
  run(order: readonly number[], depth: number, cutoff: number, deadline: number, maxExecutions: number): Promise<{ done: number[]; scores: number[]; executions: number }>;
}

/**
 * The iterations of one core on its play table (set up here for a new decision: `options.ttSizeLog2`, else
 * the config's size): each root move in turn, letting the event loop run between them.
 */
export function coreIterations(core: WasmCore, lo: number, hi: number, options: SearchOptions | undefined, signal: AbortSignal | undefined): IterationRunner {
  core.ttConfigure(options?.ttSizeLog2 ?? TIME_MANAGER_CONFIG.tableLog2, false);
  core.ttAgeTick();
  return {
    async run(order, depth, cutoff, deadline, maxExecutions) {
      const done: number[] = [];
      const scores = [0, 0, 0, 0];
      let executions = 0;
      for (const dir of order) {
        await yieldToEventLoop(signal);
        const budgeted = maxExecutions !== Infinity;
        if (budgeted) core.setExecutionLimit(Math.max(0, maxExecutions - executions));
        const v = core.searchRoot(lo, hi, dir, depth, deadline, false, cutoff);
        if (budgeted) core.setExecutionLimit(Infinity);
        executions += core.lastExecutions();
        if (Number.isNaN(v)) break;
        done.push(dir);
        scores[dir] = v;
      }
      return { done, scores, executions };
    },
  };
}

export class TimeManager {
  /** How late this thread has come back from a search stopped at its hard stop (ms). */
  private lateness = 0;
  /** Work growth per added layer, learnt over this thread's searches (ratio of move executions). */
  private layerGrowth: number;
  /** Work growth when the cut-off is divided by cutoffDivisor, learnt the same way. */
  private cutoffGrowth: number;
  /** The depth this thread's searches reached within their budget lately (see worthExtending). */
  recentDepth: number;

  constructor(private readonly config: TimeManagerConfig = TIME_MANAGER_CONFIG) {
    this.layerGrowth = config.initialLayerGrowth;
    this.cutoffGrowth = config.initialCutoffGrowth;
    this.recentDepth = config.initialRecentDepth;
  }

  /**
   * Iterative deepening on the WebAssembly core that spends the time budget:
   * - the transposition table is kept across iterations and across moves (entries hold the remaining depth
   *   they were searched to, and serve any search needing no more), bounded at 32 MiB, in buckets of 4 where
   *   a new entry replaces the one with the least remaining depth, less 4 layers per decision since it was
   *   stored (ttAgeTick: each decision is one); an entry of an earlier decision or cut-off serves only a node
   *   it pruned no more than (its cumulative probability over the cut-off, recorded in the entry): one of
   *   the decision before, one move further from its root, was pruned harder, and without that rule a lower
   *   cut-off read the higher one's values back and searched nothing;
   * - each iteration searches the root moves best first (by the previous iteration's values);
   * - the next step is one layer more, or, when a layer does not fit or adds nothing (the probability cut-off
   *   bounds the tree), the same depth with the cut-off divided by 4 (a finer step); each step's cost is
   *   predicted from the last iteration's time and the growth of move executions learnt over the searches;
   *   a step starts when the best move's share of it fits before the deadline (deadlineShare of the budget);
   * - an iteration cut short at the deadline still counts when it completed the previous best move: a move
   *   that then scored better replaces it (the moves it completed carry the new values);
   * - with options.extraMs, a search that would stop at its hard stop goes on to a deadline that much later
   *   when worthExtending says the move is hard (once per search; the caller pays it from its bank).
   * Each iteration is run by `iterations`: one core searching the root moves in turn (coreIterations), or
   * several threads sharing each root move (src/engine/split-session.ts).
   */
  async spendBudget(
    iterations: IterationRunner,
    lo: number,
    hi: number,
    roots: readonly number[],
    timeMs: number,
    options: SearchOptions | undefined,
    signal: AbortSignal | undefined,
    started: number,
    easy = true,
  ): Promise<MoveChoice> {
    const c = this.config;
    // The hard stop: deadlineShare of the budget, or earlier by the lateness seen lately, so that the answer
    // comes within the budget even when the thread is descheduled at the deadline.
    const stopShare = Math.max(
      c.minDeadlineShare * timeMs,
      Math.min(timeMs * c.deadlineShare - c.deadlineMarginMs, timeMs - c.deadlineMarginMs - this.lateness),
    );
    let deadline = started + stopShare;
    // A hard move may go on past the hard stop by options.extraMs (given from the game's bank).
    const extraMs = Number.isFinite(options?.extraMs) ? Math.max(0, options?.extraMs ?? 0) : 0;
    let extended = false;
    const maxExecutions = nodeBudget(options);
    // Tests and exact measurements fix the work (maxNodes): no easy stop then.
    const easyStops = easy && maxExecutions === Infinity && options?.easyStops !== false;
    let order = [...roots];
    const scores = [0, 0, 0, 0];
    let completed: MoveValues = {};
    let completedDepth = 0;
    let move: number | null = null;
    let executions = 0;
    const valuesByDepth: MoveValues[] = [{}];
    const iterationExecutions: number[] = [];
    const iterationMs: number[] = [];
    let depth = 1;
    let cutoff = PROB_THRESHOLD;
    let lastStep: 'layer' | 'cutoff' = 'layer';
    for (;;) {
      const iterationStart = now();
      const before = executions;
      const iteration = await iterations.run(order, depth, cutoff, depth === 1 ? Infinity : deadline, depth > 1 ? maxExecutions - executions : Infinity);
      executions += iteration.executions;
      const deeper = iteration.done;
      for (const dir of deeper) scores[dir] = iteration.scores[dir];
      const interrupted = deeper.length < order.length;
      if (interrupted) {
        const late = now() - deadline;
        if (late >= 0) this.lateness = Math.max(late, this.lateness * c.latenessDecay);
        checkAbort(signal);
        // Cut at the hard stop on a hard move: go on with the extra time, the same step again (what it had
        // searched is in the table).
        if (!extended && extraMs > 0 && executions < maxExecutions && worthExtending(valuesByDepth, completedDepth, this.recentDepth)) {
          extended = true;
          deadline += extraMs;
          continue;
        }
        // The previous best was searched first: a completed move beating it at this depth replaces it.
        if (deeper.length >= 2 && move !== null) {
          let best = deeper[0];
          for (const dir of deeper) if (scores[dir] > scores[best]) best = dir;
          const partial: MoveValues = { ...completed };
          for (const dir of deeper) partial[DIRECTIONS[dir]] = scores[dir];
          // The moves not searched at this depth keep their shallower values, held below the best one's.
          for (const dir of roots) {
            const key = DIRECTIONS[dir];
            if (!deeper.includes(dir) && (partial[key] ?? 0) >= scores[best]) partial[key] = Math.fround(scores[best] * c.heldBelowBest);
          }
          completed = partial;
          move = best;
        }
        break;
      }
      completed = valuesOf(roots, scores);
      completedDepth = depth;
      valuesByDepth[depth] = completed;
      // An easy position: its share of the budget is its deadline from here on.
      if (easyStops && depth >= c.easyMinDepth) {
        const soft = started + timeMs * easyShare(c, lo, hi, completed);
        if (now() >= soft) break;
        deadline = Math.min(deadline, soft);
      }
      order = [...roots].sort((a, b) => scores[b] - scores[a]);
      move = order[0];
      iterationExecutions.push(executions - before);
      iterationMs.push(now() - iterationStart);
      const n = iterationExecutions.length;
      const last = iterationExecutions[n - 1];
      const previous = n >= 2 ? iterationExecutions[n - 2] : 0;
      // Learn what one more layer / a lower cut-off costs from iterations that did real work (not table hits).
      if (previous >= c.growthSampleMin && last >= previous) {
        const ratio = last / previous;
        const learnt = (estimate: number, min: number): number =>
          Math.min(c.maxGrowth, Math.max(min, c.growthMemory * estimate + c.growthSampleWeight * ratio));
        if (lastStep === 'layer') this.layerGrowth = learnt(this.layerGrowth, c.minLayerGrowth);
        else if (lastStep === 'cutoff') this.cutoffGrowth = learnt(this.cutoffGrowth, c.minCutoffGrowth);
      }
      // Start a step when the best move's share of it fits (searched first, it counts even if the rest is cut).
      // A small iteration's time is mostly overhead (yields, a busy machine), not work: never stop on it.
      const fits = (growth: number, left: number): boolean =>
        last < c.growthSampleMin || (iterationMs[n - 1] * growth * c.pvShare) / Math.max(1, order.length) <= left;
      const layerGrowth = lastStep === 'layer' && previous >= c.growthSampleMin && last > previous ? Math.max(this.layerGrowth, last / previous) : this.layerGrowth;
      // When the probability cut-off bounds the tree (the work stopped growing) a layer adds nothing.
      const saturated = depth >= c.minFinerDepth && last >= c.growthSampleMin && last <= previous * c.saturatedGrowth;
      const nextStep = (): 'layer' | 'cutoff' | null => {
        const left = deadline - now();
        if (left <= 0) return null;
        if (!saturated && depth < c.maxDepth && fits(layerGrowth, left)) return 'layer';
        if (depth >= c.minFinerDepth && cutoff >= c.minCutoff && fits(this.cutoffGrowth, left)) return 'cutoff';
        return null;
      };
      let step = nextStep();
      if (step === null && !extended && extraMs > 0 && worthExtending(valuesByDepth, completedDepth, this.recentDepth)) {
        deadline += extraMs;
        step = nextStep();
        if (step === null) deadline -= extraMs;
        else extended = true;
      }
      if (step === 'layer') {
        depth++;
        lastStep = 'layer';
      } else if (step === 'cutoff') {
        // A finer step than a layer: the same depth with a lower cut-off.
        cutoff = Math.fround(cutoff / c.cutoffDivisor);
        lastStep = 'cutoff';
      } else {
        break;
      }
    }
    if (!extended) this.recentDepth = c.recentDepthMemory * this.recentDepth + c.recentDepthSampleWeight * completedDepth;
    const result = choice('expectimax', completed, { depth: completedDepth, nodes: executions, started, valuesByDepth, engine: 'wasm' });
    return extended ? { ...result, extended: true } : result;
  }
}
