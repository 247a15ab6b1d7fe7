/**
 * The solver pool's (./pool.ts) records of its work — a task per part of a search, a slot per worker — and its
 * split sessions' tasks: where the pool has a split (./split-host.ts), an expectimax search on a 4x4 board is
 * one task that every worker runs at once, started when all are idle and ended (its slots freed) once every
 * worker has answered its last share.
 */
import type { MoveChoice, SearchOptions } from '../engine/types';
import { splitSearchable } from '../engine/split-session';
import type { NetworkSupply } from './network-supply';
import type { PoolConfig, SolveRequest, SolverWorker } from './pool-api';
import { partLimitMs } from './pool-plan';
import type { Search } from './pool-search';
import type { WorkerRequest } from './protocol';
import type { PoolSplit } from './split-host';

/** One part of a search, run by one worker (a split session's: by all of them). */
export interface Task {
  readonly id: number;
  readonly index: number;
  readonly options: SearchOptions;
  readonly search: Search<Task>;
  slot: Slot | null;
  /** A split session: the task of every worker at once. */
  readonly whole: boolean;
}

export interface Slot {
  /** Its place in the pool: the worker's number in a split, its table slot in a shared memory (+1 with a split). */
  readonly index: number;
  worker: SolverWorker;
  task: Task | null;
  timer: ReturnType<typeof setTimeout> | null;
  /** The learned network in this worker: none, waiting for the loader, being set up (request `setupId`), in use. */
  network: 'none' | 'waiting' | 'pending' | 'ready';
  setupId: number;
  /** The worker has answered a part (before that its first part also waits for its core to load). */
  warm: boolean;
  /** The worker's network is in the shared memory (so its split searches value with it too). */
  shared: boolean;
}

/** What a split session's task uses of the pool. */
export interface SplitSide {
  readonly split: PoolSplit | null;
  readonly slots: readonly Slot[];
  readonly config: PoolConfig;
  /** The network is loaded (the workers that hold it value with it). */
  networkReady(): boolean;
  arm(slot: Slot, ms: number, reason: string): void;
  /** The session ended: free its slots, record its outcome, go on with the queue. */
  end(task: Task, choice: MoveChoice | null, failure: string | null): void;
}

/**
 * Is `request` searched as a split session (expectimax on a 4x4 board; not while the network is in the workers'
 * own copies, nor once a worker could not search its share)?
 */
function splitsRequest(split: PoolSplit | null, network: NetworkSupply | null, request: SolveRequest): boolean {
  if (!split || split.broken || request.strategy !== 'expectimax' || !splitSearchable(request.board, request.options)) return false;
  return !(network?.state === 'ready' && !network.shared);
}

/**
 * The parts of a search (`parts`: planParts'), or, for a split session, one part that every worker runs; `split`:
 * how an expectimax decision is shared (the solver's reply says it).
 */
export function planSearch(split: PoolSplit | null, network: NetworkSupply | null, request: SolveRequest, parts: SearchOptions[]): { plans: SearchOptions[]; whole: boolean; split?: 'shared' | 'roots' } {
  const whole = parts.length > 0 && splitsRequest(split, network, request);
  const plans = whole ? [request.options] : parts;
  return request.strategy === 'expectimax' ? { plans, whole, split: whole ? 'shared' : 'roots' } : { plans, whole };
}

/** Start the split session at the head of `queue` on every worker when all are idle, taking it off the queue (false: not now). */
export function startSplit(side: SplitSide, queue: Task[]): boolean {
  const { split, slots, config } = side;
  const task = queue[0];
  if (!split || slots.some((slot) => slot.task !== null)) return false;
  queue.shift();
  const { request } = task.search;
  const limit = partLimitMs(request.strategy, task.options, config);
  for (const slot of slots) {
    slot.task = task;
    side.arm(slot, limit + (slot.warm ? 0 : (config.startupGraceMs ?? 10_000)), 'a solver worker overran its time budget');
  }
  task.slot = slots[0];
  const network = side.networkReady() && slots.every((slot) => slot.network === 'ready' && slot.shared);
  const threads = slots.map((slot) => ({ post: (message: WorkerRequest) => slot.worker.postMessage(message) }));
  const end = (choice: MoveChoice | null, failure: string | null): void => {
    for (const slot of slots) if (slot.task === task) slot.warm = true;
    side.end(task, choice, failure);
  };
  split.choose(request.board, task.options, threads, network).then(
    (choice) => end(choice, null),
    (err: unknown) => end(null, err instanceof Error && err.name === 'AbortError' ? 'a part was cancelled' : err instanceof Error ? err.message : String(err)),
  );
  return true;
}

/** Cancel `task`'s split session (once started, its workers stop within their grace). */
export function cancelSplit(side: SplitSide, task: Task): void {
  if (!task.slot) return; // still queued
  side.split?.cancel();
  for (const slot of side.slots) if (slot.task === task) side.arm(slot, side.config.cancelGraceMs ?? 1_000, 'a solver worker ignored a cancel');
}
