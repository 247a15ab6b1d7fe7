/**
 * npx tsx bench/budget.ts [--boards FILE] [--moves N] [--configs 1x50,2x100,2x100:roots] [--easy on|off]
 *                         [--eval network|heuristic] [--seed K] [--json]
 *
 * What the product's budget buys: from each crisis board (default tests/fixtures/strength/crisis-32768.txt,
 * where the 32768 is being built; see bench/crisis-boards.ts) --moves moves are played with expectimax
 * (the shipped network at the leaves) under each configuration THREADSxMS, and the depth reached, the
 * move executions per second of thinking and the time spent per move are reported per configuration.
 * T x MS: T threads sharing each decision on one table (a split session, src/engine/split-session.ts, as
 * the extension in Chrome); `:roots`: by root move, a table per thread (the split before, and Firefox's).
 * One thread searches in this thread, as the bench's workers do. The spawns come from --seed, the same
 * for every configuration, so the games part only where the moves chosen differ. Each configuration starts
 * afresh (forgetSearches: this thread's table and time manager; more threads get a new pool): it would
 * otherwise read the entries the configurations before it left for the same boards and come out deeper.
 */
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { forgetSearches, getStrategy, maxTile } from '../src/engine/index';
import type { Grid, MoveChoice, SearchOptions } from '../src/engine/index';
import { parseCommandLine } from '../src/cli/args';
import { parseStartBoards } from '../src/cli/board';
import { useEngine } from '../src/cli/engine';
import { playGame } from '../src/cli/game';
import type { GameSettings } from '../src/cli/game';
import { networkFileFrom, useNetwork } from '../src/cli/network';
import { gameSeeds } from '../src/cli/seeds';
import { threadedChooser } from '../src/cli/split-games';
import type { SplitMode } from '../src/cli/split-games';

const DEFAULT_BOARDS = fileURLToPath(new URL('../tests/fixtures/strength/crisis-32768.txt', import.meta.url));

interface Config {
  readonly label: string;
  readonly threads: number;
  readonly timeMs: number;
  readonly mode: SplitMode;
}

function parseConfigs(text: string): Config[] {
  return text.split(',').map((item) => {
    const match = /^(\d+)x(\d+)(?::(roots|shared))?$/.exec(item.trim());
    if (!match) throw new Error(`--configs: "${item}" is not THREADSxMS[:roots]`);
    const threads = Number(match[1]);
    const timeMs = Number(match[2]);
    if (threads < 1 || threads > 16 || timeMs < 1) throw new Error(`--configs: "${item}" is out of range`);
    return { label: item.trim(), threads, timeMs, mode: (match[3] as SplitMode | undefined) ?? 'shared' };
  });
}

interface Measured {
  readonly config: string;
  readonly moves: number;
  readonly meanDepth: number;
  readonly executionsPerSecond: number;
  readonly meanMs: number;
  readonly budgetShare: number;
  readonly maxTiles: number[];
}

const args = parseCommandLine(process.argv.slice(2), {
  boards: { type: 'string' },
  moves: { type: 'string' },
  configs: { type: 'string' },
  easy: { type: 'string' },
  eval: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  network: { type: 'string' },
});

async function measure(config: Config, boards: readonly Grid[], moves: number, seed: number, base: SearchOptions, network: string | null): Promise<Measured> {
  const settings: GameSettings = { strategy: 'expectimax', options: { ...base, timeMs: config.timeMs }, engine: 'wasm', network };
  forgetSearches();
  const chooser = config.threads > 1 ? await threadedChooser(settings, config.threads, config.mode) : null;
  const expectimax = getStrategy('expectimax');
  let depth = 0;
  let executions = 0;
  let ms = 0;
  let count = 0;
  const choose = async (grid: Grid, options: SearchOptions): Promise<MoveChoice> => {
    const started = performance.now();
    const choice = await (chooser ? chooser.choose(grid, options) : expectimax.chooseMove(grid, options));
    ms += performance.now() - started;
    depth += choice.depth;
    executions += choice.nodes;
    count++;
    return choice;
  };
  const seeds = gameSeeds(seed, boards.length);
  const maxTiles: number[] = [];
  try {
    for (const [index, start] of boards.entries()) {
      const stop = new AbortController();
      const game = await playGame(index, seeds[index], { ...settings, start }, { choose, signal: stop.signal, onState: (state) => state.moves >= moves && stop.abort() });
      maxTiles.push(maxTile(game.grid));
      process.stderr.write(`\r${config.label}: board ${index + 1}/${boards.length}   `);
    }
  } finally {
    await chooser?.close();
  }
  process.stderr.write('\n');
  return {
    config: config.label,
    moves: count,
    meanDepth: depth / count,
    executionsPerSecond: executions / (ms / 1000),
    meanMs: ms / count,
    budgetShare: ms / count / config.timeMs,
    maxTiles,
  };
}

async function main(): Promise<void> {
  const file = args.string('boards') ?? DEFAULT_BOARDS;
  const boards = parseStartBoards(readFileSync(file, 'utf8'), file, 4);
  const moves = args.int('moves', { min: 1, max: 100_000 }, 12) as number;
  const seed = args.int('seed', { min: 0, max: 0xffffffff }, 1) as number;
  const configs = parseConfigs(args.string('configs') ?? '1x50,2x100,2x100:roots');
  const easy = args.choice('easy', ['on', 'off'], 'on') === 'on';
  const evaluation = args.choice('eval', ['network', 'heuristic'] as const, 'network');
  await useEngine('wasm');
  const network = networkFileFrom(args);
  useNetwork(network);
  const base: SearchOptions = { easyStops: easy, evaluation };
  const results: Measured[] = [];
  for (const config of configs) results.push(await measure(config, boards, moves, seed, base, network));
  process.stdout.write(`budget: ${boards.length} boards of ${file}, ${moves} moves each, seed ${seed}, ${evaluation} evaluation, easy stops ${easy ? 'on' : 'off'}\n`);
  process.stdout.write('config        moves  mean depth  M exec/s  ms/move  share of budget\n');
  for (const r of results) {
    process.stdout.write(
      `${r.config.padEnd(12)}  ${String(r.moves).padStart(5)}  ${r.meanDepth.toFixed(2).padStart(10)}  ${(r.executionsPerSecond / 1e6).toFixed(2).padStart(8)}  ${r.meanMs.toFixed(1).padStart(7)}  ${(100 * r.budgetShare).toFixed(0).padStart(14)} %\n`,
    );
  }
  if (args.flag('json')) process.stdout.write(`${JSON.stringify({ boards: boards.length, moves, seed, easy, evaluation, results })}\n`);
}

await main();
