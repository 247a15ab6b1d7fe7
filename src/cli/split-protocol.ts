/** Messages between the bench's main thread and its split-search worker threads (src/cli/split-pool.ts). */
import type { CellTask, Grid } from '../engine/index';

export interface CellTaskRequest {
  readonly type: 'task';
  readonly id: number;
  readonly grid: Grid;
  readonly task: CellTask;
  readonly limit: number;
}

export type CellTaskReply =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly sum: number; readonly executions: number }
  | { readonly type: 'error'; readonly id: number; readonly message: string };
