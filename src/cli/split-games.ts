/**
 * The CLI's games on several threads (`bench --threads T`, `play --threads T`): each decision searched by T
 * worker threads together. Expectimax on the WebAssembly core shares every decision on one transposition
 * table (a split session: src/engine/split-session.ts, the threads of src/cli/split-pool.ts), as the
 * extension does in Chrome; other strategies, and `roots` (for comparison), split a decision by root move,
 * a table per thread, the parts merged with the engine's mergeChoices.
 */
import { SplitSession, getStrategy, legalMoves, mergeChoices, splitSearchable } from '../engine/index';
import type { Grid, MoveChoice, Network, SearchOptions } from '../engine/index';
import { planParts } from '../solver/pool-plan';
import type { GameSettings } from './game';
import { useNetwork } from './network';
import { SplitPool } from './split-pool';

/** The split games' shared table: 4 regions of 2^18 entries of 16 bytes, 16 MiB for all threads (as the positions bench's). */
const GAME_TABLE_BITS = 18;

/** How a decision is shared: every thread on each root move's spawn children, or a root move per thread. */
export type SplitMode = 'shared' | 'roots';

export interface ThreadedChooser {
  /** What the threads do: 'shared' only for expectimax on the WebAssembly core. */
  readonly mode: SplitMode;
  readonly choose: (grid: Grid, options: SearchOptions) => Promise<MoveChoice>;
  close(): Promise<void>;
}

/** The choice of each decision of games played with `settings` on `threads` threads (ready once it resolves). */
export async function threadedChooser(settings: GameSettings, threads: number, wanted: SplitMode = 'shared'): Promise<ThreadedChooser> {
  const engine = settings.engine ?? 'wasm';
  const strategy = getStrategy(settings.strategy);
  const mode: SplitMode = wanted === 'shared' && settings.strategy === 'expectimax' && engine === 'wasm' ? 'shared' : 'roots';
  if (mode === 'shared') {
    const network: Network | null = settings.network ? useNetwork(settings.network) : null;
    const pool = new SplitPool(threads, 'wasm', GAME_TABLE_BITS, network);
    await pool.ready();
    const session = new SplitSession(pool);
    return {
      mode,
      // A board the split cannot take (tiles above 32768, the reference configuration) is searched here.
      choose: (grid, options) => (splitSearchable(grid, options) ? session.chooseMove(grid, options) : strategy.chooseMove(grid, options)),
      close: () => pool.close(),
    };
  }
  const pool = new SplitPool(threads, engine, undefined, settings.network ?? null);
  await pool.ready();
  return {
    mode,
    choose: async (grid, options) => {
      const parts = planParts(settings.strategy, options, legalMoves(grid), threads);
      if (parts.length === 0) return strategy.chooseMove(grid, options);
      const chosen = await Promise.all(parts.map((part) => pool.choose(grid, settings.strategy, part)));
      return chosen.length === 1 ? chosen[0] : mergeChoices(chosen);
    },
    close: () => pool.close(),
  };
}
