/**
 * The learned evaluation: the network file round-trips and refuses damaged files with a clear error; the
 * TypeScript evaluation (the oracle) and the WebAssembly core's agree bit for bit on random boards and on the
 * reference positions, in both encodings; quantisation stays within half a step of every weight.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { packedBoard } from '../../support/boards';
import { executeMove, fromGrid, OUT } from '../../../src/engine/board';
import { instantiateSharedWasmCore, instantiateWasmCore } from '../../../src/engine/index';
import type { WasmCore } from '../../../src/engine/index';
import {
  NetworkFormatError,
  decodeNetwork,
  decodeNetworkAsync,
  describeNetworkFile,
  encodeNetwork,
  quantise,
} from '../../../src/engine/network/format';
import type { Network } from '../../../src/engine/network/format';
import { evaluateBoard, featureEntries, ranksOfBoard } from '../../../src/engine/network/evaluate';
import { weightCount } from '../../../src/engine/network/shapes';
import type { ShapeName } from '../../../src/engine/network/shapes';
import { attachNetwork, coreNetwork, createNetworkMemory, loadNetworkIntoCore } from '../../../src/engine/wasm/network';
import { parsePositionsTsv } from '../../../src/cli/positions';
import { SHARED_WASM_FILE, WASM_FILE } from '../../../src/cli/wasm-files';
import { createSharedMemory } from '../../../src/engine/wasm/core';
import { createRng } from '../../../src/engine/rng';

const boardArb = packedBoard(fc.integer({ min: 1, max: 4 }));

/** A network of `shape` whose weights are random at every entry of `boards` (or at a random tenth of all). */
function randomNetwork(shape: ShapeName, seed: number, boards?: readonly { lo: number; hi: number }[]): Network {
  const rng = createRng(seed);
  const weights = new Float32Array(weightCount(shape));
  const value = (): number => Math.fround((rng.next() - 0.3) * 20000);
  if (boards) {
    for (const b of boards) for (const e of featureEntries({ shape }, ranksOfBoard(b.lo, b.hi))) weights[e] = value();
  } else {
    for (let i = 0; i < weights.length; i++) if (rng.next() < 0.1) weights[i] = value();
  }
  return { shape, encoding: 'f32', scale: 1, stages: [0], weights, metadata: { test: 'random', seed } };
}

/** Are two weight arrays the same bytes (a typed array's toEqual is slow at this size)? */
function sameBytes(a: Network['weights'], b: Network['weights']): boolean {
  return a.constructor === b.constructor && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function asI16(network: Network): Network {
  const q = quantise(network.weights as Float32Array);
  return { ...network, encoding: 'i16', scale: q.scale, weights: q.weights };
}

describe('network file', () => {
  const f32 = randomNetwork('4x4', 1);
  const i16 = asI16(f32);

  it('round-trips f32 and i16 networks exactly, metadata included', () => {
    for (const network of [f32, i16]) {
      const back = decodeNetwork(encodeNetwork(network));
      expect(back.shape).toBe('4x4');
      expect(back.encoding).toBe(network.encoding);
      expect(back.scale).toBe(network.scale);
      expect(back.metadata).toEqual(network.metadata);
      expect(sameBytes(back.weights, network.weights)).toBe(true);
    }
  });

  it('reads the same network with an asynchronous native inflater (DecompressionStream), and refuses a corrupt one', async () => {
    const native = async (bytes: Uint8Array): Promise<Uint8Array> => {
      const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new DecompressionStream('deflate'));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    };
    const file = encodeNetwork(i16);
    const back = await decodeNetworkAsync(file, native);
    expect(sameBytes(back.weights, i16.weights)).toBe(true);
    expect(back.scale).toBe(i16.scale);
    const damaged = file.slice();
    damaged[damaged.length - 20] ^= 0xff;
    await expect(decodeNetworkAsync(damaged, native)).rejects.toThrow(NetworkFormatError);
  });

  it('is sparse: a network of zeros takes a few hundred bytes', () => {
    const empty: Network = { ...f32, weights: new Float32Array(weightCount('4x4')) };
    expect(encodeNetwork(empty).length).toBeLessThan(400);
    expect(decodeNetwork(encodeNetwork(empty)).weights.every((w) => w === 0)).toBe(true);
  });

  it('quantises every weight to within half a step', () => {
    const original = f32.weights as Float32Array;
    let worst = 0;
    for (let i = 0; i < original.length; i++) worst = Math.max(worst, Math.abs(original[i] - i16.weights[i] * i16.scale));
    expect(worst).toBeLessThanOrEqual(i16.scale / 2 + 1e-9);
    expect(worst).toBeGreaterThan(0);
  });

  it('quantises to fewer bits on request: coarser steps, the largest weight at 2^(bits-1) - 1', () => {
    const original = f32.weights as Float32Array;
    const q12 = quantise(original, 12);
    expect(q12.weights.reduce((m, w) => Math.max(m, Math.abs(w)), 0)).toBe(2047);
    expect(q12.scale / i16.scale).toBeCloseTo(32767 / 2047, 4);
    expect(() => quantise(original, 17)).toThrow(RangeError);
  });

  it('refuses a foreign file, another version, a truncated file and every corrupted byte with a clear error', () => {
    const file = encodeNetwork(i16);
    const expectError = (bytes: Uint8Array, pattern: RegExp): void => {
      expect(() => decodeNetwork(bytes)).toThrow(NetworkFormatError);
      expect(() => decodeNetwork(bytes)).toThrow(pattern);
    };
    expectError(new TextEncoder().encode('{"not": "a network"}\n'.repeat(4)), /not a 2048 Autopilot network/);
    expectError(file.subarray(0, 10), /shorter than the header/);
    const newer = file.slice();
    newer[8] = 3;
    expectError(newer, /version 3/);
    for (const cut of [40, 60, file.length - 100, file.length - 1]) expectError(file.subarray(0, cut), /truncated|corrupt/);
    expectError(Uint8Array.from([...file, 0]), /after its end/);
    // Every byte flipped, one at a time (over the header and a stride of the payload), is caught.
    const positions = [...Array.from({ length: 64 }, (_, i) => i), ...Array.from({ length: 50 }, (_, i) => 64 + Math.floor((i * (file.length - 65)) / 50))];
    for (const at of positions) {
      const damaged = file.slice();
      damaged[at] ^= 0x5a;
      expect(() => decodeNetwork(damaged), `byte ${at}`).toThrow(NetworkFormatError);
    }
  });
});

describe('network evaluation: TypeScript against WebAssembly', () => {
  let core: WasmCore;
  beforeAll(() => {
    core = instantiateWasmCore(readFileSync(WASM_FILE));
  });

  it('agrees bit for bit on random boards, tiny network, f32 and i16', () => {
    const f32 = randomNetwork('4x4', 2);
    for (const network of [f32, asI16(f32)]) {
      loadNetworkIntoCore(core, network);
      fc.assert(
        fc.property(boardArb, ({ lo, hi }) => {
          expect(core.networkValueOf(lo, hi)).toBe(evaluateBoard(network, lo, hi));
        }),
        { numRuns: 500 },
      );
    }
  });

  it('agrees on the reference positions and random boards with a 4x6 network, and greedy adds the move score', () => {
    const positions = parsePositionsTsv(readFileSync(new URL('../../fixtures/reference/expectimax-positions.tsv', import.meta.url), 'utf8'));
    const boards = positions.map((p) => {
      fromGrid(p.board);
      return { lo: OUT[0] >>> 0, hi: OUT[1] >>> 0 };
    });
    const rng = createRng(7);
    for (let i = 0; i < 200; i++) boards.push({ lo: (rng.next() * 2 ** 32) >>> 0, hi: (rng.next() * 2 ** 32) >>> 0 });
    // Weights at every feature of these boards and of their afterstates.
    const afterstates = boards.flatMap(({ lo, hi }) =>
      [0, 1, 2, 3].map((dir) => {
        executeMove(lo | 0, hi | 0, dir);
        return { lo: OUT[0] >>> 0, hi: OUT[1] >>> 0 };
      }),
    );
    const network = asI16(randomNetwork('4x6', 3, [...boards, ...afterstates]));
    loadNetworkIntoCore(core, network);
    for (const { lo, hi } of boards) {
      expect(core.networkValueOf(lo, hi)).toBe(evaluateBoard(network, lo, hi));
      let best = 0;
      for (let dir = 0; dir < 4; dir++) {
        const score = executeMove(lo | 0, hi | 0, dir);
        if ((OUT[0] >>> 0) === lo && (OUT[1] >>> 0) === hi) continue;
        best = Math.max(best, Math.fround(score + evaluateBoard(network, OUT[0] >>> 0, OUT[1] >>> 0)));
      }
      expect(core.networkGreedy(lo, hi)).toBe(best);
    }
  }, 120_000);
});

describe('network search', () => {
  it('searches with the network: a fixed-depth value is the score plus the expectation, the same on threads sharing one copy', () => {
    const positions = parsePositionsTsv(readFileSync(new URL('../../fixtures/reference/expectimax-positions.tsv', import.meta.url), 'utf8')).slice(0, 6);
    const network = asI16(randomNetwork('4x4', 11));
    const own = instantiateWasmCore(readFileSync(WASM_FILE));
    loadNetworkIntoCore(own, network);
    const memory = createSharedMemory(10);
    const shared = readFileSync(SHARED_WASM_FILE);
    const threads = [0, 1].map((slot) => {
      const core = instantiateSharedWasmCore(shared, memory);
      loadNetworkIntoCore(core, network, { memory, copy: slot === 0 });
      core.ttSlot(slot);
      core.ttConfigure(16, false);
      return core;
    });
    own.ttConfigure(16, false);
    for (const p of positions) {
      fromGrid(p.board);
      const lo = OUT[0] >>> 0;
      const hi = OUT[1] >>> 0;
      for (let dir = 0; dir < 4; dir++) {
        const value = own.searchRoot(lo, hi, dir, 2, Infinity, 1, 0);
        for (const core of threads) expect(core.searchRoot(lo, hi, dir, 2, Infinity, 1, 0)).toBe(value);
        // Depth 1: the move's score plus the average over spawns of the best move's score plus value.
        const score = executeMove(lo | 0, hi | 0, dir);
        const afterLo = OUT[0] >>> 0;
        const afterHi = OUT[1] >>> 0;
        if (afterLo === lo && afterHi === hi) {
          expect(value).toBe(0);
          continue;
        }
        let sum = 0;
        let open = 0;
        for (let cell = 0; cell < 16; cell++) {
          const half = cell < 8 ? 0 : 1;
          const shift = 4 * (cell % 8);
          if ((((half ? afterHi : afterLo) >>> shift) & 0xf) !== 0) continue;
          open++;
          const put = (rank: number) => (half ? { lo: afterLo, hi: (afterHi | (rank << shift)) >>> 0 } : { lo: (afterLo | (rank << shift)) >>> 0, hi: afterHi });
          const two = put(1);
          const four = put(2);
          sum += 0.9 * own.networkGreedy(two.lo, two.hi) + 0.1 * own.networkGreedy(four.lo, four.hi);
        }
        const depthOne = own.searchRoot(lo, hi, dir, 1, Infinity, 1, 0);
        const expected = score + sum / open;
        expect(Math.abs(depthOne - expected)).toBeLessThanOrEqual(1e-5 * Math.abs(expected));
      }
    }
  });
});

describe('a network in a shared memory, one copy for every thread', () => {
  it('describeNetworkFile reads the header alone; a bad header fails as decoding does', () => {
    const network = asI16(randomNetwork('4x4', 21));
    const file = encodeNetwork(network);
    const { weights: _weights, ...descriptor } = network;
    expect(describeNetworkFile(file)).toEqual(descriptor);
    const damaged = file.slice();
    damaged[12] ^= 1;
    expect(() => describeNetworkFile(damaged)).toThrow(NetworkFormatError);
  });

  it('attachNetwork: threads use the weights one thread wrote, viewed in place; the memory holds every slot’s largest table without growing', () => {
    const network = asI16(randomNetwork('4x4', 22));
    const { weights, ...descriptor } = network;
    const memory = createNetworkMemory(descriptor, 3);
    const length = memory.buffer.byteLength;
    const shared = readFileSync(SHARED_WASM_FILE);
    const cores = [0, 1, 2].map((slot) => {
      const core = instantiateSharedWasmCore(shared, memory);
      const attached = attachNetwork(core, memory, descriptor);
      if (slot === 0) (attached.weights as Int16Array).set(weights as Int16Array);
      expect(coreNetwork(core)).toBe(attached);
      expect(attached.weights.buffer).toBeInstanceOf(SharedArrayBuffer);
      core.ttSlot(slot);
      core.ttConfigure(21, false);
      return { core, attached };
    });
    expect(memory.buffer.byteLength).toBe(length);
    for (const { attached } of cores) expect(sameBytes(attached.weights, weights)).toBe(true);
    const rng = createRng(3);
    for (let i = 0; i < 200; i++) {
      const lo = Math.floor(rng.next() * 2 ** 32) >>> 0;
      const hi = Math.floor(rng.next() * 2 ** 32) >>> 0;
      for (const { core } of cores) expect(core.networkValueOf(lo, hi)).toBe(evaluateBoard(network, lo, hi));
    }
  });
});
