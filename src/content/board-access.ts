/**
 * Finding the board and reading it: detect the adapter (tried in order of confidence, kept until a read
 * fails), read and validate the board, and time both as `performance.measure` entries.
 */
import { validateGrid } from '../engine/index';
import { BoardReadError } from './adapters/types';
import type { Adapter, AdapterContext, AdapterFactory, BoardReading } from './adapters/types';
import { DriverError } from './errors';
import { statusMessage, withDetail } from '../shared/status-message';


export class BoardAccess {
  private adapter: Adapter | null = null;

  constructor(
    private readonly factories: readonly AdapterFactory[],
    private readonly context: AdapterContext,
    /** Publish performance entries ('autopilot:detect', 'autopilot:read'). */
    private readonly measureTimes: boolean,
    /** Told which adapter was chosen, each time one is. */
    private readonly onDetected: (adapter: Adapter) => void,
  ) {}

  /** The adapter in use (null before detection or after a failed read). */
  get current(): Adapter | null {
    return this.adapter;
  }

  /** The adapter in use, detecting one when there is none yet. Throws the "No 2048 board" error. */
  async ensureAdapter(): Promise<Adapter> {
    if (this.adapter) return this.adapter;
    const start = this.perfNow();
    const candidates = this.factories.map((factory) => ({ factory, adapter: factory.create(this.context) }));
    // Each adapter's search starts in a task of its own: each is bounded (DETECTION_LIMITS), their sum in one
    // task was not (a page of 30 000 tiles: one task of 268 ms on a busy machine). What an adapter then waits
    // for, it waits for beside the others, as before.
    const detections: Promise<number>[] = [];
    for (const { adapter } of candidates) {
      await nextTask();
      detections.push(
        adapter.detect().then(
          (c) => (Number.isFinite(c) ? c : 0),
          () => 0,
        ),
      );
    }
    const confidences = await Promise.all(detections);
    this.measure('autopilot:detect', start);
    let best = -1;
    for (let i = 0; i < candidates.length; i++) {
      if (confidences[i] <= 0) continue;
      if (best < 0 || confidences[i] > confidences[best] || (confidences[i] === confidences[best] && candidates[i].factory.rank > candidates[best].factory.rank)) {
        best = i;
      }
    }
    if (best < 0) {
      throw new DriverError(statusMessage('noBoard', this.factories.map((a) => a.name).join(', ')));
    }
    this.adapter = candidates[best].adapter;
    this.onDetected(this.adapter);
    return this.adapter;
  }

  /** Read and validate the board; a failure forgets the adapter (the next call detects again). */
  read(adapter: Adapter): BoardReading {
    const start = this.perfNow();
    try {
      const reading = adapter.readBoard();
      validateGrid(reading.grid);
      this.measure('autopilot:read', start);
      return reading;
    } catch (err) {
      this.adapter = null;
      if (err instanceof BoardReadError) throw new DriverError(withDetail(statusMessage('cannotRead', adapter.name), { failure: err.failure, values: [...err.values] }));
      if (err instanceof RangeError) throw new DriverError(withDetail(statusMessage('cannotRead', adapter.name), { failure: 'invalidBoard' }));
      throw err;
    }
  }

  /** Read the board, or null when it cannot be read right now (tiles in flight, an overlay). */
  tryRead(adapter: Adapter): BoardReading | null {
    try {
      const reading = adapter.readBoard();
      validateGrid(reading.grid);
      return reading;
    } catch {
      return null;
    }
  }

  private measure(name: string, start: number): void {
    if (!this.measureTimes) return;
    try {
      const perf = this.context.window.performance ?? performance;
      perf.measure(name, { start, end: perf.now() });
      if (perf.getEntriesByName(name, 'measure').length > 500) perf.clearMeasures(name);
    } catch {
      // Timing is a diagnostic aid only.
    }
  }

  private perfNow(): number {
    return (this.context.window.performance ?? performance).now();
  }
}

/** Resolves in a later task: a message to itself (a timer in a background tab could wait a second). */
function nextTask(): Promise<void> {
  return new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      done();
    };
    channel.port2.postMessage(null);
  });
}
