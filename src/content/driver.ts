/**
 * The play loop of the content script: read the board → ask the solver → send the move → wait until the
 * page has settled → check the new board is one move later (else count a desync and go on from what the
 * page shows). Commands come from the background (solve / stop / step / hint); every change of state is
 * reported as a RunStatus (`content/status`), and finished games as GameRecords.
 *
 * The driver lives in the page, so a restart of the service worker loses nothing: a solver request that
 * fails because the background went away is retried a few times. Everything about a particular page
 * lives in its adapter (./adapters); the driver talks to the rest of the extension only through
 * src/shared/messages.ts, and it never sends a key to a page where no adapter found a board.
 */
import { applyMove, isSuccessor, legalMoves, maxTile, validateGrid } from '../engine/index';
import type { Direction, Grid, MoveChoice, MoveValues } from '../engine/types';
import { MoveChoiceSchema, initialStatus } from '../shared/messages';
import type { Command, GameRecord, Message, MessageOf, RunState, RunStatus } from '../shared/messages';
import type { Settings } from '../shared/settings';
import { BoardReadError } from './adapters/types';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading, PageBridge } from './adapters/types';

export const PAUSED_MESSAGE = 'Paused — you moved';
export const NO_BOARD_MESSAGE = 'No 2048 board found on this page';

export interface DriverTiming {
  /** How long a move may take to show before it counts as ignored. */
  readonly settleTimeoutMs: number;
  /** Waits before re-sending a move the page ignored (some pages drop input while animating). */
  readonly retryBackoffMs: readonly number[];
  /** Waits before re-asking the solver when the background went away mid-request. */
  readonly solverRetryMs: readonly number[];
}

export const DEFAULT_TIMING: DriverTiming = {
  settleTimeoutMs: 800,
  retryBackoffMs: [150, 300, 600],
  solverRetryMs: [100, 300, 700, 1_500],
};

export interface DriverEnvironment {
  readonly document: Document;
  readonly window: Window;
  readonly adapters: readonly AdapterFactory[];
  readonly bridge?: PageBridge;
  /** A runtime message to the background; resolves with its reply, rejects when it cannot be delivered. */
  sendMessage(message: Message): Promise<unknown>;
  readonly timing?: Partial<DriverTiming>;
  readonly now?: () => number;
  /** Publish performance entries ('autopilot:detect', 'autopilot:read'); default true. */
  readonly measure?: boolean;
}

export type CommandReply = { ok: true; hint?: MoveChoice; status?: RunStatus } | { ok: false; error: string };

/** An error the user should read as it is (state 'error', message = its text). */
export class DriverError extends Error {
  override name = 'DriverError';
}

type WireGrid = { rows: number; cols: number; cells: number[] };

/** A grid as the protocol carries it (a plain copy). */
function wire(grid: Grid): WireGrid {
  return { rows: grid.rows, cols: grid.cols, cells: Array.from(grid.cells) };
}

class Interrupted extends Error {
  override name = 'AbortError';
}

const TRANSIENT = /message port closed|message channel closed|receiving end does not exist|could not establish connection|no sw|service worker/i;

type Outcome = 'moved' | 'over' | 'won' | 'paused' | 'stopped';

export class Driver {
  private settings: Settings;
  private status: RunStatus;
  private readonly timing: DriverTiming;
  private readonly now: () => number;
  private readonly context: AdapterContext;
  private adapter: Adapter | null = null;

  private running = false;
  private busy: Promise<unknown> | null = null;
  private stopRequested = false;
  private pauseRequested = false;
  private pendingSolve: { requestId: string; abort: AbortController } | null = null;
  private wakers = new Set<() => void>();
  private requestSeq = 0;
  private readonly requestPrefix = Math.random().toString(36).slice(2, 10);

  private runStartedAt = 0;
  private runStartMoves = 0;
  private gameStartedAt = 0;
  private gameMoves = 0;
  private gameDesyncs = 0;
  private ownScore = 0;
  private removeListeners: (() => void) | null = null;
  private lastSentState: RunState | null = null;

  constructor(
    private readonly env: DriverEnvironment,
    settings: Settings,
  ) {
    this.settings = settings;
    this.timing = { ...DEFAULT_TIMING, ...env.timing };
    this.now = env.now ?? (() => Date.now());
    this.context = { document: env.document, window: env.window, bridge: env.bridge };
    this.status = {
      ...initialStatus(settings.strategy, this.now()),
      site: env.window.location?.host ?? '',
    };
    this.installTakeoverListeners();
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

  dispose(): void {
    this.removeListeners?.();
    this.removeListeners = null;
    this.requestStop();
  }

  async handleCommand(command: Command, settings?: Settings): Promise<CommandReply> {
    if (settings) this.updateSettings(settings);
    try {
      switch (command) {
        case 'solve':
          return this.solve();
        case 'stop':
          await this.stop();
          return { ok: true, status: this.getStatus() };
        case 'step':
          return await this.step();
        case 'hint':
          return await this.hint();
      }
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  // ------------------------------------------------------------------ commands

  private solve(): CommandReply {
    if (this.running || this.busy) return { ok: true, status: this.getStatus() };
    this.beginRun();
    this.setStatus({ state: 'thinking', running: true, message: undefined, movesPerSecond: 0 });
    const loop = this.runLoop();
    this.busy = loop;
    loop.finally(() => {
      if (this.busy === loop) this.busy = null;
    });
    return { ok: true, status: this.getStatus() };
  }

  private async stop(): Promise<void> {
    if (!this.busy) {
      if (this.status.running) this.setStatus({ state: 'idle', running: false, message: 'Stopped' });
      return;
    }
    this.requestStop();
    await this.busy.catch(() => undefined);
  }

  private async step(): Promise<CommandReply> {
    if (this.running || this.busy) return { ok: false, error: 'Already playing: press Stop first' };
    this.beginRun();
    this.setStatus({ state: 'thinking', running: true, message: undefined });
    const one = this.runOnce();
    this.busy = one;
    try {
      await one;
    } finally {
      if (this.busy === one) this.busy = null;
    }
    return this.status.state === 'error' ? { ok: false, error: this.status.message ?? 'error' } : { ok: true, status: this.getStatus() };
  }

  private async hint(): Promise<CommandReply> {
    if (this.running || this.busy) {
      // A second search would cancel the running one: answer with the last one.
      const last = this.status.values && this.status.lastMove !== null ? this.lastChoice() : undefined;
      return last ? { ok: true, hint: last, status: this.getStatus() } : { ok: true, status: this.getStatus() };
    }
    const adapter = await this.ensureAdapter();
    const reading = this.read(adapter);
    const controller = new AbortController();
    const choice = await this.askSolver(reading.grid, controller);
    this.setStatus({
      values: choice.values,
      depth: choice.depth,
      board: wire(reading.grid),
      bestTile: maxTile(reading.grid),
      score: reading.score ?? this.status.score,
      adapter: adapter.name,
    });
    return { ok: true, hint: choice, status: this.getStatus() };
  }

  private lastChoice(): MoveChoice {
    return {
      strategy: this.status.strategy,
      move: this.status.lastMove,
      values: this.status.values ?? {},
      depth: this.status.depth,
      nodes: 0,
      ms: 0,
    };
  }

  // ---------------------------------------------------------------------- runs

  private beginRun(): void {
    this.running = true;
    this.stopRequested = false;
    this.pauseRequested = false;
    this.runStartedAt = this.now();
    this.runStartMoves = this.status.moves;
    if (this.gameMoves === 0) this.gameStartedAt = this.now();
  }

  private async runLoop(): Promise<void> {
    let outcome: Outcome = 'stopped';
    try {
      for (;;) {
        outcome = await this.playOne();
        if (outcome !== 'moved') break;
        if (this.settings.pauseMs > 0) await this.sleep(this.settings.pauseMs);
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
    this.wakeAll();
    switch (outcome) {
      case 'stepped':
      case 'moved':
        this.setStatus({ state: 'idle', running: false, message: undefined, movesPerSecond: 0 });
        break;
      case 'stopped':
        this.recordGame('stopped');
        this.setStatus({ state: 'idle', running: false, message: 'Stopped', movesPerSecond: 0 });
        break;
      case 'paused':
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
    this.wakeAll();
    const message = err instanceof Error ? err.message : String(err);
    this.recordGame('stopped');
    this.setStatus({ state: 'error', running: false, message, movesPerSecond: 0 });
  }

  private requestStop(): void {
    this.stopRequested = true;
    this.cancelSolve();
    this.wakeAll();
  }

  /** The person took over: no further synthetic move, cancel the search, state 'paused'. */
  pauseForUser(): void {
    if (!this.running) return;
    this.pauseRequested = true;
    this.cancelSolve();
    this.wakeAll();
    this.setStatus({ state: 'paused', running: false, message: PAUSED_MESSAGE });
  }

  private interrupted(): Outcome | null {
    if (this.pauseRequested) return 'paused';
    if (this.stopRequested) return 'stopped';
    return null;
  }

  // ------------------------------------------------------------------ one move

  private async playOne(): Promise<Outcome> {
    let adapter = await this.ensureAdapter();
    let reading: BoardReading;
    try {
      reading = this.read(adapter);
    } catch (err) {
      // The page may have changed shape (a new game, a re-render, tiles in flight): detect again, once.
      if (!(err instanceof DriverError)) throw err;
      await this.sleep(60);
      adapter = await this.ensureAdapter();
      reading = this.read(adapter);
    }

    // End states first.
    if (reading.status === 'won') {
      if (!this.settings.continueAfterWin) return this.finishGame('won', reading, 'You reached 2048: stopped (keep playing is off)');
      const continued = await adapter.continueAfterWin();
      if (continued) reading = this.read(adapter);
      if (!continued || reading.status === 'won') {
        return this.finishGame('won', reading, 'You reached 2048: this page offers no way to keep playing');
      }
    }
    if (reading.status === 'over' || legalMoves(reading.grid).length === 0) return this.finishGame('over', reading, 'Game over');
    if (reading.status === 'unknown') {
      this.setStatus({ state: 'paused', running: false, message: `Paused — ${reading.note ?? 'the game is in a state the autopilot does not know'}` });
      return 'paused';
    }
    const early = this.interrupted();
    if (early) return early;

    // One status message per move is enough while playing: report 'thinking' here only when it is news.
    this.setStatus(
      { state: 'thinking', adapter: adapter.name, board: wire(reading.grid), bestTile: maxTile(reading.grid), score: reading.score ?? this.status.score },
      this.lastSentState !== 'thinking',
    );
    const controller = new AbortController();
    let choice: MoveChoice;
    try {
      choice = await this.askSolver(reading.grid, controller);
    } catch (err) {
      if (err instanceof Interrupted) return this.interrupted() ?? 'stopped';
      throw err;
    }
    const late = this.interrupted();
    if (late) return late;
    if (choice.move === null) return this.finishGame('over', reading, 'Game over');

    const move = choice.move;
    const before = reading.grid;
    this.setStatus({ state: 'moving', values: choice.values, depth: choice.depth }, false);
    const after = await this.playMove(adapter, before, move);
    if (after === null) return this.interrupted() ?? 'stopped';

    const desynced = !isSuccessor(before, after.grid, move);
    this.ownScore += applyMove(before, move).score;
    this.status.moves += 1;
    this.gameMoves += 1;
    if (desynced) this.gameDesyncs += 1;
    const elapsed = (this.now() - this.runStartedAt) / 1000;
    this.setStatus({
      state: this.interrupted() ? this.status.state : this.running ? 'thinking' : 'idle',
      lastMove: move,
      values: choice.values,
      depth: choice.depth,
      board: wire(after.grid),
      bestTile: Math.max(maxTile(after.grid), 0),
      score: after.score ?? this.ownScore,
      desyncs: this.status.desyncs + (desynced ? 1 : 0),
      movesPerSecond: elapsed > 0 ? (this.status.moves - this.runStartMoves) / elapsed : 0,
      message: desynced ? 'The board changed unexpectedly: going on from the board shown' : this.status.message,
    });
    return 'moved';
  }

  /** Send the move and wait for the page; re-send (with backoff) when ignored. Null when interrupted first. */
  private async playMove(adapter: Adapter, before: Grid, move: Direction): Promise<BoardReading | null> {
    const attempts = this.timing.retryBackoffMs.length + 1;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        await this.sleep(this.timing.retryBackoffMs[attempt - 1]);
        // The page may have changed meanwhile (a late move, an overlay): look before pressing again.
        const fresh = this.tryRead(adapter);
        if (fresh && (fresh.grid.rows !== before.rows || fresh.grid.cols !== before.cols || fresh.grid.cells.some((v, i) => v !== before.cells[i]))) {
          return fresh;
        }
        if (fresh && fresh.status !== 'playing') return fresh;
      }
      if (this.pauseRequested || (this.stopRequested && attempt > 0)) return null;
      if (this.stopRequested) return null;
      await adapter.sendMove(move);
      const result = await adapter.settled(before, this.timing.settleTimeoutMs, move);
      if (result.kind === 'changed') return result.reading;
      if (this.pauseRequested || this.stopRequested) return null;
    }
    throw new DriverError(
      `The page ignored the move ${move} (sent ${attempts} times, the board did not change): it may not accept synthetic keys, or an overlay blocks it`,
    );
  }

  private finishGame(outcome: 'over' | 'won', reading: BoardReading, message: string): Outcome {
    const score = reading.score ?? this.ownScore;
    this.running = false;
    this.setStatus({
      state: outcome,
      running: false,
      message,
      board: wire(reading.grid),
      bestTile: maxTile(reading.grid),
      score,
      movesPerSecond: 0,
    });
    this.recordGame(outcome);
    return outcome;
  }

  private recordGame(outcome: GameRecord['outcome']): void {
    if (this.gameMoves === 0) return;
    const record: GameRecord = {
      site: this.status.site ?? '',
      adapter: this.status.adapter ?? this.adapter?.name ?? 'unknown',
      strategy: this.settings.strategy,
      score: this.status.score,
      bestTile: this.status.bestTile,
      moves: this.gameMoves,
      ms: Math.max(0, this.now() - this.gameStartedAt),
      desyncs: this.gameDesyncs,
      endedAt: this.now(),
      outcome,
    };
    this.gameMoves = 0;
    this.gameDesyncs = 0;
    this.ownScore = 0;
    this.send({ kind: 'content/game-finished', record });
  }

  // ------------------------------------------------------------ board access

  private measure(name: string, start: number): void {
    if (this.env.measure === false) return;
    try {
      const perf = this.env.window.performance ?? performance;
      perf.measure(name, { start, end: perf.now() });
      if (perf.getEntriesByName(name, 'measure').length > 500) perf.clearMeasures(name);
    } catch {
      // Timing is a diagnostic aid only.
    }
  }

  private perfNow(): number {
    return (this.env.window.performance ?? performance).now();
  }

  /** The adapter in use, detecting one when there is none yet. Throws the "No 2048 board" error. */
  private async ensureAdapter(): Promise<Adapter> {
    if (this.adapter) return this.adapter;
    const start = this.perfNow();
    const candidates = this.env.adapters.map((factory) => ({ factory, adapter: factory.create(this.context) }));
    const confidences = await Promise.all(
      candidates.map(({ adapter }) =>
        adapter.detect().then(
          (c) => (Number.isFinite(c) ? c : 0),
          () => 0,
        ),
      ),
    );
    this.measure('autopilot:detect', start);
    let best = -1;
    for (let i = 0; i < candidates.length; i++) {
      if (confidences[i] <= 0) continue;
      if (best < 0 || confidences[i] > confidences[best] || (confidences[i] === confidences[best] && candidates[i].factory.rank > candidates[best].factory.rank)) {
        best = i;
      }
    }
    if (best < 0) {
      throw new DriverError(`${NO_BOARD_MESSAGE} (tried: ${this.env.adapters.map((a) => a.name).join(', ')})`);
    }
    this.adapter = candidates[best].adapter;
    this.setStatus({ adapter: this.adapter.name });
    return this.adapter;
  }

  /** Read and validate the board; on a failure re-detect once (the page may have changed shape). */
  private read(adapter: Adapter): BoardReading {
    const start = this.perfNow();
    try {
      const reading = adapter.readBoard();
      validateGrid(reading.grid);
      this.measure('autopilot:read', start);
      return reading;
    } catch (err) {
      this.adapter = null;
      if (err instanceof BoardReadError || err instanceof RangeError) {
        throw new DriverError(`Cannot read the board (${adapter.name}): ${err.message}`);
      }
      throw err;
    }
  }

  private tryRead(adapter: Adapter): BoardReading | null {
    try {
      const reading = adapter.readBoard();
      validateGrid(reading.grid);
      return reading;
    } catch {
      return null;
    }
  }

  // ------------------------------------------------------------------- solver

  private searchOptions(): MessageOf<'solver/request'>['options'] {
    const s = this.settings;
    const options: MessageOf<'solver/request'>['options'] = {
      timeMs: s.thinkMs,
      playouts: s.playouts,
      seed: Math.floor(Math.random() * 0x7fffffff),
    };
    if (s.depth !== null) options.depth = s.depth;
    return options;
  }

  private cancelSolve(): void {
    const pending = this.pendingSolve;
    if (!pending) return;
    this.pendingSolve = null;
    pending.abort.abort();
    this.send({ kind: 'solver/cancel', requestId: pending.requestId });
  }

  /** Ask the background's solver; retries when the background was restarted mid-request. */
  private async askSolver(grid: Grid, controller: AbortController): Promise<MoveChoice> {
    const requestId = `${this.requestPrefix}-${++this.requestSeq}`;
    const strategy = this.settings.strategy;
    const message: Message = { kind: 'solver/request', requestId, strategy, board: wire(grid), options: this.searchOptions() };
    this.pendingSolve = { requestId, abort: controller };
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(new Interrupted('The search was cancelled')), { once: true });
    });
    aborted.catch(() => undefined);
    try {
      for (let attempt = 0; ; attempt++) {
        let reply: unknown;
        try {
          reply = await Promise.race([this.env.sendMessage(message), aborted]);
        } catch (err) {
          if (err instanceof Interrupted) throw err;
          const text = err instanceof Error ? err.message : String(err);
          if (TRANSIENT.test(text) && attempt < this.timing.solverRetryMs.length) {
            await Promise.race([this.sleep(this.timing.solverRetryMs[attempt]), aborted]);
            continue;
          }
          throw new DriverError(`The solver could not be reached: ${text}`);
        }
        // No reply at all: the service worker went away before answering (it is restarted on the next message).
        if (reply === undefined && attempt < this.timing.solverRetryMs.length) {
          await Promise.race([this.sleep(this.timing.solverRetryMs[attempt]), aborted]);
          continue;
        }
        return this.parseSolverReply(reply, strategy);
      }
    } finally {
      if (this.pendingSolve?.requestId === requestId) this.pendingSolve = null;
    }
  }

  private parseSolverReply(reply: unknown, strategy: string): MoveChoice {
    if (!reply || typeof reply !== 'object') throw new DriverError('The solver gave no answer');
    const r = reply as { ok?: unknown; error?: unknown; choice?: unknown; note?: unknown };
    if (r.ok !== true) throw new DriverError(`The solver failed: ${typeof r.error === 'string' ? r.error : 'unknown error'}`);
    const parsed = MoveChoiceSchema.safeParse(r.choice);
    if (!parsed.success) throw new DriverError(`The solver (${strategy}) answered with a malformed move`);
    if (typeof r.note === 'string' && r.note) this.status.message = r.note;
    return parsed.data;
  }

  // ------------------------------------------------------------------ helpers

  private sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        done();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /** Update the status; `broadcast` false keeps it local (the next report carries it). */
  private setStatus(patch: Partial<RunStatus> & { state?: RunState }, broadcast = true): void {
    this.status = { ...this.status, ...patch, updatedAt: this.now() };
    if (patch.values === undefined && 'values' in patch) delete (this.status as { values?: MoveValues }).values;
    if (!broadcast) return;
    this.lastSentState = this.status.state;
    this.send({ kind: 'content/status', status: this.getStatus() });
  }

  private send(message: Message): void {
    try {
      this.env.sendMessage(message).catch(() => undefined);
    } catch {
      // The extension was reloaded: nothing to report to.
    }
  }

  private installTakeoverListeners(): void {
    const win = this.env.window;
    const onInput = (event: Event): void => {
      if (event.isTrusted && this.running) this.pauseForUser();
    };
    const types = ['keydown', 'pointerdown', 'mousedown', 'click', 'touchstart'];
    for (const type of types) win.addEventListener(type, onInput, { capture: true, passive: true });
    this.removeListeners = () => {
      for (const type of types) win.removeEventListener(type, onInput, { capture: true });
    };
  }
}
