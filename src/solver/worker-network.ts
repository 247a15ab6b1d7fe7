/**
 * A solver worker's learned network (the worker side of ./network-supply.ts): engine-shared.wasm instantiated
 * on a shared WebAssembly memory that holds the network's weights once, and this worker's own transposition
 * table in its slot of that memory; then installed for the engine, so that the "network" strategy and
 * expectimax's leaves use it.
 *
 * - `network-load` (the loader): decode the file (the browser's native inflate, one stage at a time) straight
 *   into the host's shared memory, or, without one, hand the decoded weights back.
 * - `network-attach`: the shared memory holds the weights already; only the descriptor came: nothing is copied.
 * - `network-copy` (no shared memory): copy the weights into a shared memory of this worker's own (its view of
 *   the weights never detaches, so no other copy has to stay) and hand them back; where even that memory
 *   cannot be made, the worker's own core (engine.wasm) takes a copy and keeps one more in JavaScript.
 */
import {
  attachNetwork,
  createNetworkMemory,
  decodeNetworkAsync,
  describeNetworkFile,
  installNetwork,
  installWasmCore,
  instantiateSharedWasmCore,
} from '../engine/index';
import type { Network, NetworkDescriptor, WasmCore } from '../engine/index';
import { nativeInflate, networkFailure } from './network-loader';
import type { WorkerRequest, WorkerResponse } from './protocol';

type NetworkSetup = Extract<WorkerRequest, { type: 'network-load' | 'network-attach' | 'network-copy' }>;

/**
 * The loader's progress (0..1) at each step, as measured on a 4x6 network in Chromium: the native inflate takes
 * about a third of the decoding, the checksum and the sparse stream most of the rest, the copy the last bit.
 */
const INFLATED_SHARE = 0.3;
const DECODED_SHARE = 0.85;

interface NetworkHost {
  /** The compiled engine-shared.wasm (fetched from the package once). */
  sharedModule(): Promise<WebAssembly.Module>;
  /** The worker's own core (engine.wasm), for the last resort: a copy of the network in it. */
  ownCore(): Promise<void>;
  /** Is this worker cross-origin isolated (a shared memory could reach it)? */
  readonly isolated: boolean;
  post(response: WorkerResponse, transfer?: Transferable[]): void;
}

function descriptorOf(network: NetworkDescriptor): NetworkDescriptor {
  const { shape, encoding, scale, stages, metadata } = network;
  return { shape, encoding, scale, stages, metadata };
}

/** The native inflater, its progress over all of a file's stages (it is called once per stage) scaled to `share`. */
function stagedInflate(stages: number, share: number, progress: (fraction: number) => void): ReturnType<typeof nativeInflate> {
  let stage = -1;
  const inflateStage = nativeInflate((fraction) => progress((share * (stage + fraction)) / stages));
  return (bytes) => {
    stage++;
    return inflateStage(bytes);
  };
}

/** Copy `weights` into `network`'s (the same shape and encoding). */
function copyWeights(network: Network, weights: Network['weights']): void {
  (network.weights as Int16Array).set(weights as Int16Array);
}

/** A shared memory of this worker's own for `network` and its table, or null where the browser makes none. */
function ownSharedMemory(network: NetworkDescriptor): WebAssembly.Memory | null {
  try {
    return createNetworkMemory(network, 1);
  } catch {
    return null;
  }
}

function use(core: WasmCore, network: Network, slot: number): void {
  core.ttSlot(slot);
  installWasmCore(core);
  installNetwork(network);
}

/** Put `weights` in `memory` (the core on it evaluating with them) and install it with its table in `slot`. */
function useIn(module: WebAssembly.Module, memory: WebAssembly.Memory, descriptor: NetworkDescriptor, weights: Network['weights'] | null, slot: number): void {
  const core = instantiateSharedWasmCore(module, memory);
  const network = attachNetwork(core, memory, descriptor);
  if (weights) copyWeights(network, weights);
  use(core, network, slot);
}

/** Set the network up as `setup` says and answer network-ready, or network-failed with the reason. */
export async function setUpNetwork(setup: NetworkSetup, host: NetworkHost): Promise<void> {
  try {
    if (setup.type !== 'network-copy' && setup.memory && !host.isolated) throw new Error('a shared memory reached a worker that is not cross-origin isolated');
    const module = await host.sharedModule();
    if (setup.type === 'network-attach') {
      useIn(module, setup.memory, setup.descriptor, null, setup.slot);
      host.post({ type: 'network-ready', id: setup.id, descriptor: setup.descriptor, shared: true });
    } else if (setup.type === 'network-load') {
      const progress = (fraction: number): void => host.post({ type: 'network-progress', id: setup.id, fraction });
      const descriptor = descriptorOf(describeNetworkFile(setup.file));
      const inflate = stagedInflate(descriptor.stages.length, INFLATED_SHARE, progress);
      if (setup.memory) {
        // Decoded straight into the shared memory: no other copy of the weights is ever made.
        const core = instantiateSharedWasmCore(module, setup.memory);
        const network = attachNetwork(core, setup.memory, descriptor);
        await decodeNetworkAsync(setup.file, inflate, { into: network.weights });
        progress(DECODED_SHARE);
        use(core, network, setup.slot);
        host.post({ type: 'network-ready', id: setup.id, descriptor, shared: true });
      } else {
        const decoded = await decodeNetworkAsync(setup.file, inflate);
        progress(DECODED_SHARE);
        host.post({ type: 'network-ready', id: setup.id, descriptor, shared: false, weights: decoded.weights }, [decoded.weights.buffer]);
      }
    } else {
      const memory = ownSharedMemory(setup.descriptor);
      let weights = setup.weights;
      if (memory) useIn(module, memory, setup.descriptor, weights, 0);
      else {
        await host.ownCore();
        weights = weights.slice(); // the core copies these; the ones received go back
        installNetwork({ ...setup.descriptor, weights });
      }
      host.post({ type: 'network-ready', id: setup.id, descriptor: setup.descriptor, shared: false, weights: setup.weights }, [setup.weights.buffer]);
    }
  } catch (err) {
    host.post({ type: 'network-failed', id: setup.id, reason: networkFailure(err) });
  }
}
