/**
 * What the solver pool (./pool.ts) takes and gives: the workers it drives, its configuration, one search's
 * request and result, its statistics, and the error a cancelled search ends with.
 */
import type { Direction, Grid, MoveChoice, SearchOptions, StrategyName } from '../engine/types';
import type { WorkerRequest } from './protocol';
import type { PoolNetworkConfig } from './network-supply';
import type { StatusMessage } from '../shared/status-message';
import type { PoolSplit } from './split-host';

/** The part of a Web Worker the pool uses (a real `Worker` fits). */
export interface SolverWorker {
  postMessage(message: WorkerRequest, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
type WorkerFactory = () => SolverWorker;

/** What the pool needs from the engine (injected so that tests can count and steer it). */
export interface PoolEngine {
  legalMoves(grid: Grid): Direction[];
  mergeChoices(parts: readonly MoveChoice[]): MoveChoice;
  /** A cheap move computed in the pool's own thread when no worker part completed. */
  fallback(grid: Grid): Promise<MoveChoice>;
}

export interface PoolConfig {
  /** Number of workers (at least 1). */
  readonly size: number;
  readonly createWorker: WorkerFactory;
  readonly engine: PoolEngine;
  /** A timed part is given `timeMs × overrunFactor + overrunGraceMs` before its worker is replaced. */
  readonly overrunFactor?: number;
  readonly overrunGraceMs?: number;
  /** Limit for parts without a time budget (fixed depth, reference search, playouts). */
  readonly untimedLimitMs?: number;
  /** Time a cancelled part has to stop before its worker is replaced. */
  readonly cancelGraceMs?: number;
  /** More time for a new worker's first part (its core is loaded first). */
  readonly startupGraceMs?: number;
  /** The learned network, loaded at the first search that uses it (none: the workers use the heuristic). */
  readonly network?: PoolNetworkConfig;
  /** Split sessions (a cross-origin-isolated host: ./split-host.ts); none: every search split by root move. */
  readonly split?: PoolSplit;
}

export interface SolveRequest {
  readonly requestId: string;
  /** Requests on one channel (one tab) replace each other; other channels run side by side. */
  readonly channel?: string;
  readonly strategy: StrategyName;
  readonly board: Grid;
  readonly options: SearchOptions;
}

export interface SolveResult {
  readonly choice: MoveChoice;
  /** Set when the move did not come from the full search (a worker failed): a status the popup words. */
  readonly note?: StatusMessage;
  /** An expectimax decision: shared by every worker on one table (a split session), or split by root move. */
  readonly split?: 'shared' | 'roots';
}

/** A request that was cancelled, or replaced by a newer one on its channel. */
export class SearchCancelledError extends Error {
  override name = 'SearchCancelledError';
}

export interface PoolStats {
  /** How expectimax's decisions are split: every worker on one shared table, or a root move per worker. */
  readonly split: 'shared' | 'roots';
  readonly workers: number;
  readonly busy: number;
  readonly queued: number;
  readonly searches: number;
  /** Workers terminated and replaced (crash, overrun, cancel not honoured) since the pool started. */
  readonly replaced: number;
}
