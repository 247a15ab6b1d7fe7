/**
 * How far a strategy's move values spread: the relative loss (src/coach/grade.ts) of every non-best
 * legal move, over every 15th position of one expectimax game (depth 2, seed 7) played to 2048, each
 * position searched by the strategy at the extension's default budget (100 ms, 100 playouts). The coach's
 * thresholds were set on expectimax's quantiles and the per-strategy scales from the 90th percentiles.
 *
 *   npx tsx bench/grade-spread.ts [--strategy expectimax|network|greedy|montecarlo|minimax] [--network FILE]
 *
 * With `--network FILE` (models/4x6.ntn: the network the extension ships) the WebAssembly core searches and the
 * strategies that use the learned network value with it (expectimax's leaves, the network strategy), as the
 * extension does once it has loaded it; without, expectimax values with the heuristic.
 */
import { playGame } from '../src/cli/game';
import { getStrategy, legalMoves } from '../src/engine/index';
import type { Grid } from '../src/engine/index';
import { parseCommandLine } from '../src/cli/args';
import { bestOf, relativeLoss } from '../src/coach/grade';
import { useNetwork } from '../src/cli/network';
import { useEngine } from '../src/cli/engine';

async function main(): Promise<void> {
  const args = parseCommandLine(process.argv.slice(2), { strategy: { type: 'string' }, network: { type: 'string' } });
  const name = args.strategy();
  const networkFile = args.string('network');
  if (networkFile !== undefined) {
    // The network evaluates on the WebAssembly core (expectimax on the TypeScript engine keeps the heuristic).
    await useEngine('wasm');
    useNetwork(networkFile);
  }
  const positions: Grid[] = [];
  await playGame(0, 7, { strategy: 'expectimax', options: { depth: 2 }, target: 2048 }, {
    onState: (state) => {
      if (state.moves % 15 === 0) positions.push(state.grid);
    },
  });
  const strategy = getStrategy(name);
  const losses: number[] = [];
  for (const grid of positions) {
    if (legalMoves(grid).length < 2) continue;
    const choice = await strategy.chooseMove(grid, { timeMs: 100, playouts: 100, seed: 1 });
    const best = bestOf(choice.values);
    if (!best) continue;
    for (const [move, value] of Object.entries(choice.values)) {
      if (move !== best.move && value !== undefined) losses.push(relativeLoss(best.value, value));
    }
  }
  losses.sort((a, b) => a - b);
  const at = (p: number): string => `${(losses[Math.floor(p * (losses.length - 1))] * 100).toFixed(2)} %`;
  console.log(`${name}: ${losses.length} non-best moves in ${positions.length} positions; relative loss median ${at(0.5)}, p75 ${at(0.75)}, p90 ${at(0.9)}, p95 ${at(0.95)}`);
}

void main();
