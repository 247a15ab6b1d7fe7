/**
 * npx tsx scripts/handover.ts --games N --seed K --time-ms T
 *
 * Issue 15, the handover rule: plays N games with the search alone (expectimax, WASM core) and, at every
 * board where an endgame table fits, records the table's success probability p, whether the search chose
 * the table's move, and what became of that position under the search: success when the goal tile reached
 * the goal cell (or merged into the anchor) while the formation held, failure when the formation broke
 * first. Per bucket of p it prints the positions, the mean p (what the table achieves, exactly, in its
 * small game), the search's success rate and the agreement. Where the search falls short of p the table
 * should take over; the CLI's --table-threshold default comes from this table (README "Endgame tables").
 */
import type { Grid } from '../src/engine/index';
import { ORIENTATIONS, FORMATIONS, anchorOf, freeRanksIfFits } from '../src/engine/tables/formation';
import type { TableSpec } from '../src/engine/tables/formation';
import { lookup, ranksOfGrid } from '../src/engine/tables/table';
import { playGame } from '../src/cli/game';
import { useEngine } from '../src/cli/engine';
import { CLI_TABLE_SPECS, loadOrBuildTables } from '../src/cli/tables';
import { numberArg } from './number-arg';

interface Open {
  readonly spec: TableSpec;
  readonly orientation: number;
  readonly p: number;
  readonly agreed: boolean;
}

const BUCKETS = [0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 1.01];
const rows = BUCKETS.slice(0, -1).map(() => ({ n: 0, p: 0, success: 0, agreed: 0 }));

/** 1 success, 0 failure, null still open. */
function outcome(open: Open, grid: Grid): 1 | 0 | null {
  const ranks = ranksOfGrid(grid);
  if (!ranks) return 0;
  const canonical = ORIENTATIONS[open.orientation]!.map((cell) => ranks[cell]!);
  const formation = FORMATIONS[open.spec.formation];
  if (canonical[anchorOf(formation)] === open.spec.goal + 1) return 1;
  if (formation.goalCells.some((cell) => canonical[cell] === open.spec.goal)) return 1;
  return freeRanksIfFits(open.spec, canonical) ? null : 0;
}

const games = numberArg('games', 2);
const seed = numberArg('seed', 11);
const timeMs = numberArg('time-ms', 10);
await useEngine('wasm');
const { tables } = await loadOrBuildTables(CLI_TABLE_SPECS, undefined, (text) => process.stderr.write(`${text}\n`));
let boards = 0;
let fitting = 0;
for (let g = 0; g < games; g++) {
  let open: Open[] = [];
  let previous: Grid | null = null;
  const game = await playGame(g, seed + g, { strategy: 'expectimax', options: { timeMs } }, {
    onState: (state) => {
      // The board before this move: did a table fit it, and did the search play the table's move?
      if (previous && state.lastMove) {
        boards++;
        const hit = lookup(tables, previous);
        if (hit) {
          fitting++;
          open.push({ spec: hit.spec, orientation: hit.orientation, p: hit.probability, agreed: hit.move === state.lastMove });
        }
      }
      previous = state.grid;
      const still: Open[] = [];
      for (const o of open) {
        const result = outcome(o, state.grid);
        if (result === null) {
          still.push(o);
          continue;
        }
        const row = rows[BUCKETS.findIndex((b, i) => o.p >= b && o.p < BUCKETS[i + 1]!)]!;
        row.n++;
        row.p += o.p;
        row.success += result;
        row.agreed += o.agreed ? 1 : 0;
      }
      open = still;
    },
  });
  process.stderr.write(`game ${g}: best ${game.maxTile}, ${game.moves} moves, ${fitting}/${boards} boards fit a table so far\n`);
}
const table = rows.map((row, i) => ({
  bucket: `${BUCKETS[i]}..${Math.min(1, BUCKETS[i + 1]!)}`,
  positions: row.n,
  tableP: row.n ? +(row.p / row.n).toFixed(3) : null,
  searchSuccess: row.n ? +(row.success / row.n).toFixed(3) : null,
  agreement: row.n ? +(row.agreed / row.n).toFixed(3) : null,
}));
console.log(JSON.stringify({ games, seed, timeMs, boards, fitting, buckets: table }));
