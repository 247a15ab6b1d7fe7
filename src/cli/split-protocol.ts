/** Messages between the bench's main thread and its split-search worker threads (src/cli/split-pool.ts). */
import type { CellTask, Grid, MoveChoice, SearchOptions, StrategyName } from '../engine/index';

export interface CellTaskRequest {
  readonly type: 'task';
  readonly id: number;
  readonly grid: Grid;
  readonly task: CellTask;
  readonly limit: number;
}

/** One part of a timed search (the extension's split: options.rootMoves), run with chooseMove. */
export interface ChooseRequest {
  readonly type: 'choose';
  readonly id: number;
  readonly grid: Grid;
  readonly strategy: StrategyName;
  readonly options: SearchOptions;
}

export type CellTaskReply =
  | { readonly type: 'ready' }
  | { readonly type: 'chosen'; readonly id: number; readonly choice: MoveChoice }
  | { readonly type: 'done'; readonly id: number; readonly sum: number; readonly executions: number }
  | { readonly type: 'error'; readonly id: number; readonly message: string };
