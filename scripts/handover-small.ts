/**
 * npx tsx scripts/handover-small.ts [--per-bucket N] [--depth D] [--goal G]
 *
 * Issue 15, the handover rule, in the table's own small game: random positions of the rows8 table for
 * goal 2^G (default 128), grouped by the table's success probability p, are played on by the search alone
 * (expectimax on the WASM core at a fixed depth, real rules, random spawns) until the goal tile stands
 * next to the anchor (success) or the formation breaks (a big tile moved, a free tile over its cap).
 * The table achieves p exactly in that game; where the search's rate falls short, the table should play.
 */
import { applyMove, createRng, getStrategy, spawnRandomTile } from '../src/engine/index';
import type { Grid } from '../src/engine/index';
import { FORMATIONS, freeRanksIfFits, layoutOf, ranksOf } from '../src/engine/tables/formation';
import type { TableSpec } from '../src/engine/tables/formation';
import { entryAt } from '../src/engine/tables/table';
import { useEngine } from '../src/cli/engine';
import { loadOrBuildTables } from '../src/cli/tables';
import { numberArg } from './number-arg';

const perBucket = numberArg('per-bucket', 30);
const depth = numberArg('depth', 2);
const goal = numberArg('goal', 7);
const spec: TableSpec = { formation: 'rows8', goal, maxSum: 8 * 2 ** (goal - 1) };
await useEngine('wasm');
const { tables } = await loadOrBuildTables([spec]);
const table = tables[0]!;
const layout = layoutOf(spec);
const formation = FORMATIONS[spec.formation];
const rng = createRng(7);
const expectimax = getStrategy('expectimax');
const BUCKETS = [0.05, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 1.01];
const rows = BUCKETS.slice(0, -1).map(() => ({ n: 0, p: 0, success: 0, moves: 0 }));

function canonicalGrid(ranks: readonly number[]): Grid {
  const cells = new Array<number>(16).fill(0);
  let big = spec.goal;
  for (const cell of [...formation.fixed].reverse()) cells[cell] = 2 ** big++;
  formation.free.forEach((cell, i) => (cells[cell] = ranks[i]! > 0 ? 2 ** ranks[i]! : 0));
  return { rows: 4, cols: 4, cells };
}

let tries = 0;
while (rows.some((r) => r.n < perBucket) && tries < 5_000_000) {
  tries++;
  const chunk = rng.int(layout.chunkCount);
  const offset = rng.int(layout.chunkSize);
  const p = (entryAt(table, layout, chunk, offset) & 63) / 63;
  const b = BUCKETS.findIndex((lo, i) => p >= lo && p < BUCKETS[i + 1]!);
  if (b < 0 || rows[b]!.n >= perBucket) continue;
  let grid = canonicalGrid(ranksOf(spec, layout, chunk, offset));
  const fixedValues = formation.fixed.map((cell) => grid.cells[cell]);
  let success = 0;
  let moves = 0;
  for (;;) {
    const choice = await expectimax.chooseMove(grid, { depth });
    if (choice.move === null) break;
    const after = applyMove(grid, choice.move).grid;
    moves++;
    if (formation.goalCells.some((cell) => after.cells[cell] === 2 ** spec.goal)) {
      success = 1;
      break;
    }
    if (formation.fixed.some((cell, i) => after.cells[cell] !== fixedValues[i])) break;
    const canonical = after.cells.map((v) => (v ? Math.log2(v) : 0));
    if (!freeRanksIfFits({ ...spec, maxSum: Infinity }, canonical)) break;
    grid = spawnRandomTile(after, rng);
  }
  const row = rows[b]!;
  row.n++;
  row.p += p;
  row.success += success;
  row.moves += moves;
}
console.log(JSON.stringify({
  spec,
  depth,
  buckets: rows.map((r, i) => ({
    p: `${BUCKETS[i]}..${Math.min(1, BUCKETS[i + 1]!)}`,
    positions: r.n,
    tableP: r.n ? +(r.p / r.n).toFixed(3) : null,
    searchSuccess: r.n ? +(r.success / r.n).toFixed(3) : null,
    meanMoves: r.n ? +(r.moves / r.n).toFixed(1) : null,
  })),
}));
