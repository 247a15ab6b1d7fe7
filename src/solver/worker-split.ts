/**
 * A solver worker's share of split searches (the worker side of ./split-host.ts): engine-shared.wasm on the
 * shared memory the pool hands over, its transposition table the one every worker shares (ttShare), and
 * `workSplit` (src/engine/split.ts) for each `split-search`. The search runs to its end inside one message:
 * a cancel reaches it through the control words (the stop flag makes the core's clock read Infinity).
 *
 * Before the network is in use the split core is on the heuristic's memory (`split-attach`); a
 * `network-attach` moves it onto the network's memory (the weights used in place, the table in slot 0:
 * the workers' own tables are in slots 1…, see ./split-host.ts).
 */
import { attachNetwork, estimateChance, instantiateSharedWasmCore, workSplit } from '../engine/index';
import type { NetworkDescriptor, WasmCore } from '../engine/index';
import { SPLIT_CONTROL_STOP, SPLIT_CONTROL_WORDS } from './protocol';
import type { WorkerRequest, WorkerResponse } from './protocol';

type SplitAttach = Extract<WorkerRequest, { type: 'split-attach' }>;
type SplitSearchRequest = Extract<WorkerRequest, { type: 'split-search' }>;

interface SplitState {
  readonly attach: SplitAttach;
  readonly control: Int32Array;
  core: WasmCore;
  /** The core values leaves with the network (it is attached in its memory). */
  hasNetwork: boolean;
  network: boolean;
  /** The helper stage's stop (src/engine/split.ts: SharedTable.stopWhen). */
  stop: (() => boolean) | null;
}

let state: SplitState | null = null;

function clock(): number {
  const current = state;
  if (!current) return performance.now();
  if (Atomics.load(current.control, SPLIT_CONTROL_STOP) !== 0 || current.stop?.()) return Infinity;
  return performance.now();
}

function makeCore(module: WebAssembly.Module, memory: WebAssembly.Memory, bits: number, descriptor: NetworkDescriptor | null): WasmCore {
  const core = instantiateSharedWasmCore(module, memory, clock);
  if (descriptor) attachNetwork(core, memory, descriptor);
  core.ttShare(bits, false);
  return core;
}

/** `split-attach`: search split jobs on `attach.memory` (no network) from now on. */
export function attachSplit(module: WebAssembly.Module, attach: SplitAttach): void {
  const core = makeCore(module, attach.memory, attach.bits, null);
  state = { attach, control: new Int32Array(attach.control, 0, SPLIT_CONTROL_WORDS), core, hasNetwork: false, network: false, stop: null };
}

/** After `network-attach`: search split jobs on the network's memory, its weights in place. */
export function splitOnNetwork(module: WebAssembly.Module, memory: WebAssembly.Memory, descriptor: NetworkDescriptor): void {
  const current = state;
  if (!current) return;
  current.core = makeCore(module, memory, current.attach.bits, descriptor);
  current.hasNetwork = true;
  current.network = true;
}

/** Has this worker been given split searches (`split-attach`)? */
export function splitAttached(): boolean {
  return state !== null;
}

/** This worker's share of one split search, answered split-done or split-failed. */
export function runSplit(request: SplitSearchRequest, post: (response: WorkerResponse) => void): void {
  const current = state;
  if (!current) {
    post({ type: 'split-failed', id: request.id, error: 'the worker has no split memory' });
    return;
  }
  try {
    const { core } = current;
    if (request.clear && request.thread === 0) core.ttShare(current.attach.bits, true);
    const wanted = request.network && current.hasNetwork;
    if (wanted !== current.network) core.useNetwork(wanted ? 1 : 0);
    current.network = wanted;
    const table = {
      core,
      generation: request.generation,
      stopWhen: (next: (() => boolean) | null): void => {
        current.stop = next;
      },
    };
    const stopAt = request.deadline === null ? Infinity : request.deadline - performance.timeOrigin;
    const executions = workSplit(request.board, request.plan, current.attach.buffer, request.thread, request.limit, table, { stopAt, cutoff: request.cutoff });
    const chance = request.chance ? estimateChance(request.board) : null;
    post({ type: 'split-done', id: request.id, executions, ...(chance ? { chance } : {}) });
  } catch (err) {
    post({ type: 'split-failed', id: request.id, error: err instanceof Error ? err.message : String(err) });
  }
}
