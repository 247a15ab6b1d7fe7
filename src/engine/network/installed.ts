/**
 * The network the engine evaluates with, once a host has loaded one (the CLI reads the file, the extension's
 * solver fetches the packaged asset): the "network" strategy plays with it and expectimax values its leaves
 * with it. With a WebAssembly core installed the core evaluates (the weights copied into its memory once);
 * otherwise the TypeScript evaluation does.
 */
import type { WasmCore } from '../wasm/core';
import { wasmCore } from '../wasm/core';
import { coreNetwork, loadNetworkIntoCore } from '../wasm/network';
import type { Network } from './format';

let installed: Network | null = null;

/** Make `network` the engine's learned evaluation (null: none; the heuristic everywhere). */
export function installNetwork(network: Network | null): void {
  installed = network;
  const core = wasmCore();
  if (core && network && coreNetwork(core) !== network) loadNetworkIntoCore(core, network);
  if (core && !network) core.useNetwork(0);
}

export function installedNetwork(): Network | null {
  return installed;
}

/** The installed core holding the installed network (loading it there first if needed), or null. */
export function networkCore(): WasmCore | null {
  const core = wasmCore();
  if (!core || !installed) return null;
  if (coreNetwork(core) !== installed) loadNetworkIntoCore(core, installed);
  return core;
}
