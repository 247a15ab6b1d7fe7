/**
 * Steps of the driver's play loop (./driver.ts) that only read its state and report through it: the board
 * read for a move, what the game's end does (a win played on or stopped at, a lost game, a state the autopilot does not know), and a
 * move counted into the tally and the status.
 */
import { applyMove, isSuccessor, legalMoves, maxTile } from '../engine/index';
import type { Direction, Grid, MoveChoice } from '../engine/types';
import { wireGrid } from '../shared/messages';
import type { RunState, RunStatus } from '../shared/messages';
import type { Settings } from '../shared/settings';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';
import type { Adapter, BoardReading } from './adapters/types';
import type { BoardAccess } from './board-access';
import type { GameKeeper } from './game-keeper';
import { DriverError } from './errors';

export type Outcome = 'moved' | 'over' | 'won' | 'paused' | 'stopped';

/** What the steps see of the driver. */
export interface RunContext {
  settings(): Settings;
  readonly board: BoardAccess;
  readonly games: GameKeeper;
  status(): RunStatus;
  setStatus(patch: Partial<RunStatus> & { state?: RunState }): void;
  /** The run ends with this game (no further move). */
  endRunning(): void;
  /** A wait that a stop cuts short. */
  sleep(ms: number): Promise<void>;
}

/** The adapter and its board; a failed read re-detects once (the page may have changed shape). */
export async function readForMove(run: RunContext): Promise<{ adapter: Adapter; reading: BoardReading }> {
  const adapter = await run.board.ensureAdapter();
  try {
    return { adapter, reading: run.board.read(adapter) };
  } catch (err) {
    // A new game, a re-render, tiles in flight: look again after a moment.
    if (!(err instanceof DriverError)) throw err;
    await run.sleep(60);
    const again = await run.board.ensureAdapter();
    return { adapter: again, reading: run.board.read(again) };
  }
}

/** At 2048: keep playing (the board after the page's "keep going"), or end the run when that is off or impossible. */
export async function pastTheWin(run: RunContext, adapter: Adapter, reading: BoardReading): Promise<BoardReading | Outcome> {
  if (reading.status !== 'won') return reading;
  if (!run.settings().continueAfterWin) return finishGame(run, 'won', reading, statusMessage('wonStopped'));
  const result = await adapter.continueAfterWin();
  const after = result === 'continued' ? run.board.read(adapter) : reading;
  if (result !== 'continued' || after.status === 'won') {
    // Why the run stops at the win although "At 2048: Keep playing" is set (see ContinueResult).
    return finishGame(run, 'won', after, statusMessage(result === 'no-control' ? 'wonNoControl' : 'wonStillShown'));
  }
  return after;
}

/** A lost game, or one in a state the autopilot does not know, ends the run here (null: play on). */
export function endOfGame(run: RunContext, reading: BoardReading): Outcome | null {
  if (reading.status === 'over' || legalMoves(reading.grid).length === 0) return finishGame(run, 'over', reading, statusMessage('gameOver'));
  if (reading.status === 'unknown') {
    run.setStatus({ state: 'paused', running: false, message: statusMessage(reading.note ?? 'pausedUnknownState') });
    return 'paused';
  }
  return null;
}

/** The game ended (lost, or won and not played on): the status says so and its record goes out. */
export function finishGame(run: RunContext, outcome: 'over' | 'won', reading: BoardReading, message: StatusMessage): Outcome {
  const score = reading.score ?? run.games.tally.score;
  run.endRunning();
  run.setStatus({ state: outcome, running: false, message, board: wireGrid(reading.grid), bestTile: maxTile(reading.grid), score, movesPerSecond: 0 });
  run.games.record(outcome);
  return outcome;
}

/** A move the page took. */
export interface TakenMove {
  readonly before: Grid;
  readonly move: Direction;
  readonly after: BoardReading;
  readonly choice: MoveChoice;
}

/**
 * Count a move into the tally (a board that is not one move later is a desync: play goes on from what the
 * page shows) and the status patch that reports it; `moves` and `elapsedMs` measure this run's rate.
 */
export function countMove(run: RunContext, taken: TakenMove, rate: { readonly runMoves: number; readonly elapsedMs: number }): Partial<RunStatus> {
  const { before, move, after, choice } = taken;
  const desynced = !isSuccessor(before, after.grid, move);
  const tally = run.games.tally;
  tally.count(applyMove(before, move).score, desynced, { before, move, after: after.grid, thinkMs: choice.ms });
  const moves = tally.moveCount;
  return {
    moves,
    gameId: tally.id,
    lastMove: move,
    values: choice.values,
    depth: choice.depth,
    thinkMs: choice.ms,
    board: wireGrid(after.grid),
    bestTile: Math.max(maxTile(after.grid), 0),
    score: after.score ?? tally.score,
    desyncs: run.status().desyncs + (desynced ? 1 : 0),
    movesPerSecond: rate.elapsedMs > 0 ? ((moves - rate.runMoves) * 1000) / rate.elapsedMs : 0,
    message: desynced ? statusMessage('desync') : run.status().message,
  };
}
