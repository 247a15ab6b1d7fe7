/**
 * npx tsx scripts/death-census.ts --start FILE [--time-ms T] [--target TILE] [--last N] [--part P --parts K]
 *
 * Issue 15: which endgame-table formations do the boards fit just before a game is lost? Plays on from
 * each board of --start (expectimax, WASM core, tables off; spawns from the bench's game seeds, seed 1),
 * keeps the last --last boards (default 600) of every game that ends before --target (default 32768), and
 * counts, per formation, how many of them fit one of its tables (any anchor from 8 up, any of the 8
 * orientations), with the big tiles in order along the snake (as a table's lookup asks) and in any order,
 * and the anchors they fit at.
 * --part P --parts K plays only the boards P, P + K, ... (run K processes, one per core, and add up).
 */
import { readFileSync } from 'node:fs';
import { parseStartBoards } from '../src/cli/board';
import { playGame } from '../src/cli/game';
import { gameSeeds } from '../src/cli/seeds';
import { useEngine } from '../src/cli/engine';
import type { Grid } from '../src/engine/index';
import { FORMATIONS, ORIENTATIONS } from '../src/engine/tables/formation';
import { ranksOfGrid } from '../src/engine/tables/table';
import { numberArg } from './number-arg';

const startIndex = process.argv.indexOf('--start');
const file = startIndex >= 0 ? process.argv[startIndex + 1] : undefined;
if (!file) throw new Error('usage: npx tsx scripts/death-census.ts --start FILE [--time-ms T] [--target TILE] [--last N] [--part P --parts K]');
const timeMs = numberArg('time-ms', 20);
const target = numberArg('target', 32768);
const keep = numberArg('last', 600);
const part = numberArg('part', 0);
const parts = numberArg('parts', 1);
/**
 * Cell paths from a corner (top-left frame), the biggest tile first: the tables' formations, and the
 * "comb" the search builds instead (three rows of three, every row running the same way), which no table
 * uses: a tile built next to its last cell merges into a tile that is not next to its double.
 */
const PATHS: Record<string, readonly number[]> = {
  rows8: FORMATIONS.rows8.fixed,
  block6: FORMATIONS.block6.fixed,
  snake7: FORMATIONS.snake7.fixed,
  snake8: FORMATIONS.snake8.fixed,
  snake9: FORMATIONS.snake9.fixed,
  comb7: [0, 1, 2, 4, 5, 6, 8],
  comb8: [0, 1, 2, 4, 5, 6, 8, 9],
  comb9: [0, 1, 2, 4, 5, 6, 8, 9, 10],
};

/**
 * The anchor's rank when, in some orientation, the path holds distinct tiles, every one bigger than every
 * tile off the path, the anchor (its last cell) the smallest of them; `ordered`: and decreasing along the
 * path (what a table's lookup asks, freeRanksIfFits). Null when not.
 */
function fitGoal(ranks: readonly number[], path: readonly number[], ordered: boolean): number | null {
  const onPath = new Set(path);
  for (const map of ORIENTATIONS) {
    const canonical = map.map((cell) => ranks[cell]!);
    const anchor = canonical[path[path.length - 1]!]!;
    if (anchor < 3) continue;
    const seen = new Set<number>();
    let above = Infinity;
    let fits = true;
    for (const cell of path) {
      const r = canonical[cell]!;
      if (r < anchor || seen.has(r) || (ordered && r >= above)) fits = false;
      seen.add(r);
      above = r;
    }
    for (let cell = 0; cell < 16 && fits; cell++) if (!onPath.has(cell) && canonical[cell]! >= anchor) fits = false;
    if (fits) return anchor;
  }
  return null;
}

await useEngine('wasm');
const starts = parseStartBoards(readFileSync(file, 'utf8'), file, 4);
const seeds = gameSeeds(1, starts.length);
type Count = { boards: number; goals: Record<number, number> };
const fresh = (): Count => ({ boards: 0, goals: {} });
const counts = Object.fromEntries(Object.keys(PATHS).map((name) => [name, { ordered: fresh(), anyOrder: fresh() }]));
let lostGames = 0;
let reached = 0;
let boards = 0;
for (let i = part; i < starts.length; i += parts) {
  const ring: Grid[] = [];
  const game = await playGame(i, seeds[i]!, { strategy: 'expectimax', options: { timeMs }, target, start: starts[i]! }, {
    onState: (state) => {
      ring.push(state.grid);
      if (ring.length > keep) ring.shift();
    },
  });
  process.stderr.write(`board ${i}: ${game.end}, best tile ${game.maxTile}, ${game.moves} moves\n`);
  if (game.end === 'target') reached++;
  if (game.end !== 'game-over') continue;
  lostGames++;
  for (const grid of ring) {
    const ranks = ranksOfGrid(grid);
    if (!ranks) continue;
    boards++;
    for (const [name, path] of Object.entries(PATHS)) {
      for (const ordered of [true, false]) {
        const goal = fitGoal(ranks, path, ordered);
        if (goal === null) continue;
        const count = counts[name]![ordered ? 'ordered' : 'anyOrder'];
        count.boards++;
        count.goals[2 ** goal] = (count.goals[2 ** goal] ?? 0) + 1;
      }
    }
  }
}
console.log(JSON.stringify({ file, timeMs, target, last: keep, part, parts, games: Math.ceil((starts.length - part) / parts), reached, lostGames, boards, counts }));
