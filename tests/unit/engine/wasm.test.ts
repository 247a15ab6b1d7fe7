/**
 * The WebAssembly core against the TypeScript engine (the oracle): the line-heuristic table, moves,
 * scores and the board heuristic on random boards in every direction, and the reference configuration
 * on a subset of tests/fixtures/reference/expectimax-positions.tsv (values and execution counts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { packedBoard } from '../../support/boards';
import { HEUR, OUT, executeMove, fromGrid, heuristic } from '../../../src/engine/board';
import { getStrategy, installWasmCore, instantiateWasmCore, instantiateWasmCoreAsync } from '../../../src/engine/index';
import type { Grid, WasmCore } from '../../../src/engine/index';
import { referenceSearch, setRecentDepth, worthExtending } from '../../../src/engine/strategies/expectimax';
import { WASM_FILE } from '../../../src/cli/wasm-files';

let core: WasmCore;
beforeAll(() => {
  core = instantiateWasmCore(readFileSync(WASM_FILE));
});
afterEach(() => installWasmCore(null));

/** A random board as two u32 halves, ranks 0..15 (empty cells frequent, equal neighbours too). */
const boardArb = packedBoard(fc.integer({ min: 1, max: 3 }), fc.constant(15));

describe('WebAssembly core: tables, moves and heuristic against the TypeScript engine', () => {
  it('has the same float32 line heuristic for all 65 536 rows', () => {
    const wrong: number[] = [];
    for (let row = 0; row < 65536; row++) if (core.lineHeuristicOf(row) !== HEUR[row]) wrong.push(row);
    expect(wrong).toEqual([]);
  });

  it('moves every random board in every direction like the TypeScript bitboard (board and score)', () => {
    fc.assert(
      fc.property(boardArb, ({ lo, hi }) => {
        for (let dir = 0; dir < 4; dir++) {
          const score = executeMove(lo | 0, hi | 0, dir);
          expect(core.move(lo, hi, dir)).toBe(score);
          expect([core.outLo() >>> 0, core.outHi() >>> 0]).toEqual([OUT[0] >>> 0, OUT[1] >>> 0]);
        }
      }),
      { numRuns: 3000, seed: 8 },
    );
  });

  it('has the same board heuristic (float32 sums in the reference order) on random boards', () => {
    fc.assert(
      fc.property(boardArb, ({ lo, hi }) => {
        expect(core.heuristic(lo, hi)).toBe(heuristic(lo | 0, hi | 0));
      }),
      { numRuns: 3000, seed: 9 },
    );
  });

  it('instantiates asynchronously too (as an extension worker does)', async () => {
    const other = await instantiateWasmCoreAsync(readFileSync(WASM_FILE));
    expect(other.move(0x21, 0, 2)).toBe(0);
    expect(other.outLo()).toBe(0x21);
    expect(other.move(0x11, 0, 2)).toBe(4);
    expect(other.outLo()).toBe(0x2);
  });

  it('rejects bytes that are not the core with a clear error', () => {
    expect(() => instantiateWasmCore(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))).toThrow(/does not export/);
  });
});

interface Position {
  readonly grid: Grid;
  readonly values: number[];
  readonly executions: number[];
}

const file = fileURLToPath(new URL('../../fixtures/reference/expectimax-positions.tsv', import.meta.url));
const positions: Position[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('board'))
  .map((line) => {
    const f = line.split('\t');
    return {
      grid: { rows: 4, cols: 4, cells: f[0].split(',').map(Number) },
      values: f.slice(1, 5).map(Number),
      executions: f.slice(5, 9).map(Number),
    };
  });
const total = (p: Position): number => p.executions.reduce((a, b) => a + b, 0);
const byCost = [...positions].sort((a, b) => total(a) - total(b));
// Cheap ones, a few mid-priced ones and one of the dearest (about 10 M executions: the table grows).
const subset = [...byCost.slice(0, 6), byCost[50], byCost[100], byCost[140], byCost[170]];

describe('WebAssembly core: the reference configuration', () => {
  it.each(subset.map((p, i) => [i, p] as const))('reproduces position %i: counts, values, and the TS engine bit for bit', (_i, p) => {
    installWasmCore(core);
    const got = referenceSearch(p.grid);
    expect(got.engine).toBe('wasm');
    expect(got.executions).toEqual(p.executions);
    for (let d = 0; d < 4; d++) {
      if (p.values[d] === 0) expect(got.values[d]).toBe(0);
      else expect(Math.abs(got.values[d] - p.values[d]) / p.values[d]).toBeLessThan(1e-6);
    }
    if (total(p) < 3_000_000) {
      const oracle = referenceSearch(p.grid, 'bitboard');
      expect(oracle.engine).toBe('ts');
      expect(got.values).toEqual(oracle.values);
    }
  });

  it('grows its exact table beyond the initial 2^16 entries on a dear position', () => {
    installWasmCore(core);
    referenceSearch(byCost[170].grid);
    expect(core.ttSizeLog2()).toBeGreaterThan(16);
  });
});

describe('the play table: buckets of 4 kept across decisions, the least useful entry gives way', () => {
  const BITS = 10;
  /** n boards (lo, hi) of the same bucket of a 2^BITS-entry table (the core's multiplicative hash). */
  function sameBucket(n: number): { lo: number; hi: number }[] {
    const bucket = (lo: number, hi: number): bigint =>
      ((((BigInt(hi) << 32n) | BigInt(lo)) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn) >> BigInt(64 - BITS + 2);
    const hi = 0x12345678;
    const want = bucket(1, hi);
    const found = [{ lo: 1, hi }];
    for (let lo = 2; found.length < n; lo++) if (bucket(lo, hi) === want) found.push({ lo, hi });
    return found;
  }
  const [a, b, c, d, e, f, g, h] = sameBucket(8);
  const present = (...boards: { lo: number; hi: number }[]): boolean[] => boards.map((x) => !Number.isNaN(core.ttProbe(x.lo, x.hi, 1, 0)));

  it('answers a stored board when it was searched deep enough, replaces the shallowest in its bucket, and keeps one entry per board', () => {
    core.ttConfigure(BITS, false);
    core.ttNewGeneration();
    core.ttStore(a.lo, a.hi, 5, 0, 1.5);
    core.ttStore(b.lo, b.hi, 3, 0, 2.5);
    core.ttStore(c.lo, c.hi, 7, 0, 3.5);
    core.ttStore(d.lo, d.hi, 2, 0, 4.5);
    expect([core.ttProbe(a.lo, a.hi, 5, 0), core.ttProbe(b.lo, b.hi, 1, 0), core.ttProbe(c.lo, c.hi, 7, 0), core.ttProbe(d.lo, d.hi, 2, 0)]).toEqual([1.5, 2.5, 3.5, 4.5]);
    // Searched to 3 layers: no answer for a search needing 4.
    expect(core.ttProbe(b.lo, b.hi, 4, 0)).toBeNaN();
    // A fifth board of the bucket takes the place of the shallowest (d, 2 layers).
    core.ttStore(e.lo, e.hi, 4, 0, 5.5);
    expect(present(a, b, c, d, e)).toEqual([true, true, true, false, true]);
    // The same board searched deeper replaces its own entry (no second entry): then b is the deepest but
    // one, and the next newcomer replaces e (4 layers), not b.
    core.ttStore(b.lo, b.hi, 6, 0, 6.5);
    expect(core.ttProbe(b.lo, b.hi, 6, 0)).toBe(6.5);
    core.ttStore(f.lo, f.hi, 1, 0, 7.5);
    expect(present(a, b, c, e, f)).toEqual([true, true, true, false, true]);
  });

  it("gives an earlier decision's deep entries up to the current decision's, and forgets everything at a new generation", () => {
    core.ttConfigure(BITS, false);
    core.ttNewGeneration();
    core.ttStore(a.lo, a.hi, 7, 0, 1);
    core.ttStore(b.lo, b.hi, 6, 0, 2);
    core.ttStore(c.lo, c.hi, 5, 0, 3);
    core.ttStore(d.lo, d.hi, 4, 0, 4);
    // Within a decision a leaf entry (1 layer) replaces only the shallowest: the bucket keeps a, b, c.
    core.ttStore(e.lo, e.hi, 1, 0, 5);
    core.ttStore(f.lo, f.hi, 1, 0, 6);
    expect(present(a, b, c, d, e, f)).toEqual([true, true, true, false, false, true]);
    // Two decisions later (4 layers of age each) the old entries give way one by one, deepest last.
    core.ttAgeTick();
    core.ttAgeTick();
    core.ttStore(g.lo, g.hi, 1, 0, 7);
    core.ttStore(h.lo, h.hi, 1, 0, 8);
    core.ttStore(e.lo, e.hi, 1, 0, 5);
    expect(present(a, b, c, e, f, g, h)).toEqual([true, false, false, true, false, true, true]);
    expect(core.ttProbe(a.lo, a.hi, 7, 0)).toBe(1);
    // A new generation (other weights, a cut-off changed, the reference's fresh table): nothing answers,
    // and every slot is free again.
    core.ttNewGeneration();
    expect(present(a, e, g, h)).toEqual([false, false, false, false]);
    core.ttStore(b.lo, b.hi, 1, 0, 2);
    core.ttStore(c.lo, c.hi, 1, 0, 3);
    core.ttStore(d.lo, d.hi, 1, 0, 4);
    core.ttStore(f.lo, f.hi, 1, 0, 6);
    expect(present(b, c, d, f)).toEqual([true, true, true, true]);
  });
});

describe("the play table: an entry serves only nodes it prunes no more than, across decisions and cut-offs", () => {
  // A mid-game board: its searches to 5 layers are bounded by the cut-off, not by the depth.
  const grid: Grid = { rows: 4, cols: 4, cells: [2, 0, 2, 0, 1024, 4, 8, 0, 4096, 128, 4, 4, 8192, 512, 16, 8] };
  const board = (g: Grid): { lo: number; hi: number } => {
    fromGrid(g);
    return { lo: OUT[0] >>> 0, hi: OUT[1] >>> 0 };
  };
  const { lo, hi } = board(grid);
  /** The four root moves' values and the move executions, searched to `depth` layers at `cutoff`. */
  const search = (depth: number, cutoff: number, fresh: boolean): { values: number[]; executions: number } => {
    let executions = 0;
    const values = [0, 1, 2, 3].map((dir) => {
      const v = core.searchRoot(lo, hi, dir, depth, Infinity, fresh && dir === 0, cutoff);
      executions += core.lastExecutions();
      return v;
    });
    return { values, executions };
  };
  const close = (a: number[], b: number[]): void => {
    a.forEach((v, i) => expect(Math.abs(v - b[i])).toBeLessThanOrEqual(Math.abs(b[i]) * 1e-5));
  };
  afterEach(() => core.ttUseQuality(true));

  it('within a decision any entry serves; after ttAgeTick only a node of no higher prune quality', () => {
    core.ttConfigure(10, false);
    core.ttNewGeneration();
    core.ttStore(1, 2, 5, 10, 1.5);
    // The same decision and cut-off: the reference's rule (depth only), whatever the node's probability.
    expect([core.ttProbe(1, 2, 5, 10), core.ttProbe(1, 2, 5, 30), core.ttProbe(1, 2, 6, 0)]).toEqual([1.5, 1.5, NaN]);
    core.ttAgeTick();
    // The next decision: a node that the entry pruned harder than it would be pruned now misses.
    expect([core.ttProbe(1, 2, 5, 9), core.ttProbe(1, 2, 5, 10), core.ttProbe(1, 2, 5, 11), core.ttProbe(1, 2, 4, 12)]).toEqual([1.5, 1.5, NaN, NaN]);
  });

  it('keeps answering right when the generations wrap (every 1 023 fresh searches the table is zeroed)', () => {
    core.ttConfigure(10, false);
    core.ttNewGeneration();
    core.ttStore(1, 2, 5, 10, 1.5);
    for (let i = 0; i < 1100; i++) {
      core.ttNewGeneration();
      expect(core.ttProbe(1, 2, 1, 0)).toBeNaN();
      core.ttStore(3, 4, 2, 0, i);
      expect(core.ttProbe(3, 4, 2, 0)).toBe(i);
    }
  });

  it('a lower cut-off searches again and values as a fresh search at that cut-off does', () => {
    core.ttConfigure(21, false);
    search(5, 1e-4, true);
    const lower = search(5, 2.5e-5, false);
    const fresh = search(5, 2.5e-5, true);
    close(lower.values, fresh.values);
    expect(lower.executions).toBeGreaterThan(fresh.executions / 2);
    // Without qualities the lower cut-off read the higher one's values back and searched nothing.
    core.ttUseQuality(false);
    search(5, 1e-4, true);
    const stale = search(5, 2.5e-5, false);
    expect(stale.executions).toBeLessThan(fresh.executions / 100);
  });

  it("a decision's values do not depend on the table the decision before left (searched one layer deeper, so that depths match)", () => {
    core.ttConfigure(21, false);
    for (const dir0 of [2, 3]) {
      // The decision before searched `parent`; `child` is parent moved in dir0 with a 2 in its first empty cell.
      const parent = board({ ...grid, cells: grid.cells.map((v, i) => (i === 0 ? 0 : v)) });
      core.move(parent.lo, parent.hi, dir0);
      const moved = [core.outLo() >>> 0, core.outHi() >>> 0];
      const cell = [...Array(16).keys()].find((i) => ((moved[i >> 3] >>> (4 * (i & 7))) & 15) === 0) ?? 0;
      moved[cell >> 3] = (moved[cell >> 3] | (1 << (4 * (cell & 7)))) >>> 0;
      const searchChild = (fresh: boolean): { values: number[]; executions: number } => {
        let executions = 0;
        const values = [0, 1, 2, 3].map((dir) => {
          const v = core.searchRoot(moved[0], moved[1], dir, 4, Infinity, fresh && dir === 0, 1e-4);
          executions += core.lastExecutions();
          return v;
        });
        return { values, executions };
      };
      const afterParent = (): { values: number[]; executions: number } => {
        for (let dir = 0; dir < 4; dir++) core.searchRoot(parent.lo, parent.hi, dir, 5, Infinity, dir === 0, 1e-4);
        core.ttAgeTick();
        return searchChild(false);
      };
      const kept = afterParent();
      const fresh = searchChild(true);
      expect(kept.values).toEqual(fresh.values);
      // Without qualities the parent's entries, pruned harder, answered the child's nodes.
      core.ttUseQuality(false);
      const stale = afterParent();
      expect(stale.executions).toBeLessThan(fresh.executions / 100);
      expect(stale.values).not.toEqual(fresh.values);
      core.ttUseQuality(true);
    }
  });
});

describe('expectimax strategy with the WebAssembly core', () => {
  const grid: Grid = { rows: 4, cols: 4, cells: [2, 4, 8, 16, 0, 2, 4, 8, 0, 0, 2, 4, 0, 0, 0, 2] };

  it('says which engine searched: wasm when installed on 4x4, ts otherwise', async () => {
    const expectimax = getStrategy('expectimax');
    installWasmCore(core);
    const withCore = await expectimax.chooseMove(grid, { depth: 2 });
    expect(withCore.engine).toBe('wasm');
    const five: Grid = { rows: 5, cols: 5, cells: [2, 4, ...new Array<number>(23).fill(0)] };
    expect((await expectimax.chooseMove(five, { depth: 1 })).engine).toBe('ts');
    installWasmCore(null);
    const without = await expectimax.chooseMove(grid, { depth: 2 });
    expect(without.engine).toBe('ts');
    expect(withCore.move).toBe(without.move);
    expect(withCore.nodes).toBe(without.nodes);
    for (const d of ['up', 'down', 'left', 'right'] as const) expect(withCore.values[d]).toBe(without.values[d]);
  });

  it('stops at the time budget under iterative deepening and keeps a legal move', async () => {
    installWasmCore(core);
    // The play table (32 MiB) is allocated once per worker, before its first search; allocate it here so
    // that the bound below is about the search stopping, not the allocation (slow on a loaded machine).
    core.ttConfigure(21, false);
    const choice = await getStrategy('expectimax').chooseMove(grid, { timeMs: 30 });
    expect(choice.engine).toBe('wasm');
    expect(choice.depth).toBeGreaterThanOrEqual(1);
    expect(choice.move).not.toBeNull();
    expect(choice.ms).toBeLessThan(300);
  });

  // A late-game board: many distinct tiles, so a layer costs milliseconds and 1 ms stops the search early.
  const crowded: Grid = { rows: 4, cols: 4, cells: [16384, 8192, 4096, 1024, 4, 8, 16, 256, 2, 4, 8, 2, 0, 2, 0, 2] };

  it('takes options.extraMs on a move it finds hard, deeper than its budget alone, and says so', async () => {
    installWasmCore(core);
    core.ttConfigure(21, false);
    // Recent searches reached 16 layers: one stopped within 1 ms is far short of them, so a hard move.
    setRecentDepth(16);
    const alone = await getStrategy('expectimax').chooseMove(crowded, { timeMs: 1 });
    core.ttNewGeneration();
    setRecentDepth(16);
    const extended = await getStrategy('expectimax').chooseMove(crowded, { timeMs: 1, extraMs: 150 });
    setRecentDepth(8);
    expect(alone.extended).toBeUndefined();
    expect(extended.extended).toBe(true);
    expect(extended.depth).toBeGreaterThan(alone.depth);
    // The extension moves the hard stop 150 ms later, no further (generous bounds for a loaded machine).
    expect(extended.ms).toBeGreaterThan(1);
    expect(extended.ms).toBeLessThan(1 + 150 + 250);
  });

  it('ignores a missing, negative or non-finite extraMs', async () => {
    installWasmCore(core);
    for (const extraMs of [0, -50, Number.NaN, Infinity]) {
      core.ttNewGeneration();
      setRecentDepth(16);
      const choice = await getStrategy('expectimax').chooseMove(crowded, { timeMs: 1, extraMs });
      expect(choice.extended).toBeUndefined();
      expect(choice.move).not.toBeNull();
    }
    setRecentDepth(8);
  });
});

describe('worthExtending: when a search that spent its budget gets more time', () => {
  it('extends below depth 3, a layer short of the recent depth, or when the best move changed at the last depth', () => {
    const values = [{}, { up: 1, left: 2 }, { up: 1, left: 2 }, { up: 1, left: 2 }, { up: 3, left: 2 }, { up: 3, left: 2 }];
    expect(worthExtending(values, 2, 2)).toBe(true);
    expect(worthExtending(values, 3, 3)).toBe(false);
    expect(worthExtending(values, 4, 4)).toBe(true); // left → up at depth 4
    expect(worthExtending(values, 5, 5)).toBe(false);
    expect(worthExtending(values, 5, 6)).toBe(false); // one layer short is not a big tree yet
    expect(worthExtending(values, 5, 6.5)).toBe(true);
    expect(worthExtending(values, 3, 8)).toBe(true);
  });
});
