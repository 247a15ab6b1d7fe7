/** One game played by a strategy with the engine's rules: shared by `play` and the bench workers. */
import { TimeBank, applyMove, createRng, getStrategy, isGameOver, legalMoves, maxTile, newGame, spawnRandomTile } from '../engine/index';
import type { Direction, Grid, MoveChoice, SearchEngine, SearchOptions, StrategyName } from '../engine/index';
import { DEFAULT_TIME_MS } from '../engine/limits';
import { deriveSeed } from './seeds';
import type { GameEnd, GameResult } from './stats';
import { tableChoice } from './tables';
import type { TablesSetting } from './tables';
import { ChanceCollector } from './chance-samples';
import type { ChanceMode } from './chance-samples';

export interface GameSettings {
  readonly strategy: StrategyName;
  /** Search options for every move; `seed` is replaced by a per-move seed derived from the game's seed. */
  readonly options: SearchOptions;
  /** Stop when the best tile reaches this value (undefined: play to game over). */
  readonly target?: number;
  readonly rows?: number;
  readonly cols?: number;
  /** The expectimax search core the bench workers install (default wasm). */
  readonly engine?: SearchEngine;
  /** Endgame tables (--tables on): asked before the search when on (the thread must have installed them). */
  readonly tables?: TablesSetting;
  /** Start from this board instead of a new game's (the score counts from 0; spawns still come from the
   *  game's seed): the bench's --start, e.g. to play many games on from the boards where games are lost. */
  readonly start?: Grid;
  /**
   * A time bank per game (the CLI's --bank): once the game's earlier moves have left this many times
   * options.timeMs less one unspent, a move the search finds hard may take this many times options.timeMs
   * (TimeBank, SearchOptions.extraMs).
   * Undefined: every move gets options.timeMs.
   */
  readonly bank?: number;
  /** The network file the threads install (null or absent: none; expectimax searches with the heuristic). */
  readonly network?: string | null;
  /** The chance meter at every position (the bench's --chance: measure; bench/chance.ts fit: fit). */
  readonly chance?: ChanceMode;
  /** With chance: also keep each position's feature finely (ChanceRecord.raw; bench/chance.ts --save). */
  readonly chanceRaw?: boolean;
}

export interface GameState {
  readonly grid: Grid;
  readonly score: number;
  readonly moves: number;
  readonly thinkMs: number;
  readonly lastMove: Direction | null;
  readonly lastChoice: MoveChoice | null;
}

export interface GameHooks {
  /** Called after the start position and after every move. */
  readonly onState?: (state: GameState) => void;
  /** Aborting ends the game with end 'stopped' (a search under way is cancelled). */
  readonly signal?: AbortSignal;
  /** Chooses the moves instead of the strategy in this thread (e.g. one search split over threads). */
  readonly choose?: (grid: Grid, options: SearchOptions) => Promise<MoveChoice>;
}

export interface PlayedGame extends GameResult {
  readonly grid: Grid;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/**
 * Play one game from the start position of `seed` (or from settings.start). Tile spawns come from one RNG seeded by the game's seed;
 * the strategy's own randomness from per-move seeds derived from it, so a game is a function of its seed
 * (and of the search options: a time budget makes the result depend on the machine's speed).
 */
export async function playGame(index: number, seed: number, settings: GameSettings, hooks: GameHooks = {}): Promise<PlayedGame> {
  const strategy = getStrategy(settings.strategy);
  const rng = createRng(seed);
  let grid = settings.start ?? newGame(rng, settings.rows ?? 4, settings.cols ?? 4);
  let score = 0;
  let moves = 0;
  let thinkMs = 0;
  const moveMs: number[] = [];
  const depthCounts: number[] = [];
  let tableMoves = 0;
  let end: GameEnd = 'game-over';
  const bank = settings.bank !== undefined ? new TimeBank(settings.options.timeMs ?? DEFAULT_TIME_MS, settings.bank) : null;
  let extendedMoves = 0;
  const { signal } = hooks;
  const chance = settings.chance ? new ChanceCollector(settings.chance, settings.chanceRaw === true) : null;
  hooks.onState?.({ grid, score, moves, thinkMs, lastMove: null, lastChoice: null });
  for (;;) {
    // With a signal, let the event loop run between moves so that an abort (Ctrl-C) is seen even when the
    // strategy answers without ever leaving the microtask queue.
    if (signal) await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) {
      end = 'stopped';
      break;
    }
    if (settings.target !== undefined && maxTile(grid) >= settings.target) {
      end = 'target';
      break;
    }
    if (isGameOver(grid)) {
      end = 'game-over';
      break;
    }
    chance?.observe(grid);
    const started = performance.now();
    let choice: MoveChoice | null = settings.tables?.on ? tableChoice(grid, settings.tables.threshold) : null;
    if (choice) tableMoves++;
    else {
      try {
        const extraMs = bank?.extraMs() ?? 0;
        const options = { ...settings.options, seed: deriveSeed(seed, moves), ...(extraMs > 0 ? { extraMs } : {}) };
        choice = await (hooks.choose ? hooks.choose(grid, options) : strategy.chooseMove(grid, options, signal));
      } catch (error) {
        if (isAbort(error, signal)) {
          end = 'stopped';
          break;
        }
        throw error;
      }
    }
    const tookMs = performance.now() - started;
    thinkMs += tookMs;
    bank?.record(tookMs);
    if (choice.extended) extendedMoves++;
    moveMs.push(tookMs);
    while (depthCounts.length <= choice.depth) depthCounts.push(0);
    depthCounts[choice.depth]++;
    const move = choice.move;
    if (move === null || !legalMoves(grid).includes(move)) {
      end = 'stuck';
      break;
    }
    const result = applyMove(grid, move);
    score += result.score;
    grid = spawnRandomTile(result.grid, rng);
    moves++;
    hooks.onState?.({ grid, score, moves, thinkMs, lastMove: move, lastChoice: choice });
  }
  return { index, seed, score, maxTile: maxTile(grid), moves, thinkMs, moveMs, depthCounts, end, grid, ...(settings.tables?.on ? { tableMoves } : {}), ...(bank ? { extendedMoves } : {}), ...(chance ? { chance: chance.record() } : {}) };
}
