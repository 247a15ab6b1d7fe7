/**
 * npx tsx scripts/prune-quality.ts [--file BOARDS] [--count N] [--depth D]
 *
 * What play's transposition table gives a search that lowers its probability cut-off, with entries that
 * record their prune quality (the default) and without (every entry serves any node needing no more
 * depth, as before 2026-11-26). For each of the first N boards of a --start file (default: the crisis
 * boards of the 16384 build), on the WebAssembly core: the four root moves searched to D layers at the
 * reference's cut-off 1e-4, then at 2.5e-5 and 6.25e-6 on the table kept, then at 6.25e-6 on a fresh
 * table. Prints the move executions of each search and the largest difference of a root move's value from
 * the fresh search's.
 */
import { readFileSync } from 'node:fs';
import { wasmCore } from '../src/engine/index';
import { fromGrid, OUT } from '../src/engine/board';
import { parseStartBoards } from '../src/cli/board';
import { useEngine } from '../src/cli/engine';
import { numberArg } from './number-arg';

const fileAt = process.argv.indexOf('--file');
const file = fileAt >= 0 ? process.argv[fileAt + 1] : 'tests/fixtures/strength/crisis-16384.txt';
const count = numberArg('count', 4);
const depth = numberArg('depth', 7);
const CUTOFFS = [1e-4, 2.5e-5, 6.25e-6];

async function main(): Promise<void> {
  await useEngine('wasm');
  const core = wasmCore();
  if (!core) throw new Error('prune-quality: the WebAssembly core did not load');
  const boards = parseStartBoards(readFileSync(file, 'utf8'), file, 4).slice(0, count);
  const millions = (n: number): string => `${(n / 1e6).toFixed(2)} M`;
  for (const quality of [true, false]) {
    core.ttUseQuality(quality);
    console.log(`\nentries ${quality ? 'with their prune quality (now)' : 'without (before)'}, ${depth} layers:`);
    boards.forEach((grid, index) => {
      fromGrid(grid);
      const lo = OUT[0] >>> 0;
      const hi = OUT[1] >>> 0;
      const search = (cutoff: number, fresh: boolean): { values: number[]; executions: number } => {
        let executions = 0;
        if (fresh) core.ttNewGeneration();
        const values = [0, 1, 2, 3].map((dir) => {
          const v = core.searchRoot(lo, hi, dir, depth, Infinity, false, cutoff);
          executions += core.lastExecutions();
          return v;
        });
        return { values, executions };
      };
      core.ttConfigure(21, false);
      const kept = CUTOFFS.map((cutoff, i) => search(cutoff, i === 0));
      const fresh = search(CUTOFFS[CUTOFFS.length - 1], true);
      const last = kept[kept.length - 1].values;
      const off = Math.max(...last.map((v, d) => Math.abs(v - fresh.values[d]) / Math.max(1, Math.abs(fresh.values[d]))));
      const steps = kept.map((k, i) => `${CUTOFFS[i].toExponential(2)}: ${millions(k.executions)}`).join(', ');
      console.log(`board ${index + 1}: ${steps}; fresh at ${CUTOFFS[CUTOFFS.length - 1].toExponential(2)}: ${millions(fresh.executions)}, values off by ${(off * 100).toFixed(3)} %`);
    });
  }
  core.ttUseQuality(true);
}

void main();
