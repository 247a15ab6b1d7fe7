/**
 * Coach mode: the person plays with their own keys, the extension sends NO key at all. After each of the
 * person's moves (and at the start) the solver evaluates the board the page shows, in the workers through
 * the solver client, with the chosen strategy and budget; the arrow overlay points the suggested move,
 * and each move the person played is graded against the search of the board it was played from
 * (src/coach/grade.ts).
 *
 * Desync-proof: boards go through the MoveTracker (src/coach/tracker.ts), so a move is graded only when the
 * new board is one legal move plus a spawn after the evaluated one; undo, a new game, an edited board or a
 * slowly animating page lead to a silent re-evaluation, never a grade.
 *
 * How it notices the person's moves: the person's own input (trusted keys, pointer and touch ends) starts a
 * short burst of readings; DOM mutations trigger a reading; a slow poll catches the rest (a canvas redrawn
 * by a timer, a change from elsewhere). Only reading the page — never writing to it except the overlay.
 */
import { legalMoves, maxTile, sameGrid } from '../engine/index';
import type { Direction, Evaluation, Grid, MoveChoice, SearchOptions } from '../engine/types';
import { MoveTracker, gridKey, looksLikeNewGame } from '../coach/tracker';
import type { Observation } from '../coach/tracker';
import type { CoachStatus } from '../shared/coach';
import { wireGrid } from '../shared/messages';
import type { GameRecord, RunStatus } from '../shared/messages';
import { searchOptionsOf } from '../shared/settings';
import type { Settings } from '../shared/settings';
import type { Adapter, BoardReading } from './adapters/types';
import type { BoardAccess } from './board-access';
import { Interrupted, statusOfError } from './errors';
import { recordScore, recordSite } from './game-tally';
import { PageWatch } from './page-watch';
import type { PageWatchTiming } from './page-watch';
import type { StatusMessage } from '../shared/status-message';
import { CoachGame } from './coach-game';
import type { ArrowOverlay } from './overlay';
import type { SolverAnswer } from './solver-client';

/** The solver as the coach needs it (the content script's SolverClient). */
export interface CoachSolver {
  ask(strategy: Settings['strategy'], board: Grid, options: SearchOptions): Promise<SolverAnswer>;
  cancel(): void;
}

export interface CoachEnvironment extends PageWatchTiming {
  readonly window: Window;
  readonly boards: Pick<BoardAccess, 'ensureAdapter' | 'tryRead'>;
  readonly solver: CoachSolver;
  readonly overlay: Pick<ArrowOverlay, 'show' | 'hide'>;
  readonly settings: () => Settings;
  /** Merge into the tab's run status and report it (the driver's status). */
  readonly report: (patch: Partial<RunStatus>) => void;
  /** A game the person finished (or stopped coaching) with its grades. */
  readonly record: (record: GameRecord) => void;
  /**
   * Each move of the person the coach recognised, in order (the i-th call is the i-th character of the
   * game's `coach.marks` and the i-th move of its `replay`, which the coach records itself).
   */
  readonly onMove?: (step: { readonly before: Grid; readonly move: Direction; readonly after: Grid }) => void;
  readonly now?: () => number;
  /** See MoveTracker; default 250 ms. */
  readonly quietMs?: number;
}

const CACHE_SIZE = 32;

export class Coach {
  private active = false;
  private adapter: Adapter | null = null;
  private readonly tracker: MoveTracker;
  private readonly now: () => number;
  private readonly evaluations = new Map<string, MoveChoice>();
  private searching: string | null = null;
  /** A move played from a board whose search has not ended yet: graded into its slot when it ends. */
  private awaiting: { key: string; move: Direction; slot: number } | null = null;
  /** The game ended on the page while its last move waited for its grade: recorded once it has it. */
  private overWhenGraded = false;
  /** The person's game: its grades, its replay, its record (./coach-game.ts). */
  private game: CoachGame;
  private suggestion: Direction | null = null;
  private lastReading: BoardReading | null = null;
  private failedReads = 0;
  private readonly watch: PageWatch;

  constructor(private readonly env: CoachEnvironment) {
    this.tracker = new MoveTracker(env.quietMs ?? 250);
    this.now = env.now ?? (() => Date.now());
    this.watch = new PageWatch(env.window, () => this.check(), env);
    this.game = new CoachGame(0);
  }

  get isActive(): boolean {
    return this.active;
  }

  /** The search of the board shown now, if it has ended (for Hint while coaching). */
  currentChoice(): MoveChoice | null {
    const anchor = this.tracker.anchor;
    return anchor ? (this.evaluations.get(gridKey(anchor)) ?? null) : null;
  }

  /** Turn coach mode on: find the board (throws the "No 2048 board" error), evaluate it, watch the person. */
  async start(): Promise<void> {
    if (this.active) return;
    const adapter = await this.env.boards.ensureAdapter();
    this.active = true;
    this.adapter = adapter;
    this.tracker.reset(null);
    this.evaluations.clear();
    this.suggestion = null;
    this.resetGame();
    this.watch.start();
    this.publish({ adapter: adapter.name });
    this.check();
  }

  /** Turn coach mode off: the overlay goes, the search is cancelled, the game so far is recorded. */
  stop(): void {
    if (!this.active) return;
    this.active = false;
    this.watch.stop();
    if (this.searching) this.env.solver.cancel();
    this.searching = null;
    // A move still waiting for its grade stays ungraded (its mark '-').
    this.awaiting = null;
    this.env.overlay.hide();
    this.suggestion = null;
    const over = this.overWhenGraded;
    this.overWhenGraded = false;
    this.finishGame(over ? 'over' : 'stopped');
    this.publish();
  }

  // ------------------------------------------------------------------ readings

  private async redetect(): Promise<void> {
    try {
      this.adapter = await this.env.boards.ensureAdapter();
    } catch {
      // No board right now (a page between games): the poll tries again.
    }
  }

  /** Read the page and act on what changed. */
  check(): void {
    if (!this.active || !this.adapter) return;
    const reading = this.env.boards.tryRead(this.adapter);
    if (!reading) {
      // Tiles in flight, an overlay, or a page that rebuilt its board: after a while, detect again.
      if (++this.failedReads >= 10) {
        this.failedReads = 0;
        void this.redetect();
      }
      return;
    }
    this.failedReads = 0;
    const observation = this.tracker.observe(reading.grid, this.now());
    this.act(observation, reading);
  }

  private act(observation: Observation, reading: BoardReading): void {
    switch (observation.kind) {
      case 'same':
        if (isOver(reading)) this.finishGame('over');
        this.evaluate(reading.grid, reading);
        return;
      case 'moved':
        this.lastReading = reading;
        // The game went on after it was recorded as over (an undo on the last board): it is recorded again,
        // under the same id (the log keeps the later record).
        this.game.recorded = false;
        this.game.replay.add({ before: observation.from, move: observation.move, after: observation.to });
        this.env.onMove?.({ before: observation.from, move: observation.move, after: observation.to });
        this.onMove(gridKey(observation.from), observation.move);
        if (isOver(reading)) this.finishGame('over');
        this.clearSuggestion();
        this.evaluate(observation.to, reading);
        return;
      case 'in-flight':
      case 'unsettled':
        this.clearSuggestion();
        this.watch.after(observation.waitMs, () => this.check());
        return;
      case 'resync':
        if (this.awaiting) this.awaiting = null; // its slot stays ungraded
        if (this.overWhenGraded) {
          this.overWhenGraded = false;
          this.finishGame('over');
        }
        if (observation.from !== null) {
          this.game.resyncs += 1;
          if (looksLikeNewGame(observation.from, observation.to)) this.newGame();
          // The replay ends on the board shown, even if this game ends here.
          else this.game.replay.sync(observation.to);
        }
        this.lastReading = reading;
        this.clearSuggestion();
        this.evaluate(observation.to, reading);
        this.publish();
        return;
    }
  }

  private onMove(fromKey: string, move: Direction): void {
    const slot = this.game.tally.reserve();
    const searched = this.evaluations.get(fromKey);
    if (searched) this.game.grade(searched, move, slot);
    else if (this.searching === fromKey) this.awaiting = { key: fromKey, move, slot };
    // else: no search of that board (two moves in one reading's time): the slot stays ungraded.
    this.publish();
  }

  /** A new game on the page: the one before is recorded (unless it was at its end), the tally starts again. */
  private newGame(): void {
    this.finishGame('stopped');
    this.resetGame();
  }

  private resetGame(): void {
    this.game = new CoachGame(this.now());
    this.awaiting = null;
    this.overWhenGraded = false;
  }

  // ------------------------------------------------------------------ searches

  /** Make sure the board shown now gets (or has) its search, and show its suggestion once it has. */
  private evaluate(grid: Grid, reading: BoardReading): void {
    const key = gridKey(grid);
    const known = this.evaluations.get(key);
    if (known) {
      this.showSuggestion(key, known, reading);
      return;
    }
    if (this.searching === key) return;
    if (this.searching !== null) {
      // A search of an older board: keep it when a move played from there waits for it, else replace it.
      if (this.awaiting?.key === this.searching) return;
      this.env.solver.cancel();
      this.searching = null;
    }
    this.search(grid, key);
  }

  private search(grid: Grid, key: string): void {
    const strategy = this.env.settings().strategy;
    this.searching = key;
    this.env.solver.ask(strategy, grid, searchOptionsOf(this.env.settings())).then(
      (answer) => {
        if (this.searching === key) this.searching = null;
        if (!this.active) return;
        this.remember(key, answer.choice);
        if (this.awaiting?.key === key) {
          this.game.grade(answer.choice, this.awaiting.move, this.awaiting.slot);
          this.awaiting = null;
          this.recordIfOver();
        }
        this.afterSearch(answer.note, answer.choice.evaluation);
      },
      (err: unknown) => {
        if (this.searching === key) this.searching = null;
        if (!this.active) return;
        if (this.awaiting?.key === key) {
          this.awaiting = null; // its slot stays ungraded
          this.recordIfOver();
        }
        if (err instanceof Interrupted) {
          this.afterSearch();
          return;
        }
        this.publish({ message: statusOfError(err) });
      },
    );
  }

  /** A search ended: show the suggestion if it is for the board shown now, else evaluate that board. */
  /** A search answered: show what it suggests, and say what valued it (the pages' evaluation line). */
  private afterSearch(note?: StatusMessage, evaluation?: Evaluation): void {
    const anchor = this.tracker.anchor;
    if (!anchor) return;
    const reading = this.lastReading ?? { grid: anchor, score: null, status: 'playing' as const };
    this.evaluate(anchor, sameGrid(reading.grid, anchor) ? reading : { ...reading, grid: anchor });
    this.publish({ ...(note ? { note } : {}), evaluation });
  }

  private remember(key: string, choice: MoveChoice): void {
    this.evaluations.set(key, choice);
    if (this.evaluations.size > CACHE_SIZE) {
      const oldest = this.evaluations.keys().next().value;
      if (oldest !== undefined) this.evaluations.delete(oldest);
    }
  }

  // ------------------------------------------------------------------ showing

  private showSuggestion(key: string, choice: MoveChoice, reading: BoardReading): void {
    const anchor = this.tracker.anchor;
    if (!anchor || gridKey(anchor) !== key) return;
    const adapter = this.adapter;
    const changed = this.suggestion !== choice.move;
    this.suggestion = choice.move;
    if (choice.move && adapter) this.env.overlay.show(choice.move, () => adapter.boardRect());
    else this.env.overlay.hide();
    if (changed || this.lastShownKey !== key) {
      this.lastShownKey = key;
      this.publish({
        values: choice.values,
        chance: choice.chance,
        depth: choice.depth,
        board: wireGrid(anchor),
        bestTile: maxTile(anchor),
        score: reading.score ?? null,
      });
    }
  }

  private lastShownKey = '';

  private clearSuggestion(): void {
    if (this.suggestion === null) return;
    this.suggestion = null;
    this.env.overlay.hide();
  }

  // ------------------------------------------------------------------ reporting

  /** The coach's part of the run status. */
  status(): CoachStatus {
    return this.game.status(this.active, this.suggestion, this.env.settings().strategy);
  }

  private publish(extra: Partial<RunStatus> = {}): void {
    this.env.report({ ...extra, coach: this.status() });
  }

  private recordIfOver(): void {
    if (!this.overWhenGraded) return;
    this.overWhenGraded = false;
    this.finishGame('over');
  }

  /**
   * Record the game once (at its end, at a new game or when coaching stops), if the person moved: its
   * grades and its replay (the i-th move of the replay has the i-th mark). At the end of a game whose last
   * move still waits for its search, the record waits for that grade.
   */
  private finishGame(outcome: GameRecord['outcome']): void {
    const game = this.game;
    if (game.recorded) return;
    if (outcome === 'over' && this.awaiting) {
      this.overWhenGraded = true;
      return;
    }
    game.recorded = true;
    if (game.tally.movesSeen === 0) return;
    const grid = this.lastReading?.grid ?? this.tracker.anchor;
    this.env.record(
      game.record(outcome, {
        site: recordSite(this.env.window.location?.host),
        adapter: this.adapter?.name ?? 'unknown',
        strategy: this.env.settings().strategy,
        score: recordScore(this.lastReading?.score ?? null),
        bestTile: grid ? maxTile(grid) : 0,
        endedAt: this.now(),
      }),
    );
  }
}

/** The game has ended on the page (its own word, or no move left: canvas pages say nothing). */
function isOver(reading: BoardReading): boolean {
  return reading.status === 'over' || legalMoves(reading.grid).length === 0;
}
