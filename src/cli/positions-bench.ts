/**
 * `npm run bench -- --positions FILE.tsv`: the reference positions searched in the reference configuration
 * and compared with the reference solver's values and move executions (docs: benchmarks.md), on one
 * thread or on several sharing each decision (--threads).
 */
import { DIRECTIONS, MAX_SPLIT_THREADS, estimateRootCosts, getStrategy, legalMoves, planSplit } from '../engine/index';
import type { Direction } from '../engine/index';
import { UsageError } from './args';
import type { ParsedArgs } from './args';
import { engineFrom, useEngine } from './engine';
import { PositionsFormatError, compareWithReference, parsePositionsTsv } from './positions';
import type { ReferencePosition, SearchedPosition } from './positions';
import { endProgress, progress, readText } from './progress-line';
import { SplitPool } from './split-pool';
import { formatNumber, formatPercent, formatTable } from './table';

/** The split positions bench's shared transposition table: 4 regions of 2^18 entries of 16 bytes = 16 MiB for
 *  all threads (more is slower: two threads' tables then crowd the 32 MiB L3 cache of this machine class). */
const SPLIT_TABLE_BITS = 18;

function readPositions(file: string): ReferencePosition[] {
  const text = readText(file);
  try {
    return parsePositionsTsv(text);
  } catch (error) {
    if (error instanceof PositionsFormatError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}

/**
 * One position searched at the reference depth by all the pool's threads together, sharing its root moves'
 * spawn children (src/engine/split.ts): every thread gets the plan (dearest move first, by a search four
 * layers shallower in this thread: about 1/150 of the work) and the shared buffer.
 */
async function searchSplit(pool: SplitPool, position: ReferencePosition, threads: number): Promise<SearchedPosition> {
  const grid = position.board;
  const roots = legalMoves(grid).map((dir) => DIRECTIONS.indexOf(dir));
  const distinct = new Set(grid.cells.filter((v) => v !== 0)).size;
  const limit = Math.max(3, distinct - 2);
  const plan = planSplit(grid, roots, threads, estimateRootCosts(grid, roots, Math.max(1, limit - 4)));
  const { values, executions } = await pool.search({ grid, plan, limit, cutoff: 0, deadline: Infinity, network: false });
  for (const dir of plan.dirs) {
    if (values[DIRECTIONS[dir]] === undefined) throw new Error(`the children of move ${DIRECTIONS[dir]} were not all searched`);
  }
  const byDirection: Partial<Record<Direction, number>> = {};
  for (const dir of plan.dirs) byDirection[DIRECTIONS[dir]] = executions[dir];
  return { values, executions: byDirection };
}

export async function positionsBench(args: ParsedArgs, strengthOnly: readonly string[]): Promise<void> {
  const given = strengthOnly.filter((name) => args.has(name));
  if (given.length > 0) throw new UsageError(`--${given[0]} does not apply with --positions`);
  const file = args.string('positions') as string;
  const limit = args.int('limit', { min: 1, max: 1_000_000 });
  const all = readPositions(file);
  const positions = limit === undefined ? all : all.slice(0, limit);
  const expectimax = getStrategy('expectimax');
  const json = args.flag('json');
  const engine = engineFrom(args);
  await useEngine(engine);

  let agree = 0;
  let maxRelError = 0;
  let moveExecutions = 0;
  let referenceExecutions = 0;
  let executionsMatched = 0;
  let executionsCompared = 0;
  const mismatches: string[][] = [];
  const threads = args.int('threads', { min: 1, max: MAX_SPLIT_THREADS }, 1) as number;
  if (threads > 1 && engine !== 'wasm') throw new UsageError('--threads above 1 needs --engine wasm');
  const pool = threads > 1 ? new SplitPool(threads, 'wasm', SPLIT_TABLE_BITS) : null;
  await pool?.ready();
  const started = performance.now();
  for (const [i, position] of positions.entries()) {
    // With threads, one decision at a time (as a player waits for each move): all threads share its root
    // moves' spawn children, and the next position starts when all are done.
    const ours: { values: Partial<Record<Direction, number>>; executions: Partial<Record<Direction, number>> } = pool
      ? await searchSplit(pool, position, threads)
      : { values: {}, executions: {} };
    if (!pool) {
      for (const dir of legalMoves(position.board)) {
        const choice = await expectimax.chooseMove(position.board, { reference: true, rootMoves: [dir] });
        ours.values[dir] = choice.values[dir] ?? 0;
        ours.executions[dir] = choice.nodes;
      }
    }
    for (const dir of DIRECTIONS) moveExecutions += ours.executions[dir] ?? 0;
    for (const count of Object.values(position.executions)) referenceExecutions += count;
    const comparison = compareWithReference(position, ours as SearchedPosition);
    if (comparison.bestAgrees) agree++;
    maxRelError = Math.max(maxRelError, comparison.maxRelError);
    executionsMatched += comparison.executionsMatched;
    executionsCompared += comparison.executionsCompared;
    if (!comparison.bestAgrees || comparison.executionsMatched !== comparison.executionsCompared) {
      mismatches.push([
        String(position.line),
        position.best,
        comparison.best ?? '-',
        comparison.maxRelError.toExponential(2),
        `${comparison.executionsMatched}/${comparison.executionsCompared}`,
      ]);
    }
    const elapsed = (performance.now() - started) / 1000;
    progress(`${i + 1}/${positions.length} positions, ${formatNumber(moveExecutions)} move executions, ${elapsed.toFixed(1)} s`);
  }
  const seconds = (performance.now() - started) / 1000;
  await pool?.close();
  endProgress();
  const lines: string[] = [
    `positions bench: ${file}, ${positions.length} positions, expectimax reference, engine ${engine}, ${threads} thread(s)${threads > 1 ? ' (sharing each root move\'s spawn children)' : ''}`,
  ];
  if (mismatches.length > 0) {
    lines.push('', `positions that differ (${mismatches.length}${mismatches.length > 20 ? ', first 20 shown' : ''}):`);
    lines.push(
      ...formatTable(
        [{ header: 'line' }, { header: 'best', align: 'left' }, { header: 'ours', align: 'left' }, { header: 'rel.err' }, { header: 'execs equal' }],
        mismatches.slice(0, 20),
      ),
    );
  }
  lines.push('');
  lines.push(
    ...formatTable(
      [{ header: 'measure', align: 'left' }, { header: 'value' }],
      [
        ['best move agrees', `${agree}/${positions.length} (${formatPercent(agree / positions.length)})`],
        ['max relative error of move values', maxRelError.toExponential(2)],
        ['per-move execution counts equal', `${executionsMatched}/${executionsCompared}`],
        ['move executions (ours)', formatNumber(moveExecutions)],
        ['move executions (reference)', formatNumber(referenceExecutions)],
        ['seconds', seconds.toFixed(2)],
        ['ms per decision', ((seconds * 1000) / positions.length).toFixed(1)],
        ['M move executions / s', (moveExecutions / seconds / 1e6).toFixed(2)],
      ],
    ),
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  if (json) {
    const out = {
      positions: positions.length,
      agree: agree / positions.length,
      maxRelError,
      moveExecutions,
      seconds,
      msPerDecision: (seconds * 1000) / positions.length,
      executionsPerSecond: moveExecutions / seconds,
      engine,
      threads,
      referenceMoveExecutions: referenceExecutions,
      executionCountsMatched: executionsMatched,
      executionCountsCompared: executionsCompared,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
}
