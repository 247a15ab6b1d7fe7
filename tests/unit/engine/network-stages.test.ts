/**
 * Networks of several stages: the file keeps what each stage can read (and only that may differ), the
 * TypeScript oracle and the WebAssembly core (own and shared memory) choose the stage by the board's largest
 * rank and agree bit for bit, version-1 files play exactly as they did before stages
 * (tests/fixtures/network/one-stage-play.json, recorded with the one-stage code), and the shipped models/4x6.ntn
 * plays its recorded games (tests/fixtures/network/shipped-play.json, tools/record-network-play.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateSync, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { packedBoard } from '../../support/boards';
import { instantiateSharedWasmCore, instantiateWasmCore } from '../../../src/engine/index';
import type { WasmCore } from '../../../src/engine/index';
import { NetworkFormatError, decodeNetwork, decodeNetworkAsync, describeNetworkFile, encodeNetwork, quantise } from '../../../src/engine/network/format';
import type { Network } from '../../../src/engine/network/format';
import { evaluateBoard, ranksOfBoard, stageOf } from '../../../src/engine/network/evaluate';
import { indexReaches } from '../../../src/engine/network/packing';
import { tableSize, weightCount } from '../../../src/engine/network/shapes';
import { attachNetwork, createNetworkMemory, loadNetworkIntoCore } from '../../../src/engine/wasm/network';
import { SHARED_WASM_FILE, WASM_FILE } from '../../../src/cli/wasm-files';
import { createRng } from '../../../src/engine/rng';
import { playOnePly } from '../../support/network-games';
import { SHIPPED_PLAY } from '../../support/shipped-play';
import type { ShippedPlay } from '../../support/shipped-play';

const FIXTURES = new URL('../../fixtures/network/', import.meta.url);
const COUNT = weightCount('4x4');
/** Node's native zlib (the default, fflate's, is exercised by the round trip). */
const zlib = (bytes: Uint8Array): Uint8Array => deflateSync(bytes);
const unzlib = (bytes: Uint8Array): Uint8Array => inflateSync(bytes);

const boardArb = packedBoard(fc.integer({ min: 1, max: 11 }));

/** A 4x4 network of `stages`: stage 0 random at a fifth of its entries, each later stage the one before with a quarter of them changed. */
function stagedNetwork(stages: readonly number[], seed: number): Network {
  const rng = createRng(seed);
  const weights = new Float32Array(COUNT * stages.length);
  for (let i = 0; i < COUNT; i++) if (rng.next() < 0.2) weights[i] = Math.fround((rng.next() - 0.3) * 20000);
  for (let s = 1; s < stages.length; s++) {
    for (let i = 0; i < COUNT; i++) weights[s * COUNT + i] = rng.next() < 0.25 ? Math.fround((rng.next() - 0.5) * 30000) : weights[(s - 1) * COUNT + i];
  }
  return { shape: '4x4', encoding: 'f32', scale: 1, stages, weights, metadata: { test: 'stages', seed } };
}

function asI16(network: Network): Network {
  const q = quantise(network.weights as Float32Array);
  return { ...network, encoding: 'i16', scale: q.scale, weights: q.weights };
}

/** Can stage `s` of `stages` read table index `index` (none of its cells reaches the next stage's rank)? */
function readable(stages: readonly number[], s: number, index: number): boolean {
  if (s === stages.length - 1) return true;
  for (let j = 0; j < 4; j++) if (((index >> (4 * j)) & 0xf) >= stages[s + 1]) return false;
  return true;
}

/** Are two weight arrays the same bytes (a typed array's toEqual is slow at this size)? */
function sameWeights(a: Network['weights'], b: Network['weights']): boolean {
  return a.constructor === b.constructor && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function randomBoards(seed: number, n: number): { lo: number; hi: number }[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => ({ lo: (rng.next() * 2 ** 32) >>> 0, hi: (rng.next() * 2 ** 32) >>> 0 }));
}

describe('the network file with stages', () => {
  it('indexReaches: a table index holds a cell of at least the rank, on every 4x4 index and random 4x6 ones', () => {
    const wrong: string[] = [];
    for (let r = 1; r <= 15; r++) {
      for (let index = 0; index < tableSize('4x4'); index++) if (indexReaches(index, r) === readable([0, r], 0, index)) wrong.push(`${index} rank ${r}`);
      const rng = createRng(r);
      for (let k = 0; k < 2000; k++) {
        const index = Math.floor(rng.next() * 2 ** 24);
        const reaches = Array.from({ length: 6 }, (_, j) => (index >> (4 * j)) & 0xf).some((c) => c >= r);
        if (indexReaches(index, r) !== reaches) wrong.push(`${index} rank ${r}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('round-trips two and three stages, f32 and i16: every entry a stage can read exactly, the others as the next stage’s', () => {
    for (const stages of [[0, 10], [0, 7, 11]]) {
      const f32 = stagedNetwork(stages, stages.length);
      for (const network of [f32, asI16(f32)]) {
        const back = decodeNetwork(encodeNetwork(network));
        expect(back.stages).toEqual(stages);
        expect(back.encoding).toBe(network.encoding);
        expect(back.scale).toBe(network.scale);
        expect(back.metadata).toEqual(network.metadata);
        expect(back.weights.length).toBe(COUNT * stages.length);
        let filled = 0;
        const wrong: number[] = [];
        for (let s = 0; s < stages.length; s++) {
          for (let i = 0; i < COUNT; i++) {
            const at = s * COUNT + i;
            if (readable(stages, s, i % tableSize('4x4'))) {
              if (!Object.is(back.weights[at], network.weights[at])) wrong.push(at);
            } else {
              if (!Object.is(back.weights[at], back.weights[at + COUNT])) wrong.push(at);
              filled++;
            }
          }
        }
        expect(wrong).toEqual([]);
        expect(filled).toBeGreaterThan(0);
        for (const { lo, hi } of randomBoards(5, 300)) expect(evaluateBoard(back, lo, hi)).toBe(evaluateBoard(network, lo, hi));
      }
    }
  });

  it('packs a later stage as its difference: a copied stage adds little, and a stage’s unread entries cost nothing', () => {
    const one = asI16(stagedNetwork([0], 9));
    const copied: Network = { ...one, stages: [0, 12], weights: Int16Array.from([...one.weights, ...one.weights]) };
    const oneBytes = encodeNetwork(one, zlib).length;
    expect(encodeNetwork(copied, zlib).length).toBeLessThan(oneBytes + 2000);
    // Stage 0's entries that hold a 4096 or more are never read: anything there packs as if copied.
    const noisy = copied.weights.slice();
    const rng = createRng(10);
    for (let i = 0; i < COUNT; i++) if (indexReaches(i % tableSize('4x4'), 12)) noisy[i] = Math.floor(rng.next() * 60000) - 30000;
    expect(encodeNetwork({ ...copied, weights: noisy }, zlib).length).toBe(encodeNetwork(copied, zlib).length);
  });

  it('decodes into given weights (a shared memory’s view) and refuses ones of the wrong size or encoding', async () => {
    const network = asI16(stagedNetwork([0, 9], 12));
    const file = encodeNetwork(network, zlib);
    const into = new Int16Array(2 * COUNT);
    const native = async (bytes: Uint8Array): Promise<Uint8Array> => inflateSync(bytes);
    const back = await decodeNetworkAsync(file, native, { into });
    expect(back.weights).toBe(into);
    expect(sameWeights(into, decodeNetwork(file, unzlib).weights)).toBe(true);
    expect(() => decodeNetwork(file, unzlib, { into: new Int16Array(COUNT) })).toThrow(RangeError);
    expect(() => decodeNetwork(file, unzlib, { into: new Float32Array(2 * COUNT) })).toThrow(RangeError);
  });

  it('refuses stages that are not ascending from rank 0, and damaged stage tables', () => {
    const network = asI16(stagedNetwork([0, 9], 13));
    for (const stages of [[1, 9], [0, 9, 9], [0, 16], []]) {
      expect(() => encodeNetwork({ ...network, stages, weights: new Int16Array(COUNT * Math.max(1, stages.length)) })).toThrow(RangeError);
    }
    expect(() => encodeNetwork({ ...network, stages: [0] })).toThrow(/1 stage\(s\) has 262144 weights/);
    const file = encodeNetwork(network);
    const expectError = (bytes: Uint8Array, pattern: RegExp): void => expect(() => decodeNetwork(bytes)).toThrow(pattern);
    const headerLength = 32 + 16 + 2 + new TextEncoder().encode(JSON.stringify(network.metadata)).length;
    const stageTable = headerLength + 4;
    for (const at of [13, 32 + 16, 32 + 17, stageTable, stageTable + 5, stageTable + 12, file.length - 40]) {
      const damaged = file.slice();
      damaged[at] ^= 0x21;
      expect(() => decodeNetwork(damaged), `byte ${at}`).toThrow(NetworkFormatError);
    }
    expectError(file.subarray(0, stageTable + 10), /truncated/);
    expect(describeNetworkFile(file).stages).toEqual([0, 9]);
  });
});

describe('evaluation with stages: TypeScript against WebAssembly', () => {
  let core: WasmCore;
  beforeAll(() => {
    core = instantiateWasmCore(readFileSync(WASM_FILE));
  });

  it('chooses the stage by the largest rank: the last stage whose rank the board reaches', () => {
    expect(stageOf([0], ranksOfBoard(0xffffffff, 0xffffffff))).toBe(0);
    const ranks = new Uint8Array(16);
    ranks[5] = 10;
    expect(stageOf([0, 11, 13], ranks)).toBe(0);
    ranks[9] = 11;
    expect(stageOf([0, 11, 13], ranks)).toBe(1);
    ranks[0] = 15;
    expect(stageOf([0, 11, 13], ranks)).toBe(2);
    // Stage 1 is stage 0 plus 100 at every entry: the 32 features of a board that reaches rank 9 add 3 200.
    const base = asI16(stagedNetwork([0], 14));
    const shifted: Network = { ...base, stages: [0, 9], weights: Int16Array.from([...base.weights, ...base.weights.map((w) => Math.min(32767, w + 100))]) };
    loadNetworkIntoCore(core, shifted);
    const below = { lo: 0x87654321, hi: 0x00000012 };
    const above = { lo: 0x87654321, hi: 0x00000092 };
    loadNetworkIntoCore(core, base);
    const oneStage = [below, above].map(({ lo, hi }) => core.networkValueOf(lo, hi));
    loadNetworkIntoCore(core, shifted);
    expect(core.networkValueOf(below.lo, below.hi)).toBe(oneStage[0]);
    expect(core.networkValueOf(above.lo, above.hi)).not.toBe(oneStage[1]);
    expect(core.networkValueOf(above.lo, above.hi)).toBe(evaluateBoard(shifted, above.lo, above.hi));
  });

  it('agrees bit for bit on random boards with two and three stages, f32 and i16, in its own memory and a shared one', () => {
    const shared = readFileSync(SHARED_WASM_FILE);
    for (const stages of [[0, 10], [0, 7, 11]]) {
      const f32 = stagedNetwork(stages, 20 + stages.length);
      for (const network of [f32, asI16(f32)]) {
        loadNetworkIntoCore(core, network);
        const { weights, ...descriptor } = network;
        const memory = createNetworkMemory(descriptor, 2);
        const threads = [0, 1].map((slot) => {
          const thread = instantiateSharedWasmCore(shared, memory);
          const attached = attachNetwork(thread, memory, descriptor);
          if (slot === 0) new Uint8Array(attached.weights.buffer, attached.weights.byteOffset, attached.weights.byteLength).set(new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength));
          return thread;
        });
        fc.assert(
          fc.property(boardArb, ({ lo, hi }) => {
            const expected = evaluateBoard(network, lo, hi);
            expect(core.networkValueOf(lo, hi)).toBe(expected);
            for (const thread of threads) expect(thread.networkValueOf(lo, hi)).toBe(expected);
          }),
          { numRuns: 400 },
        );
      }
    }
  });

  it('plays one-ply games the same with the core and the oracle on a two-stage network that reaches its second stage', () => {
    const network = asI16(stagedNetwork([0, 5], 31));
    loadNetworkIntoCore(core, network);
    for (const seed of [1, 2]) {
      const withCore = playOnePly((lo, hi) => core.networkValueOf(lo, hi), seed, 3000);
      const withOracle = playOnePly((lo, hi) => evaluateBoard(network, lo, hi), seed, 3000);
      expect(withCore).toEqual(withOracle);
      expect(withCore.sample.some(({ lo, hi }) => stageOf(network.stages, ranksOfBoard(lo, hi)) === 1)).toBe(true);
    }
  });
});

interface Recorded {
  tiny: { boards: { lo: number; hi: number; value: number }[]; games: { seed: number; moves: number; score: number; movesHash: string }[] };
}

describe('recorded play: version-1 files as before stages, the shipped network as recorded', () => {
  const recorded = JSON.parse(readFileSync(new URL('one-stage-play.json', FIXTURES), 'utf8')) as Recorded;
  let core: WasmCore;
  beforeAll(() => {
    core = instantiateWasmCore(readFileSync(WASM_FILE));
  });

  it('a version-1 file reads as one stage, values every board and plays every game as recorded, and writes back as version 2', () => {
    const file = new Uint8Array(readFileSync(new URL('tiny-v1.ntn', FIXTURES)));
    expect(new DataView(file.buffer).getUint16(8, true)).toBe(1);
    const network = decodeNetwork(file);
    expect(network.stages).toEqual([0]);
    loadNetworkIntoCore(core, network);
    for (const { lo, hi, value } of recorded.tiny.boards) {
      expect(core.networkValueOf(lo, hi)).toBe(value);
      expect(evaluateBoard(network, lo, hi)).toBe(value);
    }
    for (const game of recorded.tiny.games) {
      const { moves, score, movesHash } = playOnePly((lo, hi) => core.networkValueOf(lo, hi), game.seed, 100_000);
      expect({ seed: game.seed, moves, score, movesHash }).toEqual(game);
    }
    const again = encodeNetwork(network);
    expect(new DataView(again.buffer).getUint16(8, true)).toBe(2);
    expect(sameWeights(decodeNetwork(again).weights, network.weights)).toBe(true);
  });

  it('the shipped models/4x6.ntn plays its recorded one-ply games move for move, core and oracle (one reaches the 16384)', () => {
    const shipped = JSON.parse(readFileSync(SHIPPED_PLAY, 'utf8')) as ShippedPlay;
    const file = readFileSync(new URL('../../../models/4x6.ntn', import.meta.url));
    // A new network plays differently: record its games again (the command below), never by editing this test.
    expect(createHash('sha256').update(file).digest('hex'), 'models/4x6.ntn changed: run `npx tsx tools/record-network-play.ts`').toBe(shipped.sha256);
    const network = decodeNetwork(file, (bytes) => inflateSync(bytes));
    expect(network.stages).toEqual(shipped.stages);
    loadNetworkIntoCore(core, network);
    for (const game of shipped.games) {
      const played = playOnePly((lo, hi) => core.networkValueOf(lo, hi), game.seed, 100_000);
      expect({ moves: played.moves, score: played.score, movesHash: played.movesHash }).toEqual({ moves: game.moves, score: game.score, movesHash: game.movesHash });
      for (const { lo, hi, value } of game.sample) expect(evaluateBoard(network, lo, hi)).toBe(value);
    }
    expect(shipped.games.some((g) => g.score > 200_000)).toBe(true);
  }, 60_000);
});
