/**
 * Where the solver pool lives, behind one interface. The background asks its host for a move and never
 * knows which one it has:
 *
 * - Chrome: the offscreen document (src/background/offscreen-host.ts), because a service worker cannot
 *   start Web Workers; requests travel over the typed protocol (`offscreen/solve`, `offscreen/cancel`).
 * - A background with a DOM (Firefox's event page): `localSolverHost(createWorkerPool())` in the
 *   background itself, the same pool without the hop.
 *
 * Requests on one channel (one per tab) replace each other; `cancel` ends one search.
 */
import type { ReplyOf, RequestOf } from '../shared/messages';
import type { SolverPool } from './pool';

/** Chrome's offscreen document closes itself after this long without a request (and no search running). */
export const OFFSCREEN_IDLE_CLOSE_MS = 60_000;

export interface SolverHost {
  /** Search `request.board`; resolves with the move (and a note when it came from a fallback). */
  solve(request: RequestOf<'offscreen/solve'>): Promise<ReplyOf<'offscreen/solve'>>;
  /** Cancel a search; resolves once the host was told (a host that is not running has nothing to cancel). */
  cancel(requestId: string, channel: string): Promise<void>;
  /** Start the host and its workers ahead of a first search (the popup opened, a command came); resolves once started. */
  warm(): Promise<void>;
}

/** A host that runs searches on a pool in this very context. */
export function localSolverHost(pool: Pick<SolverPool, 'solve' | 'cancel' | 'warm'>): SolverHost {
  return {
    solve: (request) => pool.solve(request),
    cancel: (requestId, channel) => {
      pool.cancel(requestId, channel);
      return Promise.resolve();
    },
    warm: () => {
      pool.warm();
      return Promise.resolve();
    },
  };
}
