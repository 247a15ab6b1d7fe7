/** Messages between the bench's main thread and its worker threads. */
import type { GameSettings } from './game';
import type { GameResult } from './stats';

export interface PlayGameRequest {
  readonly type: 'play';
  readonly index: number;
  readonly seed: number;
  readonly settings: GameSettings;
}

export type WorkerReply =
  | { readonly type: 'progress'; readonly index: number; readonly moves: number; readonly maxTile: number }
  | { readonly type: 'result'; readonly result: GameResult }
  | { readonly type: 'error'; readonly index: number; readonly message: string };
