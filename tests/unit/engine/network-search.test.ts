/**
 * The search with the network, against a TypeScript oracle of it: the core's value and move executions of
 * every root move equal, bit for bit, a plain recursion that follows the core's rules (docs: engine.md, "The
 * learned evaluation") with the TypeScript evaluation (the network's oracle) at the leaves and a map for the
 * exact table. Whatever the core does to make a leaf cheaper (its leaf cache, batched evaluation) must not
 * change a value: f32 and i16 weights, one stage and two, the 4x4 and the 4x6 shape.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUT, executeMove, fromGrid } from '../../../src/engine/board';
import { instantiateWasmCore } from '../../../src/engine/index';
import type { Network } from '../../../src/engine/network/format';
import { evaluateBoard } from '../../../src/engine/network/evaluate';
import { weightCount } from '../../../src/engine/network/shapes';
import type { ShapeName } from '../../../src/engine/network/shapes';
import { loadNetworkIntoCore } from '../../../src/engine/wasm/network';
import { parsePositionsTsv } from '../../../src/cli/positions';
import { WASM_FILE } from '../../../src/cli/wasm-files';
import { createRng } from '../../../src/engine/rng';

const F = Math.fround;
const P9 = F(0.9);
const P1 = F(0.1);
const THRESHOLD = F(0.0001);

/** The core's network search in plain TypeScript (exact table: a map; a fresh one for each root move). */
class Oracle {
  private limit = 0;
  private depth = 0;
  executions = 0;
  private table = new Map<bigint, { remaining: number; value: number }>();

  constructor(private readonly network: Network) {}

  private value(lo: number, hi: number): number {
    return evaluateBoard(this.network, lo >>> 0, hi >>> 0);
  }

  /** The best of a move's score plus `next` of its afterstate (0 when no move is legal). */
  private best(lo: number, hi: number, next: (lo: number, hi: number) => number): number {
    let best = 0;
    for (let dir = 0; dir < 4; dir++) {
      const score = executeMove(lo, hi, dir);
      const alo = OUT[0] >>> 0;
      const ahi = OUT[1] >>> 0;
      if (alo === lo >>> 0 && ahi === hi >>> 0) continue;
      best = Math.max(best, F(score + next(alo, ahi)));
    }
    return best;
  }

  private leafMax(lo: number, hi: number): number {
    this.executions += 4;
    return this.best(lo, hi, (alo, ahi) => this.value(alo, ahi));
  }

  private maxNode(lo: number, hi: number, cprob: number): number {
    if (cprob < THRESHOLD || this.depth + 1 >= this.limit) return this.leafMax(lo, hi);
    this.depth++;
    this.executions += 4;
    const best = this.best(lo, hi, (alo, ahi) => this.chance(alo, ahi, cprob));
    this.depth--;
    return best;
  }

  private chance(lo: number, hi: number, cprob: number): number {
    if (cprob < THRESHOLD || this.depth >= this.limit) return this.value(lo, hi);
    const key = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
    const remaining = this.limit - this.depth;
    const cached = this.table.get(key);
    if (this.depth > 0 && cached && cached.remaining >= remaining) return cached.value;
    const cells = [];
    for (let c = 0; c < 16; c++) if ((((c < 8 ? lo : hi) >>> (4 * (c % 8))) & 0xf) === 0) cells.push(c);
    const open = cells.length;
    const p = F(cprob / open);
    const p9 = F(p * P9);
    const p1 = F(p * P1);
    const leaves = p9 < THRESHOLD || this.depth + 1 >= this.limit;
    let res = 0;
    for (const c of cells) {
      const put = (rank: number): [number, number] => (c < 8 ? [lo | (rank << (4 * c)), hi] : [lo, hi | (rank << (4 * (c - 8)))]);
      const [lo2, hi2] = put(1);
      const [lo4, hi4] = put(2);
      res = F(res + F((leaves ? this.leafMax(lo2, hi2) : this.maxNode(lo2, hi2, p9)) * P9));
      res = F(res + F((leaves ? this.leafMax(lo4, hi4) : this.maxNode(lo4, hi4, p1)) * P1));
    }
    res = F(res / open);
    this.table.set(key, { remaining, value: res });
    return res;
  }

  /** searchRoot's value of root move `dir` to `limit` layers (0 when illegal). */
  searchRoot(lo: number, hi: number, dir: number, limit: number): number {
    this.limit = limit;
    this.depth = 0;
    this.executions = 0;
    this.table = new Map();
    const score = executeMove(lo, hi, dir);
    const alo = OUT[0] >>> 0;
    const ahi = OUT[1] >>> 0;
    if (alo === lo >>> 0 && ahi === hi >>> 0) return 0;
    return F(score + this.chance(alo, ahi, 1));
  }
}

/** A network of `shape` in `stages`, every weight from a hash of its index (none zero by chance alone). */
function hashedNetwork(shape: ShapeName, stages: readonly number[], encoding: 'f32' | 'i16', seed: number): Network {
  const rng = createRng(seed);
  const salt = Math.floor(rng.next() * 2 ** 31);
  const count = weightCount(shape) * stages.length;
  const weights = encoding === 'i16' ? new Int16Array(count) : new Float32Array(count);
  const scale = encoding === 'i16' ? F(0.37) : 1;
  for (let i = 0; i < count; i++) {
    const h = ((Math.imul(i ^ salt, 0x9e3779b1) >>> 12) & 0xffff) - 30000;
    weights[i] = encoding === 'i16' ? h : F(h * 0.37);
  }
  return { shape, encoding, scale, stages, weights, metadata: { test: 'hashed', seed } };
}

const positions = parsePositionsTsv(readFileSync(new URL('../../fixtures/reference/expectimax-positions.tsv', import.meta.url), 'utf8')).map((p) => {
  fromGrid(p.board);
  return { lo: OUT[0] >>> 0, hi: OUT[1] >>> 0 };
});

describe('the search with the network', () => {
  const cases: [ShapeName, readonly number[], 'f32' | 'i16'][] = [
    ['4x4', [0], 'i16'],
    ['4x4', [0], 'f32'],
    ['4x4', [0, 7], 'i16'],
    ['4x4', [0, 7], 'f32'],
    ['4x6', [0], 'i16'],
  ];
  for (const [shape, stages, encoding] of cases) {
    it(`equals the TypeScript oracle bit for bit, values and executions: ${shape}, ${stages.length} stage(s), ${encoding}`, () => {
      const network = hashedNetwork(shape, stages, encoding, stages.length * 10 + (encoding === 'i16' ? 1 : 0));
      const core = instantiateWasmCore(readFileSync(WASM_FILE));
      loadNetworkIntoCore(core, network);
      core.ttConfigure(16, true);
      const oracle = new Oracle(network);
      let compared = 0;
      for (const [i, { lo, hi }] of positions.slice(0, 12).entries()) {
        for (const depth of i < 2 ? [1, 2, 3] : [1, 2]) {
          for (let dir = 0; dir < 4; dir++) {
            const value = core.searchRoot(lo, hi, dir, depth, Infinity, 1, 0);
            expect(value).toBe(oracle.searchRoot(lo, hi, dir, depth));
            expect(core.lastExecutions()).toBe(oracle.executions);
            if (value !== 0) compared++;
          }
          // Greedy (the one-ply player) goes through the same leaves.
          expect(core.networkGreedy(lo, hi)).toBe(F(Math.max(0, ...[0, 1, 2, 3].map((dir) => {
            const score = executeMove(lo, hi, dir);
            return OUT[0] >>> 0 === lo && OUT[1] >>> 0 === hi ? 0 : F(score + evaluateBoard(network, OUT[0] >>> 0, OUT[1] >>> 0));
          }))));
        }
      }
      expect(compared).toBeGreaterThan(50);
    }, 120_000);
  }
});
