/** Pieces every strategy shares: root-move selection, abort handling, yielding, building the MoveChoice. */
import type { Direction, Grid, MoveChoice, MoveValues, SearchEngine, SearchOptions, StrategyName } from '../types';
import { DIRECTIONS } from '../types';
import { gridToRanks } from '../grid';
import { canMoveRanks } from '../rules';

export function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

/** Throws the signal's reason (an AbortError) when it is aborted. */
export function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    signal.throwIfAborted();
  }
}

type Resume = () => void;
function macrotask(resume: Resume): void {
  const g = globalThis as { setImmediate?: (f: Resume) => unknown };
  if (typeof g.setImmediate === 'function') {
    g.setImmediate(resume);
    return;
  }
  if (typeof MessageChannel === 'function') {
    // Unlike nested setTimeout(0), a message is not clamped to 4 ms.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resume();
    };
    channel.port2.postMessage(null);
    return;
  }
  setTimeout(resume, 0);
}

/** Let the event loop run (a worker sees a cancel message), then throw if the search was aborted. */
export async function yieldToEventLoop(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => macrotask(resolve));
  checkAbort(signal);
}

export interface Prepared {
  /** Validated ranks of the grid. */
  readonly ranks: Uint8Array;
  /** Direction indexes (0 up, 1 down, 2 left, 3 right) to search: legal and in options.rootMoves. */
  readonly roots: number[];
}

/** Validate the grid and list the root moves to search (legal ones, restricted by options.rootMoves). */
export function prepare(grid: Grid, options: SearchOptions | undefined, signal: AbortSignal | undefined): Prepared {
  checkAbort(signal);
  const ranks = gridToRanks(grid);
  const allowed = options?.rootMoves;
  const roots: number[] = [];
  for (let d = 0; d < 4; d++) {
    if (allowed && !allowed.includes(DIRECTIONS[d])) continue;
    if (canMoveRanks(grid.rows, grid.cols, ranks, d)) roots.push(d);
  }
  return { ranks, roots };
}

/** The best move of some values: highest value, ties to the first in up, down, left, right order. */
export function bestOf(values: MoveValues): Direction | null {
  let best: Direction | null = null;
  let bestValue = -Infinity;
  for (const d of DIRECTIONS) {
    const v = values[d];
    if (v !== undefined && v > bestValue) {
      best = d;
      bestValue = v;
    }
  }
  return best;
}

export function valuesOf(roots: readonly number[], scores: ArrayLike<number>): MoveValues {
  const values: MoveValues = {};
  for (const d of roots) values[DIRECTIONS[d]] = scores[d];
  return values;
}

export function choice(
  strategy: StrategyName,
  values: MoveValues,
  fields: {
    depth: number;
    nodes: number;
    started: number;
    valuesByDepth?: MoveValues[];
    samples?: number;
    engine?: SearchEngine;
  },
): MoveChoice {
  const result: MoveChoice = {
    strategy,
    move: bestOf(values),
    values,
    depth: fields.depth,
    nodes: fields.nodes,
    ms: now() - fields.started,
    ...(fields.valuesByDepth ? { valuesByDepth: fields.valuesByDepth } : {}),
    ...(fields.samples !== undefined ? { samples: fields.samples } : {}),
    ...(fields.engine !== undefined ? { engine: fields.engine } : {}),
  };
  return result;
}

/** The time budget of a search: options.timeMs when positive, else the strategy's default. */
export function timeBudget(options: SearchOptions | undefined, fallback: number): number {
  return options?.timeMs !== undefined && options.timeMs > 0 ? options.timeMs : fallback;
}

/** How deep and how long to search: a fixed options.depth (clamped to 1..maxDepth, 3 when not a number),
 *  else iterative deepening up to maxDepth under options.timeMs or the strategy's default budget. */
export function depthPlan(
  options: SearchOptions | undefined,
  maxDepth: number,
  defaultTimeMs: number,
): { fixed: boolean; maxDepth: number; timeMs: number } {
  const fixed = options?.depth !== undefined;
  return {
    fixed,
    maxDepth: fixed ? intOption(options.depth, 3, 1, maxDepth) : maxDepth,
    timeMs: timeBudget(options, defaultTimeMs),
  };
}

/** An iterative-deepening search over the root moves (see deepen). */
export interface Deepening {
  readonly roots: readonly number[];
  readonly signal: AbortSignal | undefined;
  readonly started: number;
  /** Budget in ms from `started` (unused when `fixed`). */
  readonly timeMs: number;
  /** One search at maxDepth without a deadline, instead of deepening from depth 1. */
  readonly fixed: boolean;
  readonly maxDepth: number;
  /** Value of root move `dir` (0..3) searched to `depth`, giving up at `deadline`; undefined when it
   *  gave up (deadline or abort). Runs synchronously between two yields to the event loop. */
  searchRoot(dir: number, depth: number, deadline: number): number | undefined;
  /** After the iteration at `depth` completed (never when fixed): whether to search one deeper, given
   *  that iteration's duration and the time elapsed since `started`. */
  deeper(depth: number, values: MoveValues, iterationMs: number, elapsedMs: number): boolean;
}

/**
 * Iterative deepening under a time budget (or one fixed-depth search): each iteration searches every
 * root move, yielding to the event loop before each; an interrupted iteration is dropped and the last
 * completed one is the answer. Depth 1 runs without a deadline, so there is always a move. Throws when
 * aborted.
 */
export async function deepen(search: Deepening): Promise<{ values: MoveValues; depth: number }> {
  const { roots, signal, started, fixed, maxDepth } = search;
  const scores = [0, 0, 0, 0];
  let completed: MoveValues = {};
  let completedDepth = 0;
  for (let depth = fixed ? maxDepth : 1; depth <= maxDepth; depth++) {
    const iterationStart = now();
    const deadline = fixed || depth === 1 ? Infinity : started + search.timeMs;
    let interrupted = false;
    for (const d of roots) {
      await yieldToEventLoop(signal);
      const v = search.searchRoot(d, depth, deadline);
      if (v === undefined) {
        interrupted = true;
        break;
      }
      scores[d] = v;
    }
    if (interrupted) {
      checkAbort(signal);
      break;
    }
    completed = valuesOf(roots, scores);
    completedDepth = depth;
    if (fixed) break;
    const iterationMs = now() - iterationStart;
    if (!search.deeper(depth, completed, iterationMs, now() - started)) break;
  }
  return { values: completed, depth: completedDepth };
}

/** A positive integer option, clamped, or the default. */
export function intOption(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

/** One step of xorshift32, the generator of the strategies' sampling (greedy spawns, Monte-Carlo playouts). */
export function xorshift32(x: number): number {
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  return x;
}

export function seedOf(options: SearchOptions | undefined): number {
  const s = options?.seed;
  return s !== undefined && Number.isFinite(s) ? s | 0 : Math.floor(Math.random() * 4294967296) | 0;
}
