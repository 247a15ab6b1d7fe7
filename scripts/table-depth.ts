/**
 * npx tsx scripts/table-depth.ts [--seed K] [--from TILE] [--sum S] [--count N] [--max-nodes E] [--time-ms T] [--rounds R]
 *
 * How far the play search gets in a given amount of work, with play's transposition table in buckets of 4
 * (the default) and with the linear probing it had before (evicting the home slot): one game (seed K, 1 M
 * move executions a move, about 10 ms) is played once and N of its boards are kept, from the first with a
 * tile of at least --from and a tile sum of at least --sum; then the WebAssembly core searches them in game order, as play
 * does (the table kept from board to board), under each table in turn (--rounds R repeats the pair): with
 * a fixed budget of move executions per board (deterministic: the depth reached depends only on what the
 * table kept) and with a time budget. Prints the mean depth reached and the move executions per second.
 */
import { applyMove, createRng, getStrategy, isGameOver, maxTile, newGame, tileSum, spawnRandomTile, wasmCore } from '../src/engine/index';
import type { Grid, WasmCore } from '../src/engine/index';
import { useEngine } from '../src/cli/engine';
import { numberArg } from './number-arg';

const seed = numberArg('seed', 7);
const from = numberArg('from', 4096);
const minSum = numberArg('sum', 0);
const count = numberArg('count', 400);
const maxNodes = numberArg('max-nodes', 3e6);
const timeMs = numberArg('time-ms', 50);
const rounds = numberArg('rounds', 1);


async function boardsOfGame(): Promise<Grid[]> {
  const expectimax = getStrategy('expectimax');
  const rng = createRng(seed);
  let grid = newGame(rng, 4, 4);
  const kept: Grid[] = [];
  while (!isGameOver(grid) && kept.length < count) {
    if (maxTile(grid) >= from && tileSum(grid) >= minSum) kept.push(grid);
    // A budget of move executions (about 10 ms), not of time: the same boards on every run.
    const choice = await expectimax.chooseMove(grid, { timeMs: 1e7, maxNodes: 1e6 });
    if (choice.move === null) break;
    grid = spawnRandomTile(applyMove(grid, choice.move).grid, rng);
  }
  return kept;
}

async function measure(core: WasmCore, boards: readonly Grid[], budget: 'nodes' | 'time'): Promise<string> {
  core.ttNewGeneration();
  const expectimax = getStrategy('expectimax');
  let depth = 0;
  let executions = 0;
  let ms = 0;
  for (const grid of boards) {
    const choice = await expectimax.chooseMove(grid, budget === 'nodes' ? { timeMs: 1e7, maxNodes } : { timeMs });
    depth += choice.depth;
    executions += choice.nodes;
    ms += choice.ms;
  }
  const what = budget === 'nodes' ? `${(maxNodes / 1e6).toFixed(1)} M executions` : `${timeMs} ms`;
  return `${what}: depth ${(depth / boards.length).toFixed(3)}, ${(executions / boards.length / 1e6).toFixed(2)} M executions, ${(executions / ms / 1e3).toFixed(1)} M/s`;
}

async function main(): Promise<void> {
  await useEngine('wasm');
  const core = wasmCore();
  if (!core) throw new Error('table-depth: the WebAssembly core did not load');
  const boards = await boardsOfGame();
  console.log(`seed ${seed}: ${boards.length} boards from the first with a ${from}${minSum ? ` and a tile sum of ${minSum}` : ''}`);
  for (let round = 0; round < rounds; round++) {
    for (const buckets of [false, true]) {
      core.ttUseBuckets(buckets);
      const name = buckets ? 'buckets of 4   ' : 'linear probing ';
      for (const budget of ['nodes', 'time'] as const) console.log(`${name} ${await measure(core, boards, budget)}`);
    }
  }
  core.ttUseBuckets(true);
}

void main();
