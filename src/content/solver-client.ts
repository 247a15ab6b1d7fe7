/**
 * The content script's side of the solver: one search at a time, sent over the typed protocol
 * (`solver/request`, `solver/cancel`), retried when the delivery failed for a transient reason (the
 * service worker was restarting), cut short by an AbortSignal.
 */
import type { Grid, MoveChoice, SearchOptions, StrategyName } from '../engine/types';
import { DeliveryError } from '../shared/protocol';
import type { Send } from '../shared/protocol';
import { DriverError, Interrupted } from './errors';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';

export interface SolverAnswer {
  readonly choice: MoveChoice;
  /** Set when the move did not come from the full search (a worker failed). */
  readonly note?: StatusMessage;
}

export class SolverClient {
  private pending: { requestId: string; abort: AbortController } | null = null;
  private seq = 0;
  private readonly prefix = Math.random().toString(36).slice(2, 10);

  constructor(
    private readonly send: Send,
    /** Waits before each retry; as many retries as entries. */
    private readonly retryMs: readonly number[],
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /** Ask for a move; rejects with Interrupted when `cancel()` is called first, DriverError when it fails. */
  async ask(strategy: StrategyName, board: Grid, options: SearchOptions): Promise<SolverAnswer> {
    const requestId = `${this.prefix}-${++this.seq}`;
    const abort = new AbortController();
    this.pending = { requestId, abort };
    const aborted = new Promise<never>((_, reject) => {
      abort.signal.addEventListener('abort', () => reject(new Interrupted('The search was cancelled')), { once: true });
    });
    aborted.catch(() => undefined);
    const wire = { rows: board.rows, cols: board.cols, cells: Array.from(board.cells) };
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await Promise.race([this.send('solver/request', { requestId, strategy, board: wire, options }), aborted]);
        } catch (err) {
          if (err instanceof Interrupted) throw err;
          if (err instanceof DeliveryError && err.transient && attempt < this.retryMs.length) {
            await Promise.race([this.sleep(this.retryMs[attempt]), aborted]);
            continue;
          }
          throw solverError(err, strategy);
        }
      }
    } finally {
      if (this.pending?.requestId === requestId) this.pending = null;
    }
  }

  /** Cancel the search under way, if any (here and in the solver). */
  cancel(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    pending.abort.abort();
    this.send('solver/cancel', { requestId: pending.requestId }).catch(() => undefined);
  }
}

function solverError(err: unknown, strategy: StrategyName): DriverError {
  const text = err instanceof Error ? err.message : String(err);
  if (!(err instanceof DeliveryError)) return new DriverError(statusMessage('solverUnreachable', text));
  if (err.remote) return new DriverError(statusMessage('solverFailed', text));
  if (err.transient) return new DriverError(statusMessage('solverUnreachable', text));
  return new DriverError(statusMessage('solverMalformed', strategy, text));
}
