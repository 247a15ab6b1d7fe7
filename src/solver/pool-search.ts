/**
 * One search of the solver pool (./pool.ts) and its parts: what each part brought, and how the parts make the
 * result once none is pending: merged when all completed, merged with a note saying what is missing when some
 * failed, or a cheap fallback move (the engine's, computed in the pool's own thread) when none gave a move.
 */
import type { MoveChoice, StrategyName } from '../engine/types';
import { describeStrategy } from '../engine/strategies/index';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';
import type { PoolEngine, SolveRequest, SolveResult } from './pool-api';

/** One search: its request, its parts (`T`: the pool's record of each) and what they brought so far. */
export interface Search<T = unknown> {
  readonly key: string;
  readonly channel: string;
  readonly request: SolveRequest;
  readonly tasks: T[];
  readonly results: (MoveChoice | null)[];
  readonly failures: string[];
  pending: number;
  settled: boolean;
  resolve(result: SolveResult): void;
  reject(err: Error): void;
}

/** Record the end of part `index`; true when it was the search's last one (then `settle` it). */
export function partDone(search: Search, index: number, choice: MoveChoice | null, failure: string | null): boolean {
  if (search.settled) return false;
  if (choice) search.results[index] = choice;
  else if (failure) search.failures.push(failure);
  search.pending--;
  return search.pending === 0;
}

/** Resolve a search whose parts have all ended (the pool has forgotten it already). */
export async function settle(search: Search, engine: PoolEngine): Promise<void> {
  const { request, tasks } = search;
  const parts = search.results.filter((choice): choice is MoveChoice => choice !== null);
  const failed = tasks.length - parts.length;
  const reasons = [...new Set(search.failures)].join('; ');
  try {
    if (failed === 0) {
      search.resolve({ choice: parts.length === 1 ? parts[0] : engine.mergeChoices(parts) });
      return;
    }
    if (parts.length > 0) {
      const merged = parts.length === 1 ? parts[0] : engine.mergeChoices(parts);
      if (merged.move !== null) {
        search.resolve({ choice: merged, note: survivorsNote(request.strategy, parts, failed, tasks.length, reasons) });
        return;
      }
    }
    const fallback = await engine.fallback(request.board);
    search.resolve({ choice: fallback, note: statusMessage('solverFallback', reasons, fallback.strategy) });
  } catch (err) {
    search.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/** The note of a search some parts of which failed: what the surviving parts still covered. */
function survivorsNote(strategy: StrategyName, parts: readonly MoveChoice[], failed: number, total: number, reasons: string): StatusMessage {
  if (describeStrategy(strategy).split === 'playouts') {
    const samples = parts.reduce((sum, part) => sum + (part.samples ?? 0), 0);
    return statusMessage('partsFailedPlayouts', failed, total, reasons, samples);
  }
  const moves = parts.flatMap((part) => Object.keys(part.values));
  return statusMessage('partsFailedMoves', failed, total, reasons, moves.join(', '));
}
