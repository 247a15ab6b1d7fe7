/**
 * A pool of worker threads that searches cell tasks (src/engine/split.ts): one search split finer than its
 * root moves, handed out one task at a time to whichever thread is free.
 */
import { Worker } from 'node:worker_threads';
import type { CellTask, Grid, MoveChoice, SearchEngine, SearchOptions, StrategyName } from '../engine/index';
import type { CellTaskReply, CellTaskRequest, ChooseRequest } from './split-protocol';

const WORKER_ENTRY = new URL('./split-worker-entry.mjs', import.meta.url);

interface Pending {
  readonly request: CellTaskRequest | ChooseRequest;
  readonly resolve: (result: { sum: number; executions: number } | MoveChoice) => void;
  readonly reject: (error: Error) => void;
}

export class SplitPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<Worker, Pending>();
  private nextId = 1;
  private failure: Error | null = null;
  private readonly started: Promise<void>[] = [];

  constructor(threads: number, engine: SearchEngine = 'wasm') {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(WORKER_ENTRY, { workerData: { engine } });
      this.started.push(
        new Promise<void>((resolve) => {
          worker.once('message', () => resolve());
        }),
      );
      worker.on('message', (reply: CellTaskReply) => this.finished(worker, reply));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (this.running.has(worker) || this.queue.length > 0) this.fail(new Error(`a split worker exited early (code ${code})`));
      });
      this.idle.push(worker);
    }
  }

  /** Resolves when every thread has loaded its core (so that a timing leaves the start-up out). */
  async ready(): Promise<void> {
    await Promise.all(this.started);
    if (this.failure) throw this.failure;
  }

  run(grid: Grid, task: CellTask, limit: number): Promise<{ sum: number; executions: number }> {
    return this.submit({ type: 'task', id: this.nextId++, grid, task, limit }) as Promise<{ sum: number; executions: number }>;
  }

  /** One part of a search run with the strategy's chooseMove on a free thread. */
  choose(grid: Grid, strategy: StrategyName, options: SearchOptions): Promise<MoveChoice> {
    return this.submit({ type: 'choose', id: this.nextId++, grid, strategy, options }) as Promise<MoveChoice>;
  }

  private submit(request: CellTaskRequest | ChooseRequest): Promise<{ sum: number; executions: number } | MoveChoice> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    const workers = [...this.idle, ...this.running.keys()];
    this.idle.length = 0;
    this.running.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as Worker;
      const pending = this.queue.shift() as Pending;
      this.running.set(worker, pending);
      worker.postMessage(pending.request);
    }
  }

  private finished(worker: Worker, reply: CellTaskReply): void {
    if (reply.type === 'ready') return;
    const pending = this.running.get(worker);
    if (!pending || pending.request.id !== reply.id) return;
    this.running.delete(worker);
    this.idle.push(worker);
    if (reply.type === 'done') pending.resolve({ sum: reply.sum, executions: reply.executions });
    else if (reply.type === 'chosen') pending.resolve(reply.choice);
    else pending.reject(new Error(reply.message));
    this.pump();
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const pending of [...this.queue, ...this.running.values()]) pending.reject(error);
    this.queue.length = 0;
  }
}
