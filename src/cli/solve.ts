/**
 * npm run solve -- --board "0,2,2,4,..." [--rows R --cols C] [--strategy S] [--time-ms T] [--depth D]
 *                  [--playouts P] [--seed K] [--reference] [--chance] [--json]
 *
 * Prints the board, the value of every move (illegal moves shown as illegal) and the best move.
 */
import { DIRECTIONS, estimateChance, getStrategy } from '../engine/index';
import type { ChanceEstimate, SearchOptions } from '../engine/index';
import { UsageError, parseCommandLine, isEntryPoint, runCli } from './args';
import type { CliIo } from './args';
import { MAX_SIDE, MIN_SIDE, formatBoard, parseBoard } from './board';
import { ENGINE_OPTION_SPECS, engineFrom, useEngine } from './engine';
import { NETWORK_HELP, NETWORK_OPTION_SPECS, networkFileFrom, networkInUse, useNetwork } from './network';
import { describeSearchOptions, EVALUATION_HELP, SEARCH_OPTION_SPECS, searchOptionsFrom, strategyChoices } from './search-options';
import { formatNumber, formatTable } from './table';

const USAGE = `Usage: npm run solve -- --board "V1,V2,...,Vn" [--rows R --cols C] [--strategy S]
                       [--time-ms T] [--depth D] [--playouts P] [--seed K] [--reference] [--chance] [--json]

Searches one position and prints the value of every move and the best move.

  --board B      tile values row-major from the top-left, 0 = empty, separated by commas
                 (9, 16, ..., 64 values: a square board; otherwise give --rows/--cols)
  --rows R, --cols C   board shape, ${MIN_SIDE}..${MAX_SIDE} each
  --strategy S   ${strategyChoices()}
                 (default expectimax)
  --time-ms T    think time                    --depth D    search depth
  --playouts P   Monte-Carlo playouts per move --seed K     seed for randomized strategies
  --engine E     expectimax search core: wasm (default, WebAssembly) | ts (TypeScript)
${EVALUATION_HELP}
${NETWORK_HELP}
  --reference    expectimax: the reference configuration (the native peer's search)
  --chance       the chance meter: the chance of the next milestone and the one after (4x4, with a network)
  --json         the choice as one JSON object on the last line
  -h, --help     this help
`;

const OPTIONS = {
  board: { type: 'string' },
  rows: { type: 'string' },
  cols: { type: 'string' },
  strategy: { type: 'string' },
  ...SEARCH_OPTION_SPECS,
  ...ENGINE_OPTION_SPECS,
  ...NETWORK_OPTION_SPECS,
  seed: { type: 'string' },
  chance: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

function pct(p: number): string {
  return `${(100 * p).toFixed(1)} %`;
}

/** The chance meter's lines (docs/cli.md): the milestones with their 90 % intervals, then each move's chance. */
export function chanceLines(estimate: ChanceEstimate | null): string[] {
  if (!estimate) return ['chance: none (the meter needs a 4x4 board with a legal move, below 65536, and the network)'];
  const lines = [`chance, if the learned network (one look ahead) played on from here:`];
  for (const c of [estimate.next, estimate.after]) {
    if (c) lines.push(`  ${String(c.target).padEnd(6)} ${pct(c.p).padStart(7)}   (90 % interval ${pct(c.lo)} – ${pct(c.hi)})`);
  }
  const moves = DIRECTIONS.filter((d) => estimate.moves[d] !== undefined).map((d) => `${d} ${pct(estimate.moves[d] ?? 0)}`);
  lines.push(`  each move's chance of ${estimate.next.target}: ${moves.join(', ')}`);
  return lines;
}

function formatValue(value: number): string {
  return Math.abs(value) >= 1000 ? formatNumber(value, 1) : value.toFixed(4);
}

async function main(argv: readonly string[]): Promise<void> {
  const args = parseCommandLine(argv, OPTIONS);
  const boardText = args.string('board');
  if (boardText === undefined) throw new UsageError('--board is required (e.g. --board "0,2,2,4,0,0,0,0,0,0,0,0,0,0,0,2")');
  const rows = args.int('rows', { min: MIN_SIDE, max: MAX_SIDE });
  const cols = args.int('cols', { min: MIN_SIDE, max: MAX_SIDE });
  const grid = parseBoard(boardText, rows, cols);
  const strategyName = args.strategy();
  const seed = args.int('seed', { min: 0, max: 0xffffffff });
  const options: SearchOptions = { ...searchOptionsFrom(args, strategyName), ...(seed !== undefined ? { seed } : {}) };

  await useEngine(engineFrom(args));
  const network = networkFileFrom(args);
  if (strategyName === 'network' && network === null) throw new UsageError('the network strategy needs a network: --network FILE (npm run train writes one)');
  useNetwork(networkInUse(network, strategyName, options, args.flag('chance')));
  const choice = await getStrategy(strategyName).chooseMove(grid, options);
  const lines = [`board ${grid.rows}x${grid.cols}:`, ...formatBoard(grid), ''];
  const details = [`strategy ${strategyName}`, ...describeSearchOptions(options)];
  if (choice.engine) details.push(`engine ${choice.engine}`);
  if (choice.evaluation && choice.evaluation !== options.evaluation) details.push(`${choice.evaluation} evaluation`);
  if (choice.depth > 0) details.push(`depth reached ${choice.depth}`);
  details.push(`${formatNumber(choice.nodes)} nodes`, `${choice.ms.toFixed(1)} ms`);
  lines.push(details.join(', '), '');
  lines.push(
    ...formatTable(
      [{ header: 'move', align: 'left' }, { header: 'value' }, { header: '', align: 'left' }],
      DIRECTIONS.map((dir) => {
        const value = choice.values[dir];
        return [dir, value === undefined ? 'illegal' : formatValue(value), dir === choice.move ? '<- best' : ''];
      }),
    ),
  );
  lines.push('', choice.move === null ? 'no legal move: game over' : `best move: ${choice.move}`);
  const chance = args.flag('chance') ? estimateChance(grid) : undefined;
  if (chance !== undefined) lines.push('', ...chanceLines(chance));
  process.stdout.write(`${lines.join('\n')}\n`);
  if (args.flag('json')) {
    process.stdout.write(
      `${JSON.stringify({ strategy: choice.strategy, move: choice.move, values: choice.values, depth: choice.depth, nodes: choice.nodes, ms: choice.ms, engine: choice.engine ?? null, ...(chance !== undefined ? { chance } : {}) })}\n`,
    );
  }
}

/** `npm run solve -- ARGS`: its exit status, its output through `io` (usage and errors; the work writes to the process). */
export function cli(argv: readonly string[], io?: CliIo): Promise<number> {
  return runCli(USAGE, () => main(argv), io);
}

if (isEntryPoint(import.meta.url)) await cli(process.argv.slice(2));
