/**
 * npx tsx bench/crisis-boards.ts --games N [--seed K] [--tile 8192] [--sum 14000] [--max-nodes 3e5]
 *                                  [--part I --parts P] > boards.txt
 *
 * Boards to start strength benches from where games are decided (`npm run bench -- --start boards.txt`):
 * plays games with expectimax on the WebAssembly core at a fixed budget of move executions per move (no
 * clock: the same boards on every machine) and prints, one line per game, the first board whose best tile
 * is --tile and whose tile sum is at least --sum (by default: the 16384 being built, 14 000 of its 16 384
 * already on the board), in the format of --board. A game that ends before prints a # comment instead.
 * --part I --parts P plays only the games whose index is I mod P (to run P processes side by side; game i
 * has the same seed whichever process plays it).
 */
import { maxTile, tileSum } from '../src/engine/index';
import type { Grid } from '../src/engine/index';
import { playGame } from '../src/cli/game';
import { useEngine } from '../src/cli/engine';
import { gameSeeds } from '../src/cli/seeds';
import { parseCommandLine } from '../src/cli/args';

const args = parseCommandLine(process.argv.slice(2), {
  games: { type: 'string' },
  seed: { type: 'string' },
  tile: { type: 'string' },
  sum: { type: 'string' },
  'max-nodes': { type: 'string' },
  part: { type: 'string' },
  parts: { type: 'string' },
});
const games = args.int('games', { min: 1, max: 100_000 }, 40) ?? 40;
const seed = args.int('seed', { min: 0, max: 2 ** 31 - 1 }, 1) ?? 1;
const tile = args.int('tile', { min: 4, max: 131_072 }, 8192) ?? 8192;
const minSum = args.int('sum', { min: 0, max: 1e7 }, 14000) ?? 14000;
const maxNodes = args.number('max-nodes', { min: 1, max: 1e12 }, 3e5) ?? 3e5;
const parts = args.int('parts', { min: 1, max: 64 }, 1) ?? 1;
const part = args.int('part', { min: 0, max: parts - 1 }, 0) ?? 0;

async function main(): Promise<void> {
  await useEngine('wasm');
  const seeds = gameSeeds(seed, games);
  for (let index = part; index < games; index += parts) {
    const stop = new AbortController();
    let found: Grid | null = null;
    const game = await playGame(
      index,
      seeds[index],
      { strategy: 'expectimax', options: { timeMs: 1e7, maxNodes } },
      {
        signal: stop.signal,
        onState: ({ grid }) => {
          if (found === null && maxTile(grid) === tile && tileSum(grid) >= minSum) {
            found = grid;
            stop.abort();
          }
        },
      },
    );
    const board = found as Grid | null;
    process.stdout.write(
      board
        ? `${board.cells.join(' ')}  # game ${index + 1} (seed ${seeds[index]}), move ${game.moves}, sum ${tileSum(board)}\n`
        : `# game ${index + 1} (seed ${seeds[index]}): ${game.end} at move ${game.moves}, best tile ${game.maxTile}, sum ${tileSum(game.grid)}\n`,
    );
  }
}

void main();
