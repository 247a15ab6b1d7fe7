/**
 * npx tsx bench/leaf-profile.ts [--depth 3] [--boards FILE,FILE] [--limit N] [--wasm FILE] [--eval network|heuristic|both]
 *                              [--runs R] [--dump OUT.json] [--check IN.json]
 *
 * What a leaf costs: every board of the crisis files (default tests/fixtures/strength/crisis-16384.txt and
 * crisis-32768.txt) is searched to a fixed depth, every legal root move, on one core with play's table
 * (2^21 entries, buckets; a fresh generation per board, the reference cut-off), with the shipped network at
 * the leaves and with the heuristic. At a fixed depth and cut-off the tree does not depend on the leaves'
 * values, so the two searches visit the same nodes and differ only in what a leaf costs. Prints the processor time
 * (this process's, so that runs preempted by other work are not charged for the wait), the move executions
 * and M executions/s of each (the best of --runs runs).
 * --dump writes every root move's value and executions (network and heuristic) to a file; --check compares
 * with such a file bit for bit (a change to the core that must not change a value: build before and after,
 * dump with one and check with the other; --wasm A,B,... searches with other builds of the core, their runs
 * interleaved; --dump writes the first one's).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../src/cli/args';
import { parseStartBoards } from '../src/cli/board';
import { networkFileFrom, useNetwork } from '../src/cli/network';
import { WASM_FILE, readWasm } from '../src/cli/wasm-files';
import { OUT, fromGrid } from '../src/engine/board';
import { instantiateWasmCore } from '../src/engine/index';
import type { Grid, WasmCore } from '../src/engine/index';
import { loadNetworkIntoCore } from '../src/engine/wasm/network';

const FIXTURES = new URL('../tests/fixtures/strength/', import.meta.url);
const DEFAULT_BOARDS = ['crisis-16384.txt', 'crisis-32768.txt'].map((name) => fileURLToPath(new URL(name, FIXTURES)));

const args = parseCommandLine(process.argv.slice(2), {
  depth: { type: 'string' },
  boards: { type: 'string' },
  limit: { type: 'string' },
  wasm: { type: 'string' },
  eval: { type: 'string' },
  runs: { type: 'string' },
  dump: { type: 'string' },
  check: { type: 'string' },
  network: { type: 'string' },
});

interface Run {
  readonly ms: number;
  readonly executions: number;
  /** Per board and root move (0 up .. 3 right): the value's float bits and the executions. */
  readonly results: [number, number][][];
}

function packed(grid: Grid): { lo: number; hi: number } {
  fromGrid(grid);
  return { lo: OUT[0] >>> 0, hi: OUT[1] >>> 0 };
}

const bits = new Float32Array(1);
const bitsU = new Uint32Array(bits.buffer);

function search(core: WasmCore, boards: readonly { lo: number; hi: number }[], depth: number): Run {
  let executions = 0;
  const results: [number, number][][] = [];
  // Processor time, not wall time: a run that the machine's other work preempts is not charged for the wait.
  const started = process.cpuUsage();
  for (const { lo, hi } of boards) {
    const row: [number, number][] = [];
    for (let dir = 0; dir < 4; dir++) {
      const value = core.searchRoot(lo, hi, dir, depth, Infinity, dir === 0, 0);
      const n = core.lastExecutions();
      executions += n;
      bits[0] = value;
      row.push([bitsU[0], n]);
    }
    results.push(row);
  }
  const used = process.cpuUsage(started);
  return { ms: (used.user + used.system) / 1000, executions, results };
}

async function main(): Promise<void> {
  const depth = args.int('depth', { min: 1, max: 12 }, 3) as number;
  const runs = args.int('runs', { min: 1, max: 100 }, 1) as number;
  const files = (args.string('boards') ?? DEFAULT_BOARDS.join(',')).split(',');
  const limit = args.int('limit', { min: 1, max: 1_000_000 });
  const all = files.flatMap((file) => parseStartBoards(readFileSync(file, 'utf8'), file, 4)).map(packed);
  const boards = limit === undefined ? all : all.slice(0, limit);
  const which = args.choice('eval', ['network', 'heuristic', 'both'] as const, 'both');
  const network = useNetwork(networkFileFrom(args));
  if (!network) throw new Error('leaf-profile needs a network (--network FILE)');
  const wasmFiles = (args.string('wasm') ?? WASM_FILE).split(',');
  const cores = wasmFiles.map((file) => {
    const core = instantiateWasmCore(readWasm(file));
    loadNetworkIntoCore(core, network);
    core.ttConfigure(21, false);
    return core;
  });
  const evals = which === 'both' ? (['network', 'heuristic'] as const) : ([which] as const);
  // Runs interleaved (A B A B ...), the best of each kept: the machine's other work slows runs at random.
  const measured: Record<string, Run>[] = cores.map(() => ({}));
  for (let r = 0; r < runs; r++) {
    for (const [k, core] of cores.entries()) {
      for (const evaluation of evals) {
        core.useNetwork(evaluation === 'network');
        const run = search(core, boards, depth);
        const best = measured[k][evaluation] as Run | undefined;
        if (best && JSON.stringify(best.results) !== JSON.stringify(run.results)) throw new Error('two runs differ');
        if (!best || run.ms < best.ms) measured[k][evaluation] = run;
      }
    }
  }
  process.stdout.write(`leaf-profile: ${boards.length} boards, depth ${depth}, best of ${runs}\n`);
  for (const [k, file] of wasmFiles.entries()) {
    for (const [evaluation, run] of Object.entries(measured[k])) {
      process.stdout.write(
        `${(wasmFiles.length > 1 ? `${file} ` : '') + evaluation.padEnd(10)} ${run.ms.toFixed(0).padStart(7)} ms  ${(run.executions / 1e6).toFixed(2).padStart(8)} M executions  ${(run.executions / run.ms / 1e3).toFixed(2).padStart(6)} M exec/s\n`,
      );
    }
  }
  for (const [k, core] of cores.entries()) {
    const counter = (core as unknown as { profileCounter?: (k: number) => number }).profileCounter;
    if (counter) process.stdout.write(`${wasmFiles[k]}: leaves ${counter(0)}, hits ${counter(1)} (all runs)\n`);
  }
  const dump = args.string('dump');
  const check = args.string('check');
  const expected = check ? (JSON.parse(readFileSync(check, 'utf8')) as { depth: number; boards: number; results: Record<string, [number, number][][]> }) : null;
  if (expected && (expected.depth !== depth || expected.boards !== boards.length)) {
    throw new Error(`--check: ${check} holds ${expected.boards} boards at depth ${expected.depth}, not ${boards.length} at depth ${depth}`);
  }
  for (const [k, file] of wasmFiles.entries()) {
    const results = Object.fromEntries(Object.entries(measured[k]).map(([evaluation, run]) => [evaluation, run.results]));
    if (dump && k === 0) writeFileSync(dump, JSON.stringify({ depth, boards: boards.length, results }));
    if (expected) process.stdout.write(`check: ${file}: ${compare(results, expected.results)} root moves equal bit for bit (value and executions) to ${check}\n`);
  }
}

/** Root moves equal in value bits and executions; throws at the first that differs. */
function compare(results: Record<string, [number, number][][]>, expected: Record<string, [number, number][][]>): number {
  let compared = 0;
  for (const [evaluation, rows] of Object.entries(results)) {
    const want = expected[evaluation];
    if (!want) continue;
    rows.forEach((row, i) =>
      row.forEach(([value, executions], dir) => {
        const [wantValue, wantExecutions] = want[i][dir];
        if (value !== wantValue || executions !== wantExecutions) {
          throw new Error(`--check: ${evaluation}, board ${i + 1}, move ${dir}: ${value}/${executions} against ${wantValue}/${wantExecutions}`);
        }
        compared++;
      }),
    );
  }
  return compared;
}

await main();
