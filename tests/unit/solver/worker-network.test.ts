/**
 * A solver worker's learned network with the real WebAssembly core (engine-shared.wasm) and a small 4x4
 * network file: the loader decodes it into the host's shared memory (or hands the weights back), a worker
 * attaches to that memory without a copy or copies handed weights into a memory of its own, and then plays
 * with the network: the same values as the TypeScript oracle. A corrupt file is a failure with its reason.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachNetwork, createNetworkMemory, getStrategy, instantiateSharedWasmCore } from '../../../src/engine/index';
import type { Grid } from '../../../src/engine/index';
import { encodeNetwork, decodeNetwork, quantise } from '../../../src/engine/network/format';
import type { Network } from '../../../src/engine/network/format';
import { evaluateBoard } from '../../../src/engine/network/evaluate';
import { weightCount } from '../../../src/engine/network/shapes';
import { OUT, executeMove, fromGrid } from '../../../src/engine/board';
import { createRng } from '../../../src/engine/rng';
import { SHARED_WASM_FILE } from '../../../src/cli/wasm-files';
import { setUpNetwork } from '../../../src/solver/worker-network';
import type { WorkerResponse } from '../../../src/solver/protocol';

let module: WebAssembly.Module;
let network: Network;
let file: Uint8Array;

beforeAll(() => {
  module = new WebAssembly.Module(readFileSync(SHARED_WASM_FILE));
  const rng = createRng(5);
  const weights = new Float32Array(weightCount('4x4'));
  for (let i = 0; i < weights.length; i++) if (rng.next() < 0.2) weights[i] = (rng.next() - 0.4) * 1000;
  const q = quantise(weights);
  network = { shape: '4x4', encoding: 'i16', scale: q.scale, stages: [0], weights: q.weights, metadata: { test: 'worker-network' } };
  file = encodeNetwork(network);
});

function host(isolated = true) {
  const posted: { response: WorkerResponse; transfer: Transferable[] }[] = [];
  return {
    posted,
    host: {
      sharedModule: () => Promise.resolve(module),
      ownCore: () => Promise.resolve(),
      isolated,
      post: (response: WorkerResponse, transfer: Transferable[] = []) => posted.push({ response, transfer }),
    },
  };
}

/** Byte-equal weights (toEqual walks a typed array element by element: slow on 2^18 weights). */
function same(a: Network['weights'], b: Network['weights']): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

const BOARD: Grid = { rows: 4, cols: 4, cells: [2, 4, 8, 0, 0, 2, 4, 0, 0, 0, 2, 0, 0, 0, 0, 2] };

/** The network strategy's values on BOARD as the TypeScript oracle has them: each move's score plus its afterstate's value. */
function oracleValues(net: Network): Record<string, number> {
  fromGrid(BOARD);
  const lo = OUT[0];
  const hi = OUT[1];
  const out: Record<string, number> = {};
  ['up', 'down', 'left', 'right'].forEach((name, dir) => {
    const score = executeMove(lo, hi, dir);
    if (OUT[0] === lo && OUT[1] === hi) return;
    out[name] = Math.fround(score + evaluateBoard(net, OUT[0] >>> 0, OUT[1] >>> 0));
  });
  return out;
}

describe('a worker’s learned network', () => {
  it('the loader decodes the file into the shared memory; a worker attached to it plays with the network, nothing copied', async () => {
    const { metadata, shape, encoding, scale, stages } = network;
    const memory = createNetworkMemory({ shape, encoding, scale, stages, metadata }, 2);
    const loader = host();
    await setUpNetwork({ type: 'network-load', id: 1, slot: 0, file, memory }, loader.host);
    const ready = loader.posted.at(-1)?.response;
    expect(ready).toEqual({ type: 'network-ready', id: 1, descriptor: { shape, encoding, scale, stages, metadata }, shared: true });
    expect(loader.posted.filter((p) => p.response.type === 'network-progress').length).toBeGreaterThan(1);

    // The weights are in the memory, where another thread's core finds them.
    const probe = attachNetwork(instantiateSharedWasmCore(module, memory), memory, { shape, encoding, scale, stages, metadata });
    expect(same(probe.weights, network.weights)).toBe(true);

    const lengthBefore = memory.buffer.byteLength;
    const worker = host();
    await setUpNetwork({ type: 'network-attach', id: 2, slot: 1, memory, descriptor: { shape, encoding, scale, stages, metadata } }, worker.host);
    expect(worker.posted.at(-1)?.response).toMatchObject({ type: 'network-ready', id: 2, shared: true });
    const choice = await getStrategy('network').chooseMove(BOARD, {});
    expect(choice.evaluation).toBe('network');
    expect(choice.values).toEqual(oracleValues(network));
    // The tables of both slots fit in the memory as it was made: no thread grows it.
    await getStrategy('expectimax').chooseMove(BOARD, { timeMs: 20 });
    expect(memory.buffer.byteLength).toBe(lengthBefore);
  });

  it('without a shared memory the loader hands the decoded weights back, transferred', async () => {
    const loader = host();
    await setUpNetwork({ type: 'network-load', id: 3, slot: 0, file }, loader.host);
    const { response, transfer } = loader.posted.at(-1) ?? {};
    expect(response?.type).toBe('network-ready');
    if (response?.type !== 'network-ready') return;
    expect(response.shared).toBe(false);
    expect(response.weights && same(response.weights, network.weights)).toBe(true);
    expect(transfer).toEqual([response.weights?.buffer]);
  });

  it('a worker copies handed weights into a memory of its own, plays with them, and hands them back', async () => {
    const { weights, ...desc } = decodeNetwork(file);
    const worker = host(false);
    await setUpNetwork({ type: 'network-copy', id: 4, slot: 0, descriptor: desc, weights }, worker.host);
    const { response, transfer } = worker.posted.at(-1) ?? {};
    expect(response).toMatchObject({ type: 'network-ready', id: 4, shared: false });
    if (response?.type === 'network-ready') expect(response.weights).toBe(weights);
    expect(transfer).toEqual([weights.buffer]);
    const choice = await getStrategy('network').chooseMove(BOARD, {});
    expect(choice.values).toEqual(oracleValues(network));
  });

  it('a network of two stages: decoded into the shared memory, attached, or copied, it plays with its second stage where the board reaches it', async () => {
    // Stage 1 (from the 8 on: every afterstate of BOARD) is stage 0 negated.
    const weights = Int16Array.from([...network.weights, ...network.weights.map((w) => -w)]);
    const staged: Network = { ...network, stages: [0, 3], weights, metadata: { test: 'two stages' } };
    const stagedFile = encodeNetwork(staged);
    const { weights: _w, ...descriptor } = staged;
    const memory = createNetworkMemory(descriptor, 2);
    const loader = host();
    await setUpNetwork({ type: 'network-load', id: 7, slot: 0, file: stagedFile, memory }, loader.host);
    expect(loader.posted.at(-1)?.response).toEqual({ type: 'network-ready', id: 7, descriptor, shared: true });
    await setUpNetwork({ type: 'network-attach', id: 8, slot: 1, memory, descriptor }, host().host);
    const values = oracleValues(staged);
    expect(values).not.toEqual(oracleValues(network));
    expect((await getStrategy('network').chooseMove(BOARD, {})).values).toEqual(values);

    const copier = host(false);
    await setUpNetwork({ type: 'network-copy', id: 9, slot: 0, descriptor, weights: decodeNetwork(stagedFile).weights }, copier.host);
    expect(copier.posted.at(-1)?.response).toMatchObject({ type: 'network-ready', id: 9, shared: false });
    expect((await getStrategy('network').chooseMove(BOARD, {})).values).toEqual(values);
  });

  it('a corrupt file, and a shared memory in a worker that is not isolated, are failures with their reason', async () => {
    const corrupt = file.slice();
    corrupt[corrupt.length - 10] ^= 0xff;
    const loader = host();
    await setUpNetwork({ type: 'network-load', id: 5, slot: 0, file: corrupt }, loader.host);
    expect(loader.posted.at(-1)?.response).toMatchObject({ type: 'network-failed', id: 5, reason: { code: 'networkLoadFailed', params: [expect.stringMatching(/corrupt/)] } });

    const { weights: _w, ...desc } = network;
    const memory = createNetworkMemory(desc, 1);
    const lonely = host(false);
    await setUpNetwork({ type: 'network-attach', id: 6, slot: 0, memory, descriptor: desc }, lonely.host);
    expect(lonely.posted.at(-1)?.response).toMatchObject({ type: 'network-failed', id: 6, reason: { code: 'networkLoadFailed' } });
  });
});
