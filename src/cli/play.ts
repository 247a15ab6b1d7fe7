/**
 * npm run play -- [--strategy S] [--seed K] [--time-ms T] [--bank K] [--depth D] [--playouts P] [--size N]
 *                 [--target TILE] [--every N]
 *
 * One game in the terminal. On a TTY the board and a progress line are redrawn in place (ANSI cursor
 * movement); otherwise the board and progress are printed as plain lines every N moves. Ctrl-C stops the
 * game and prints the summary (exit 0), as does the game's end.
 */
import { MAX_SPLIT_THREADS, maxTile } from '../engine/index';
import { UsageError, parseCommandLine, isEntryPoint, runCli } from './args';
import type { CliIo } from './args';
import { formatBoard } from './board';
import { playGame } from './game';
import type { GameSettings, GameState } from './game';
import { threadedChooser } from './split-games';
import { ENGINE_OPTION_SPECS, engineFrom, useEngine } from './engine';
import { NETWORK_HELP, NETWORK_OPTION_SPECS, networkFileFrom, networkInUse, useNetwork } from './network';
import { BANK_HELP, BANK_OPTION_SPECS, bankFrom, describeSearchOptions, EVALUATION_HELP, SEARCH_OPTION_SPECS, searchOptionsFrom, SIZE_RANGE, strategyChoices } from './search-options';
import { CLI_TABLE_SPECS, TABLES_OPTION_SPECS, installTables, loadOrBuildTables, tablesFrom } from './tables';
import { formatNumber } from './table';

const USAGE = `Usage: npm run play -- [--strategy S] [--seed K] [--time-ms T] [--bank K] [--depth D] [--playouts P]
                      [--size N] [--target TILE] [--every N] [--threads T]

Plays one game in the terminal; Ctrl-C stops it and prints the summary.

Options:
  --strategy S   ${strategyChoices()}
                 (default expectimax)
  --seed K       game seed, 0..4294967295 (default: from the clock, printed)
  --time-ms T    think time per move          --depth D     search depth
  --playouts P   Monte-Carlo playouts per move
${BANK_HELP}
  --reference    expectimax: the reference configuration (the native peer's depth rule and cut-off, no time limit)
  --engine E     expectimax search core: wasm (default, WebAssembly) | ts (TypeScript)
${EVALUATION_HELP}
${NETWORK_HELP}
  --tables on|off  endgame tables (default off; built once, cached in ~/.cache/2048-autopilot/tables/)
  --table-threshold P  play the table's move when its success probability is ≥ P (default 0.5)
  --size N       board N x N, ${SIZE_RANGE.min}..${SIZE_RANGE.max} (default 4)
  --target TILE  stop when the best tile reaches TILE
  --every N      without a terminal: print the board every N moves (default 100)
  --threads T    threads searching each decision together (expectimax: on one shared table, as the
                 extension in Chrome; other strategies: by root move) (default 1)
  -h, --help     this help
`;

const OPTIONS = {
  strategy: { type: 'string' },
  seed: { type: 'string' },
  ...SEARCH_OPTION_SPECS,
  ...BANK_OPTION_SPECS,
  ...ENGINE_OPTION_SPECS,
  ...NETWORK_OPTION_SPECS,
  ...TABLES_OPTION_SPECS,
  size: { type: 'string' },
  target: { type: 'string' },
  every: { type: 'string' },
  threads: { type: 'string' },
} as const;

/** Draws frames of text lines; on a TTY each frame overwrites the previous one. */
class Screen {
  private drawnLines = 0;
  private lastDraw = 0;

  constructor(
    private readonly tty: boolean,
    private readonly write: (text: string) => void,
  ) {}

  /** Redraw in place (TTY, at most every `minIntervalMs` unless forced) or print the lines. */
  draw(lines: readonly string[], force: boolean, minIntervalMs = 40): void {
    const now = performance.now();
    if (!force && now - this.lastDraw < minIntervalMs) return;
    this.lastDraw = now;
    if (!this.tty) {
      this.write(`${lines.join('\n')}\n`);
      return;
    }
    const up = this.drawnLines > 0 ? `\x1b[${this.drawnLines}F` : '';
    this.write(up + lines.map((line) => `\x1b[2K${line}\n`).join(''));
    this.drawnLines = lines.length;
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const args = parseCommandLine(argv, OPTIONS);
  const strategy = args.strategy();
  const engine = engineFrom(args);
  const network = networkFileFrom(args);
  if (strategy === 'network' && network === null) throw new UsageError('the network strategy needs a network: --network FILE (npm run train writes one)');
  const seed = args.int('seed', { min: 0, max: 0xffffffff }, Date.now() % 0x100000000) as number;
  const size = args.int('size', SIZE_RANGE, 4) as number;
  const every = args.int('every', { min: 1, max: 1_000_000 }, 100) as number;
  const target = args.int('target', { min: 4, max: 131_072 });
  if (target !== undefined && (target & (target - 1)) !== 0) throw new UsageError(`--target must be a power of two, got ${target}`);
  const options = searchOptionsFrom(args, strategy);
  const bank = bankFrom(args, strategy, options, size);
  const tables = tablesFrom(args);
  const threads = args.int('threads', { min: 1, max: MAX_SPLIT_THREADS }, 1) as number;
  // Every option is checked before the core and the network load (seconds): bad input is told at once.
  await useEngine(engine);
  const evaluatedWith = networkInUse(network, strategy, options);
  useNetwork(evaluatedWith);
  if (tables.on) {
    const loaded = await loadOrBuildTables(CLI_TABLE_SPECS, undefined, (text) => process.stderr.write(`${text}\n`));
    installTables(loaded.tables);
  }

  const tty = process.stdout.isTTY === true;
  const screen = new Screen(tty, (text) => process.stdout.write(text));
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.on('SIGINT', onSigint);

  const settings: GameSettings = { strategy, options, target, rows: size, cols: size, engine, network: evaluatedWith, ...(tables.on ? { tables } : {}), ...(bank !== undefined ? { bank } : {}) };
  const chooser = threads > 1 ? await threadedChooser(settings, threads) : null;
  const title = [
    `strategy ${strategy}`,
    `seed ${seed}`,
    ...describeSearchOptions(options),
    ...(bank !== undefined ? [`time bank up to ${bank}x`] : []),
    ...(chooser ? [`${threads} threads${chooser.mode === 'shared' ? ' on one table' : ' by root move'}`] : []),
  ].join(', ');
  const started = performance.now();
  const frame = (state: GameState): string[] => {
    const elapsed = (performance.now() - started) / 1000;
    const rate = elapsed > 0 ? state.moves / elapsed : 0;
    return [
      title,
      ...formatBoard(state.grid),
      `moves ${state.moves}  score ${formatNumber(state.score)}  best ${maxTile(state.grid)}  ` +
        `${rate.toFixed(1)} moves/s${state.lastMove ? `  last ${state.lastMove}` : ''}`,
    ];
  };
  if (!tty) process.stdout.write(`${title}\n`);
  const game = await playGame(
    0,
    seed,
    settings,
    {
      signal: controller.signal,
      ...(chooser ? { choose: chooser.choose } : {}),
      onState: (state) => {
        if (tty) screen.draw(frame(state), state.moves === 0);
        else if (state.moves % every === 0) screen.draw(frame(state).slice(1), true);
      },
    },
  );
  process.off('SIGINT', onSigint);
  await chooser?.close();
  const elapsed = (performance.now() - started) / 1000;
  const finalState: GameState = { grid: game.grid, score: game.score, moves: game.moves, thinkMs: game.thinkMs, lastMove: null, lastChoice: null };
  screen.draw(tty ? frame(finalState) : frame(finalState).slice(1), true);
  const how = {
    'game-over': 'game over',
    target: `reached ${target}`,
    stopped: 'stopped',
    stuck: 'stopped: the strategy returned no usable move',
  }[game.end];
  process.stdout.write(
    `${how} after ${game.moves} moves: score ${formatNumber(game.score)}, best tile ${game.maxTile}; ` +
      `${strategy}, seed ${seed}; ${elapsed.toFixed(1)} s, ` +
      `${game.moves > 0 ? (game.thinkMs / game.moves).toFixed(2) : '0'} ms/move thinking\n`,
  );
}

/** `npm run play -- ARGS`: its exit status, its output through `io` (usage and errors; the work writes to the process). */
export function cli(argv: readonly string[], io?: CliIo): Promise<number> {
  return runCli(USAGE, () => main(argv), io);
}

if (isEntryPoint(import.meta.url)) await cli(process.argv.slice(2));
