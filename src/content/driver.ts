/**
 * The play loop of the content script, as a sequence: read the board → ask the solver → send the move →
 * wait until the page has settled → check the new board is one move later (else count a desync and go on
 * from what the page shows). Commands come from the background (solve / stop / step / hint); every change
 * of state is reported as a RunStatus (`content/status`), and finished games as GameRecords.
 *
 * The parts live beside it: board-access.ts (detect the adapter, read the board), solver-client.ts (the
 * solver over the protocol, with retries), move-sender.ts (a move on the page, keys paced as the page takes
 * them: KeyPacing), run-steps.ts (the game's end, a move counted), game-keeper.ts (the game's counts, its records sent until
 * answered, whatever way it ends), takeover.ts (the person's own input pauses the run), pause.ts (waits a
 * stop cuts short). Everything about a particular page lives in its adapter (./adapters); the driver never
 * sends a key to a page where no adapter found a board.
 */
import { maxTile } from '../engine/index';
import type { Grid, MoveChoice, MoveValues } from '../engine/types';
import { initialStatus, lastChoiceOf, wireGrid } from '../shared/messages';
import { DEFAULT_TIMING } from './driver-environment';
import type { DriverEnvironment, DriverTiming } from './driver-environment';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';
import { createSend } from '../shared/protocol';
import type { Command, ReplyOf, RunState, RunStatus } from '../shared/messages';
import type { Send } from '../shared/protocol';
import { searchOptionsOf } from '../shared/settings';
import type { Settings } from '../shared/settings';
import type { BoardReading } from './adapters/types';
import { BoardAccess } from './board-access';
import { DriverError, Interrupted, statusOfError } from './errors';
import { EditableFocusError } from './keys';
import { GameKeeper } from './game-keeper';
import { Pauses } from './pause';
import { KeyPacing, sendMove } from './move-sender';
import { countMove, endOfGame, finishGame, pastTheWin, readForMove } from './run-steps';
import type { Outcome, RunContext } from './run-steps';
import { SolverClient } from './solver-client';
import { watchTakeover } from './takeover';

export const PAUSED_MESSAGE: StatusMessage = statusMessage('pausedYouMoved');
const STOPPED: StatusMessage = statusMessage('stopped');

type CommandReply = ReplyOf<'content/command'>;

export class Driver {
  private settings: Settings;
  private status: RunStatus;
  private readonly timing: DriverTiming;
  private readonly now: () => number;
  private readonly alive: () => boolean;
  private readonly send: Send;
  private readonly board: BoardAccess;
  private readonly solver: SolverClient;
  /** The game being played and the delivery of every game's record (coach mode's too; the handover). */
  readonly games: GameKeeper;
  private readonly pauses = new Pauses();
  /** How soon this page takes the next key (learnt from the keys it drops). */
  private readonly pacing = new KeyPacing();
  /** What the play loop's steps (./run-steps.ts) see of this driver. */
  private readonly run: RunContext;
  private stopWatching: (() => void) | null;

  private running = false;
  private busy: Promise<unknown> | null = null;
  private stopRequested = false;
  private pauseRequested = false;
  private runStartedAt = 0;
  private runStartMoves = 0;
  private lastSentState: RunState | null = null;

  constructor(env: DriverEnvironment, settings: Settings) {
    this.settings = settings;
    this.timing = { ...DEFAULT_TIMING, ...env.timing };
    this.now = env.now ?? (() => Date.now());
    this.alive = env.alive ?? (() => true);
    this.send = createSend(env.sendMessage);
    this.games = new GameKeeper(this.send, () => this.alive(), () => {
      const { strategy, thinkMs, pauseMs, depth, playouts } = this.settings;
      return { status: this.status, strategy, adapter: this.board.current?.name ?? 'unknown', now: this.now(), settings: { thinkMs, pauseMs, depth, playouts } };
    });
    this.status = {
      ...initialStatus(settings.strategy, this.now()),
      site: env.window.location?.host ?? '',
    };
    const context = { document: env.document, window: env.window, bridge: env.bridge };
    this.board = new BoardAccess(env.adapters, context, env.measure !== false, (adapter) => this.setStatus({ adapter: adapter.name }));
    this.solver = new SolverClient(this.send, this.timing.solverRetryMs, (ms) => this.pauses.sleep(ms));
    this.stopWatching = watchTakeover(env.window, () => this.running, () => this.pauseForUser());
    this.run = {
      settings: () => this.settings,
      status: () => this.status,
      board: this.board,
      games: this.games,
      setStatus: (patch) => this.setStatus(patch),
      sleep: (ms) => this.pauses.sleep(ms),
      endRunning: () => {
        this.running = false;
      },
    };
  }

  /** The current status (a copy). */
  getStatus(): RunStatus {
    return { ...this.status };
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** New settings (from the popup through chrome.storage): they apply from the next move on. */
  updateSettings(settings: Settings): void {
    const strategyChanged = settings.strategy !== this.settings.strategy;
    this.settings = settings;
    if (strategyChanged) this.setStatus({ strategy: settings.strategy });
  }

  /** Stand down for good (the script lost its extension): end any run, record its game, send nothing more. */
  dispose(): void {
    this.stopWatching?.();
    this.stopWatching = null;
    this.requestStop();
    this.games.dispose();
  }

  /**
   * The page is going away (`pagehide`: a navigation, or into the back-forward cache): the run stops
   * here and its game is recorded now, while messages still get out. Nothing resumes when the page comes
   * back from the cache: a stopped run stays stopped until the next Solve.
   */
  pageHidden(): void {
    if (this.running || this.busy) this.requestStop();
    // Also a paused or stopped game: recorded with its replay (nothing is sent when there is no news).
    this.games.record('stopped');
  }

  /** Run a command; a failure the user should read is thrown (the protocol answers it as an error). */
  async handleCommand(command: Command, settings?: Settings): Promise<CommandReply> {
    if (settings) this.updateSettings(settings);
    switch (command) {
      case 'solve':
        return this.solve();
      case 'stop':
        await this.stop();
        return { status: this.getStatus() };
      case 'step':
        return this.step();
      case 'hint':
        return this.hint();
      case 'coach':
      case 'coach-stop':
        // Coach mode is the coach's (src/content/coach.ts); src/content/index.ts routes these there.
        throw new DriverError(statusMessage('failed', `the command ${command} is the coach's`));
    }
  }

  /** The board access (adapter detection and reading), shared with the coach. */
  get boards(): BoardAccess {
    return this.board;
  }

  /** Merge a change made by another part of the content script (the coach) into the status and report it. */
  report(patch: Partial<RunStatus>): void {
    this.setStatus(patch);
  }

  // ------------------------------------------------------------------ commands

  private solve(): CommandReply {
    if (this.running || this.busy) return { status: this.getStatus() };
    this.beginRun();
    this.setStatus({ state: 'thinking', running: true, message: undefined, movesPerSecond: 0 });
    const loop = this.runLoop();
    this.busy = loop;
    loop.finally(() => {
      if (this.busy === loop) this.busy = null;
    });
    return { status: this.getStatus() };
  }

  private async stop(): Promise<void> {
    if (!this.busy) {
      if (this.status.running) this.setStatus({ state: 'idle', running: false, message: STOPPED });
      return;
    }
    this.requestStop();
    await this.busy.catch(() => undefined);
  }

  private async step(): Promise<CommandReply> {
    if (this.running || this.busy) throw new DriverError(statusMessage('alreadyPlaying'));
    this.beginRun();
    this.setStatus({ state: 'thinking', running: true, message: undefined });
    const one = this.runOnce();
    this.busy = one;
    try {
      await one;
    } finally {
      if (this.busy === one) this.busy = null;
    }
    if (this.status.state === 'error') throw new DriverError(this.status.message ?? statusMessage('failed', 'error'));
    return { status: this.getStatus() };
  }

  private async hint(): Promise<CommandReply> {
    if (this.running || this.busy) {
      // A second search would cancel the running one: answer with the last one.
      const last = lastChoiceOf(this.status);
      return last ? { hint: last, status: this.getStatus() } : { status: this.getStatus() };
    }
    const adapter = await this.board.ensureAdapter();
    const reading = this.board.read(adapter);
    const choice = await this.askSolver(reading.grid);
    this.setStatus({
      values: choice.values,
      depth: choice.depth,
      evaluation: choice.evaluation,
      board: wireGrid(reading.grid),
      bestTile: maxTile(reading.grid),
      score: reading.score ?? this.status.score,
      adapter: adapter.name,
    });
    return { hint: choice, status: this.getStatus() };
  }

  // ---------------------------------------------------------------------- runs

  private beginRun(): void {
    this.running = true;
    this.stopRequested = false;
    this.pauseRequested = false;
    this.runStartedAt = this.now();
    this.runStartMoves = this.status.moves;
    this.games.tally.begin(this.now());
  }

  private async runLoop(): Promise<void> {
    let outcome: Outcome = 'stopped';
    try {
      for (;;) {
        outcome = await this.playOne();
        if (outcome !== 'moved') break;
        if (this.settings.pauseMs > 0) await this.pauses.sleep(this.settings.pauseMs);
        if (this.stopRequested) outcome = 'stopped';
        else if (this.pauseRequested) outcome = 'paused';
        if (outcome !== 'moved') break;
      }
      this.endRun(outcome);
    } catch (err) {
      this.fail(err);
    }
  }

  private async runOnce(): Promise<void> {
    try {
      const outcome = await this.playOne();
      this.endRun(outcome === 'moved' ? 'stepped' : outcome);
    } catch (err) {
      this.fail(err);
    }
  }

  private endRun(outcome: Outcome | 'stepped'): void {
    this.running = false;
    this.pauses.wakeAll();
    switch (outcome) {
      case 'stepped':
      case 'moved':
        this.setStatus({ state: 'idle', running: false, message: undefined, movesPerSecond: 0 });
        break;
      case 'stopped':
        this.games.record('stopped');
        this.setStatus({ state: 'idle', running: false, message: STOPPED, movesPerSecond: 0 });
        break;
      case 'paused':
        // The person may start a new game by hand now: this one is recorded first (it may go on later).
        this.games.record('stopped');
        this.setStatus({ state: 'paused', running: false, message: this.status.state === 'paused' ? this.status.message : PAUSED_MESSAGE });
        break;
      case 'over':
      case 'won':
        // Status and record already written by finishGame.
        break;
    }
  }

  private fail(err: unknown): void {
    this.running = false;
    this.pauses.wakeAll();
    this.games.record('stopped');
    this.setStatus({ state: 'error', running: false, message: statusOfError(err), movesPerSecond: 0 });
  }

  private requestStop(): void {
    this.stopRequested = true;
    this.solver.cancel();
    this.pauses.wakeAll();
  }

  /** The person took over: no further synthetic move, cancel the search, state 'paused'. */
  pauseForUser(): void {
    if (!this.running) return;
    this.pauseRequested = true;
    this.solver.cancel();
    this.pauses.wakeAll();
    this.setStatus({ state: 'paused', running: false, message: PAUSED_MESSAGE });
  }

  private interrupted(): Outcome | null {
    if (!this.alive()) return 'stopped';
    if (this.pauseRequested) return 'paused';
    if (this.stopRequested) return 'stopped';
    return null;
  }

  // ------------------------------------------------------------------ one move

  private async playOne(): Promise<Outcome> {
    // 1. The board, and whether the game goes on.
    const read = await readForMove(this.run);
    const adapter = read.adapter;
    if (this.games.startsNewGame(read.reading.grid, this.now())) {
      // The page started a new game (by hand, or by itself): the game before is recorded.
      this.status.moves = this.status.desyncs = 0;
      this.runStartMoves = 0;
      this.runStartedAt = this.now();
    }
    this.games.tally.observe(read.reading.grid, this.now());
    const reading = await pastTheWin(this.run, adapter, read.reading);
    if (typeof reading === 'string') return reading;
    const end = endOfGame(this.run, reading);
    if (end) return end;
    const early = this.interrupted();
    if (early) return early;

    // 2. The solver's move. One status message per move is enough while playing: 'thinking' only when news.
    this.setStatus(
      { state: 'thinking', adapter: adapter.name, board: wireGrid(reading.grid), bestTile: maxTile(reading.grid), score: reading.score ?? this.status.score },
      this.lastSentState !== 'thinking',
    );
    let choice: MoveChoice;
    try {
      choice = await this.askSolver(reading.grid);
    } catch (err) {
      if (err instanceof Interrupted) return this.interrupted() ?? 'stopped';
      throw err;
    }
    const late = this.interrupted();
    if (late) return late;
    if (choice.move === null) return finishGame(this.run, 'over', reading, statusMessage('gameOver'));

    // 3. The move on the page, until the page has drawn it.
    const move = choice.move;
    const before = reading.grid;
    this.setStatus({ state: 'moving', values: choice.values, depth: choice.depth, evaluation: choice.evaluation, chance: choice.chance }, false);
    let after: BoardReading | null;
    try {
      after = await sendMove(adapter, before, move, {
        ...this.timing,
        sleep: (ms) => this.pauses.sleep(ms),
        interrupted: () => this.interrupted() !== null,
        tryRead: (a) => this.board.tryRead(a),
        pacing: this.pacing,
        now: this.now,
      });
    } catch (err) {
      if (!(err instanceof EditableFocusError)) throw err;
      // A key now would go into what the person is typing: pause, send nothing.
      this.pauseRequested = true;
      this.setStatus({ state: 'paused', running: false, message: statusMessage('pausedTyping', err.tag) });
      return 'paused';
    }
    if (after === null) return this.interrupted() ?? 'stopped';

    // 4. Count it (a desync goes on from what the page shows) and report.
    const patch = countMove(this.run, { before, move, after, choice }, { runMoves: this.runStartMoves, elapsedMs: this.now() - this.runStartedAt });
    this.setStatus({ ...patch, state: this.interrupted() ? this.status.state : this.running ? 'thinking' : 'idle' });
    return 'moved';
  }

  // ------------------------------------------------------------------- solver

  /** Ask the solver for a move on `grid`; a note from the solver (a fallback move) becomes the status message. */
  private async askSolver(grid: Grid): Promise<MoveChoice> {
    const answer = await this.solver.ask(this.settings.strategy, grid, searchOptionsOf(this.settings));
    if (answer.note) this.status.message = answer.note;
    return answer.choice;
  }

  // ------------------------------------------------------------------ status

  /** Update the status; `broadcast` false keeps it local (the next report carries it). */
  private setStatus(patch: Partial<RunStatus> & { state?: RunState }, broadcast = true): void {
    this.status = { ...this.status, ...patch, updatedAt: this.now() };
    if (patch.values === undefined && 'values' in patch) delete (this.status as { values?: MoveValues }).values;
    if (!broadcast) return;
    this.lastSentState = this.status.state;
    this.send('content/status', { status: this.getStatus() }).catch(() => undefined);
  }
}
