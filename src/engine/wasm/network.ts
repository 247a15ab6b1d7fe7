/**
 * Loading a network into a WebAssembly core: its weights copied into the core's memory at the address the
 * core reserves for them, the leaves valued by it from then on (docs: engine.md, "The learned evaluation").
 */
import type { Network, NetworkDescriptor } from '../network/format';
import { shapeId, weightCount } from '../network/shapes';
import type { WasmCore } from './core';
import { createSlottedSharedMemory } from './core';

/** What describes a network apart from its weights: enough for a thread to use weights that another put in a shared memory. */
export type { NetworkDescriptor } from '../network/format';

/** Weights in the whole network `descriptor` describes: every stage's. */
function networkWeightCount(descriptor: Pick<NetworkDescriptor, 'shape' | 'stages'>): number {
  return weightCount(descriptor.shape) * descriptor.stages.length;
}

/** Reserve room in `core` for the network `descriptor` describes, its stages included: returns the address. */
function reserve(core: WasmCore, descriptor: NetworkDescriptor): number {
  const at = core.networkReserve(shapeId(descriptor.shape), descriptor.encoding === 'i16' ? 1 : 0, descriptor.scale, descriptor.stages.length);
  descriptor.stages.forEach((rank, s) => {
    if (s > 0) core.networkStageFrom(s, rank);
  });
  return at;
}

const coreNetworks = new WeakMap<WasmCore, Network>();

/**
 * Put `network` in `core`'s memory (`memory`: the shared memory of engine-shared.wasm; the core's own by
 * default) and evaluate with it. In a shared memory every thread's core calls this; only one copies
 * (`copy`), the others reserve the same address and use the weights in place.
 */
export function loadNetworkIntoCore(core: WasmCore, network: Network, options: { memory?: WebAssembly.Memory; copy?: boolean } = {}): void {
  const memory = options.memory ?? core.memory;
  if (!memory) throw new Error('wasm core: no memory to load the network into');
  if (network.weights.length !== networkWeightCount(network)) throw new RangeError(`a ${network.shape} network of ${network.stages.length} stage(s) has ${networkWeightCount(network)} weights, got ${network.weights.length}`);
  const at = reserve(core, network);
  if (options.copy ?? true) {
    const w = network.weights;
    new Uint8Array(memory.buffer, at, w.byteLength).set(new Uint8Array(w.buffer, w.byteOffset, w.byteLength));
  }
  core.useNetwork(1);
  coreNetworks.set(core, network);
  networkInUse.set(core, true);
}

/** A shared memory for engine-shared.wasm holding the network `descriptor` describes and `slots` tables (ttSlot), never grown. */
export function createNetworkMemory(descriptor: NetworkDescriptor, slots: number): WebAssembly.Memory {
  return createSlottedSharedMemory(networkWeightCount(descriptor) * (descriptor.encoding === 'i16' ? 2 : 4), slots);
}

/**
 * Make `core` (engine-shared.wasm on the shared `memory`) evaluate with the network `descriptor` describes, whose
 * weights sit in that memory at the address the core reserves: returns the network with its weights viewed in
 * place (a shared memory's buffer never detaches when it grows), the one to install (installNetwork), so that
 * no other copy of the weights stays alive. The thread that loads the weights fills the view; the others share it.
 */
export function attachNetwork(core: WasmCore, memory: WebAssembly.Memory, descriptor: NetworkDescriptor): Network {
  const at = reserve(core, descriptor);
  const count = networkWeightCount(descriptor);
  const weights = descriptor.encoding === 'i16' ? new Int16Array(memory.buffer, at, count) : new Float32Array(memory.buffer, at, count);
  const network: Network = { ...descriptor, weights };
  loadNetworkIntoCore(core, network, { memory, copy: false });
  return network;
}

/** The network `core` evaluates with, if any. */
export function coreNetwork(core: WasmCore): Network | undefined {
  return coreNetworks.get(core);
}

const networkInUse = new WeakMap<WasmCore, boolean>();

/**
 * Make `core` value leaves with its network (loaded with loadNetworkIntoCore) or with the heuristic; a change
 * forgets its table (entries valued the other way must not serve). Returns whether the network is in use.
 */
export function useCoreNetwork(core: WasmCore, on: boolean): boolean {
  const use = on && coreNetworks.has(core);
  if ((networkInUse.get(core) ?? coreNetworks.has(core)) !== use) core.useNetwork(use ? 1 : 0);
  networkInUse.set(core, use);
  return use;
}
