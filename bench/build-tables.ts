/**
 * npx tsx bench/build-tables.ts [--specs formation:goalRank[:maxSum],...]
 *
 * Builds endgame tables (default: the CLI's set) with the WebAssembly builder, without touching the cache,
 * and prints one JSON line per table: positions solved, stored entries and bytes, the builder's peak
 * memory, wall and CPU time (the CPU time is what a quiet core would take; the machine is shared).
 */
import { TableBuilder } from '../src/engine/tables/builder';
import { FORMATION_NAMES, fullSum } from '../src/engine/tables/formation';
import type { FormationName, TableSpec } from '../src/engine/tables/formation';
import { serializeTable } from '../src/engine/tables/store';
import { CLI_TABLE_SPECS } from '../src/cli/tables';
import { TABLES_WASM_FILE, readWasm } from '../src/cli/wasm-files';
import { parseCommandLine } from '../src/cli/args';

function parseSpec(text: string): TableSpec {
  const [name, goal, sum] = text.split(':');
  const formation = FORMATION_NAMES.find((f) => f === name) as FormationName | undefined;
  if (!formation || !goal) throw new Error(`spec "${text}": expected formation:goalRank[:maxSum] (${FORMATION_NAMES.join(', ')})`);
  const spec: TableSpec = { formation, goal: Number(goal), maxSum: 0 };
  return { ...spec, maxSum: sum ? Number(sum) : fullSum(spec) };
}

const builder = new TableBuilder(readWasm(TABLES_WASM_FILE));
const specsText = parseCommandLine(process.argv.slice(2), { specs: { type: 'string' } }).string('specs');
const specs = specsText ? specsText.split(',').map(parseSpec) : CLI_TABLE_SPECS;
const totals = { states: 0, storedBytes: 0, ms: 0, cpuMs: 0, peakMemoryBytes: 0 };
for (const spec of specs) {
  const cpu = process.cpuUsage();
  const report = builder.build(spec);
  const used = process.cpuUsage(cpu);
  const cpuMs = Math.round((used.user + used.system) / 1000);
  const storedBytes = serializeTable(report.table).length;
  let nonZero = 0;
  for (const entry of report.table.entries) if (entry & 63) nonZero++;
  totals.states += report.states;
  totals.storedBytes += storedBytes;
  totals.ms += report.ms;
  totals.cpuMs += cpuMs;
  totals.peakMemoryBytes = Math.max(totals.peakMemoryBytes, report.memoryBytes);
  console.log(JSON.stringify({ spec, states: report.states, storedEntries: report.table.entries.length, nonZero, storedBytes,
    memoryBytes: report.memoryBytes, ms: Math.round(report.ms), cpuMs }));
}
console.log(JSON.stringify({ totals: { ...totals, ms: Math.round(totals.ms) } }));
