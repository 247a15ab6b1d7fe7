/**
 * The engine's public vocabulary. Everything above the engine (solver pool, content script, popup, CLI)
 * speaks in these types; the bitboard stays an internal detail of the engine.
 *
 * Pure TypeScript: no DOM, no chrome.*, no Node-only APIs.
 */
import type { ChanceEstimate } from './chance';

export const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** A board as a page shows it: tile values row-major from the top-left, 0 for an empty cell. */
export interface Grid {
  readonly rows: number;
  readonly cols: number;
  readonly cells: readonly number[];
}

export const STRATEGY_NAMES = ['expectimax', 'network', 'montecarlo', 'minimax', 'greedy', 'priority', 'random'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

export interface SearchOptions {
  /** Think-time budget in milliseconds (iterative deepening returns the best completed depth). */
  readonly timeMs?: number;
  /** Fixed search depth (move layers); overrides the time budget where a strategy has depth. */
  readonly depth?: number;
  /** Monte-Carlo playouts per legal move (default 100, at most 100 000). */
  readonly playouts?: number;
  /** Seed for strategies that draw random numbers (montecarlo, greedy spawn sampling, random). */
  readonly seed?: number;
  /** Restrict the root moves searched: the worker pool splits one search over workers this way. */
  readonly rootMoves?: readonly Direction[];
  /** Expectimax: follow the reference configuration exactly (docs: engine.md, "The search") (no time budget, reference depth). */
  readonly reference?: boolean;
  /**
   * Expectimax: what values its leaves — the learned network (the default where one is loaded, on 4x4
   * boards with the WebAssembly core) or the heuristic. The reference configuration always uses the heuristic.
   */
  readonly evaluation?: Evaluation;
  /** Expectimax: log2 of the transposition-table capacity in entries (bounded memory). */
  readonly ttSizeLog2?: number;
  /**
   * Expectimax with a time budget: stop deepening once the search has done this many move executions in
   * all (the iteration under way is abandoned, as at the deadline). A deterministic budget, for tests and
   * reproducible runs; the first iteration always completes.
   */
  readonly maxNodes?: number;
  /**
   * Expectimax with a time budget on the WebAssembly core: up to this many more milliseconds this move may
   * take when the search finds it hard (its best move changed at the last depth, or it reached less depth
   * than the moves before). The caller gives it from what earlier moves left of their budget (a per-game
   * bank), so that the game's mean stays within timeMs.
   */
  readonly extraMs?: number;
  /**
   * Expectimax with a time budget on the WebAssembly core: end the search before its budget in an easy
   * position (its best move settled; the calmer the position or the clearer the best move, the sooner).
   * Default true; false spends every budget (the behaviour before, for comparisons).
   */
  readonly easyStops?: boolean;
}

/**
 * The weights of expectimax's line heuristic: `lost + empty·E + merges·M − monotonicity·min(monoL, monoR)
 * − sum·S` per row and column, monoL/monoR summing rank^monotonicityPower differences, S = Σ rank^sumPower
 * (the reference solver's form; docs: engine.md, "The heuristic evaluation").
 */
export interface HeuristicWeights {
  readonly lost: number;
  readonly empty: number;
  readonly merges: number;
  readonly monotonicity: number;
  readonly monotonicityPower: number;
  readonly sum: number;
  readonly sumPower: number;
}

/** Value of each legal move (higher is better); illegal moves are absent. */
export type MoveValues = Partial<Record<Direction, number>>;

export interface MoveChoice {
  readonly strategy: StrategyName;
  /** The chosen move, or null when no move changes the board (game over). */
  readonly move: Direction | null;
  readonly values: MoveValues;
  /** Search depth reached (completed), in move layers; 0 where a strategy has no depth. */
  readonly depth: number;
  /** Nodes (or moves applied) the search visited. */
  readonly nodes: number;
  /** Wall time in milliseconds. */
  readonly ms: number;
  /** Expectimax with iterative deepening: values at each completed depth (index = depth). */
  readonly valuesByDepth?: readonly MoveValues[];
  /** Monte-Carlo: playouts per move, so that partial results from several workers can be merged. */
  readonly samples?: number;
  /** Expectimax: which search core ran it ('wasm' = the WebAssembly core, 'ts' = the TypeScript one). */
  readonly engine?: SearchEngine;
  /** Expectimax: true when the search found the move hard and took some of options.extraMs. */
  readonly extended?: boolean;
  /** What valued the positions: the learned network, or the heuristic (no network loaded, or not 4x4). */
  readonly evaluation?: Evaluation;
  /** True when the move came from an endgame table (the CLI's --tables), not from a search. */
  readonly table?: boolean;
  /** The chance meter's estimate for the board searched (../chance.ts; the solver's workers add it). */
  readonly chance?: ChanceEstimate;
}

/** The evaluations of positions: the learned n-tuple network, or the hand-made heuristic. */
export const EVALUATIONS = ['network', 'heuristic'] as const;
export type Evaluation = (typeof EVALUATIONS)[number];

/** The expectimax search cores: the WebAssembly core (4x4) and the TypeScript engine (any size). */
export type SearchEngine = 'wasm' | 'ts';

/** The search options a strategy reads (the others it ignores): the popup shows and the CLI checks these. */
export type SearchKnob = 'timeMs' | 'depth' | 'playouts' | 'reference' | 'evaluation' | 'easyStops';

/**
 * How the worker pool splits one search of a strategy over workers:
 * - `root-moves`: one part per legal root move (round-robin over the workers), merged by value;
 * - `playouts`: the playouts shared out, each part with its own seed, merged weighted by samples;
 * - `single`: one worker (the strategy is instant).
 * A new way to split (say root move × spawn cell) is one more member here and one more case in the
 * pool's planParts.
 */
type SearchSplit = 'root-moves' | 'playouts' | 'single';

/** What a strategy says about itself: the registry, the pool, the popup and the CLI read this. */
export interface StrategyDescriptor {
  readonly name: StrategyName;
  /** A short name for menus. */
  readonly label: string;
  /** One sentence on how it plays. */
  readonly description: string;
  readonly takes: readonly SearchKnob[];
  readonly split: SearchSplit;
  /** The strategy evaluates with the learned network where one is loaded (a host loads it before its first search). */
  readonly usesNetwork?: boolean;
}

export interface Strategy extends StrategyDescriptor {
  /**
   * Choose a move. Resolves with the choice; rejects with the signal's reason (an AbortError) when the
   * signal is aborted. Long searches yield to the event loop between iterations so an abort is seen.
   */
  chooseMove(grid: Grid, options?: SearchOptions, signal?: AbortSignal): Promise<MoveChoice>;
}
