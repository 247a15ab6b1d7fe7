/**
 * One solver worker (a module Web Worker started by the pool in the offscreen document): runs the
 * engine's `getStrategy(name).chooseMove` for each `start`, one search at a time, and aborts it on
 * `cancel` through an AbortController. Every answer names the search it belongs to. Before its first search
 * it may be given the learned network (`network-load`, `network-attach`: ./worker-network.ts).
 */
import { estimateChance, getStrategy, installWasmCore, instantiateWasmCoreAsync } from '../engine/index';
import wasmUrl from '../engine/wasm/build/engine.wasm?url';
import sharedWasmUrl from '../engine/wasm/build/engine-shared.wasm?url';
import { parseWorkerRequest } from './protocol';
import type { WorkerRequest, WorkerResponse } from './protocol';
import { setUpNetwork } from './worker-network';
import { attachSplit, runSplit, splitAttached, splitOnNetwork } from './worker-split';

interface WorkerScope {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
const running = new Map<number, AbortController>();

/**
 * The WebAssembly search core shipped in the package (an asset of the build), fetched and instantiated
 * once; the extension pages' CSP allows it with 'wasm-unsafe-eval'. Where it cannot be loaded the worker
 * keeps the TypeScript engine, and every expectimax choice says which engine ran (`choice.engine`).
 */
async function loadWasmCore(): Promise<void> {
  try {
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    installWasmCore(await instantiateWasmCoreAsync(await response.arrayBuffer()));
  } catch (err) {
    installWasmCore(null);
    console.warn(`2048 Autopilot: the WebAssembly solver core is unavailable (${err instanceof Error ? err.message : String(err)}); using the TypeScript engine`);
  }
}
const coreReady = loadWasmCore();

/** A packaged .wasm file, compiled. */
async function compile(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

let sharedModule: Promise<WebAssembly.Module> | null = null;
/** The network's setup under way (a search waits for it). */
let networkReady: Promise<void> = Promise.resolve();

function isAbort(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (err instanceof Error && err.name === 'AbortError');
}

async function start(request: Extract<WorkerRequest, { type: 'start' }>): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  try {
    await coreReady;
    await networkReady;
    const found = await getStrategy(request.strategy).chooseMove(request.board, request.options, controller.signal);
    // The chance meter: one network evaluation per legal move (none without a network or off 4x4).
    const chance = estimateChance(request.board);
    const choice = chance ? { ...found, chance } : found;
    scope.postMessage({ type: 'result', id: request.id, choice });
  } catch (err) {
    scope.postMessage({
      type: 'error',
      id: request.id,
      error: err instanceof Error ? err.message : String(err),
      aborted: isAbort(err, controller.signal),
    });
  } finally {
    running.delete(request.id);
  }
}

const compiledShared = (): Promise<WebAssembly.Module> => (sharedModule ??= compile(sharedWasmUrl));

/** The split searches' core being set up (a split search waits for it): ./worker-split.ts. */
let splitReady: Promise<void> = Promise.resolve();

function failed(id: number) {
  return (err: unknown): void => scope.postMessage({ type: 'split-failed', id, error: err instanceof Error ? err.message : String(err) });
}

scope.onmessage = (event: MessageEvent) => {
  const request = parseWorkerRequest(event.data);
  if (!request) return;
  if (request.type === 'start') void start(request);
  else if (request.type === 'cancel') running.get(request.id)?.abort(new DOMException('The search was cancelled', 'AbortError'));
  else if (request.type === 'split-attach') splitReady = compiledShared().then((module) => attachSplit(module, request));
  else if (request.type === 'split-search') splitReady.then(() => runSplit(request, (response) => scope.postMessage(response))).catch(failed(request.id));
  else if (request.type !== 'network-drop') {
    networkReady = setUpNetwork(request, {
      sharedModule: compiledShared,
      ownCore: () => coreReady,
      isolated: (self as { crossOriginIsolated?: boolean }).crossOriginIsolated === true,
      post: (response, transfer = []) => scope.postMessage(response, transfer),
    });
    // The split searches move onto the network's memory with it (its weights used in place).
    if (request.type === 'network-attach') {
      const attached = networkReady;
      splitReady = splitReady.then(async () => {
        await attached;
        if (splitAttached()) splitOnNetwork(await compiledShared(), request.memory, request.descriptor);
      });
    }
  }
};
