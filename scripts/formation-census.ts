/**
 * npx tsx scripts/formation-census.ts --games N --seed K --time-ms T [--from TILE] [--steer-margin M]
 *
 * Issue 15, step 1: where does today's search take the late game? Plays N games (expectimax, WASM core)
 * and, for every board whose best tile is at least --from (default 2048), checks in all 8 orientations
 * whether it matches the candidate formations of an endgame table:
 *   block6  the six biggest tiles fill a 3x2 block in a corner (either way round)
 *   rows8   the eight biggest tiles fill the two rows along an edge
 *   snake4  the four biggest tiles fill one edge row, in order from the corner
 *   snake6  snake4 plus the 5th and 6th biggest in the next row, continuing the snake (turning back)
 * "Biggest" ranks the tiles by value (ties: a formation needs distinct values to count).
 */
import { maxTile } from '../src/engine/index';
import { ORIENTATIONS } from '../src/engine/tables/formation';
import { holdsFormation } from '../src/engine/tables/steer';
import type { Grid } from '../src/engine/index';
import { playGame } from '../src/cli/game';
import { useEngine } from '../src/cli/engine';
import { numberArg } from './number-arg';

type Cells = readonly number[];

/** The k biggest tile values, descending, or null when two of them are equal or a cell is missing. */
function topValues(cells: Cells, k: number): number[] | null {
  const sorted = cells.filter((v) => v > 0).sort((a, b) => b - a);
  if (sorted.length < k) return null;
  const top = sorted.slice(0, k);
  for (let i = 1; i < k; i++) if (top[i] === top[i - 1]) return null;
  if (sorted.length > k && sorted[k] === top[k - 1]) return null;
  return top;
}

/** Does some orientation put the k biggest tiles, in order, on the given cell sequence (top-left frame)? */
function matchesOrdered(cells: Cells, seq: readonly number[]): boolean {
  const top = topValues(cells, seq.length);
  if (!top) return false;
  return ORIENTATIONS.some((map) => seq.every((cell, i) => cells[map[cell]!] === top[i]));
}

const FORMATIONS = {
  block6: (c: Cells) => holdsFormation(c, [0, 1, 2, 4, 5, 6]),
  rows8: (c: Cells) => holdsFormation(c, [0, 1, 2, 3, 4, 5, 6, 7]),
  snake4: (c: Cells) => matchesOrdered(c, [0, 1, 2, 3]),
  snake6: (c: Cells) => matchesOrdered(c, [0, 1, 2, 3, 7, 6]),
  block6snake: (c: Cells) => matchesOrdered(c, [0, 1, 2, 6, 5, 4]),
} as const;

const games = numberArg('games', 2);
const seed = numberArg('seed', 1);
const timeMs = numberArg('time-ms', 10);
const from = numberArg('from', 2048);
/** Steer the root choice toward the formations (src/engine/tables/steer.ts); 0 = the search alone. */
const steer = numberArg('steer-margin', 0);
await useEngine('wasm');
const counts: Record<string, number> = Object.fromEntries(Object.keys(FORMATIONS).map((k) => [k, 0]));
let boards = 0;
const results = [];
for (let g = 0; g < games; g++) {
  const game = await playGame(g, seed + g, { strategy: 'expectimax', options: { timeMs }, tables: { on: false, threshold: 1, steer } }, {
    onState: (state) => {
      const grid: Grid = state.grid;
      if (maxTile(grid) < from) return;
      boards++;
      for (const [name, test] of Object.entries(FORMATIONS)) if (test(grid.cells)) counts[name]!++;
    },
  });
  results.push({ seed: game.seed, maxTile: game.maxTile, score: game.score, moves: game.moves, steered: game.steeredMoves ?? 0 });
  process.stderr.write(`game ${g}: ${JSON.stringify(results[results.length - 1])}\n`);
}
const shares = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, boards ? +(v / boards).toFixed(3) : 0]));
console.log(JSON.stringify({ steer, games: results, from, boards, counts, shares }));
