/**
 * Messages between the solver pool (offscreen document) and its Web Workers.
 *
 *   pool ──► worker   start {id, strategy, board, options}   cancel {id}
 *                     network-load {id, slot, file, memory?}   network-attach {id, slot, memory, descriptor}
 *                     network-copy {id, slot, descriptor, weights}   network-drop {weights}
 *                     split-attach {memory, bits, buffer, control}   split-search {id, thread, job…}
 *   worker ──► pool   result {id, choice}   error {id, error, aborted}
 *                     network-progress {id, fraction}   network-ready {id, descriptor, shared, weights?}
 *                     network-failed {id, reason}   split-done {id, executions, chance?}   split-failed {id, error}
 *
 * A worker runs one search at a time; `id` ties every answer to the search it belongs to, so an answer
 * that arrives after its search was cancelled or replaced is recognised and dropped. Both ends validate
 * what they receive (a worker is our own code, but a crash can leave half a message, and the pool must
 * never act on something it did not ask for).
 *
 * The learned network reaches a worker before its first search (./network-supply.ts):
 * - `network-load` (to the loader worker): decode the network file and put its weights in `memory` (the one
 *   shared memory of a cross-origin-isolated host) or, without `memory`, hand them back (`weights`, transferred);
 * - `network-attach`: use the weights the loader put in the shared `memory` (only the descriptor travels);
 * - `network-copy`: copy `weights` into a memory of the worker's own and hand them back (transferred both ways);
 * - `network-drop`: the weights, handed back to the loader just before it is terminated (they end with it);
 * - `slot`: the worker's own transposition table in the shared memory (engine-shared.wasm's ttSlot).
 *
 * Where the host is cross-origin isolated (Chrome's offscreen document) expectimax's decisions are split
 * sessions (./split-host.ts): every worker searches each iteration together on one shared table.
 * - `split-attach`: the shared memory the workers search on before the network is in use (the heuristic's),
 *   the table's size, the split buffer (src/engine/split.ts) and the control words (a stop flag the workers'
 *   clocks read: a worker busy in its share takes no message). Once the network is attached, the split
 *   searches run on the network's memory (the table in slot 0, the workers' own tables in slots 1…).
 * - `split-search`: this worker's share of one iteration; `deadline` in ms since the epoch (each worker has a
 *   clock of its own); answered with `split-done` (its move executions by direction) or `split-failed`.
 */
import { z } from 'zod';
import { ChanceEstimateSchema, GridSchema, MoveChoiceSchema, SearchOptionsSchema, StrategyNameSchema } from '../shared/messages';
import { StatusMessageSchema } from '../shared/status-message';
import { MAX_STAGES } from '../engine/network/format';
import { SHAPE_NAMES } from '../engine/network/shapes';
import type { NetworkDescriptor } from '../engine/index';

const taskId = z.number().int().min(0);

/** A worker's table slot in a shared memory (the pool has at most a few workers). */
const slot = z.number().int().min(0).max(15);

const NetworkDescriptorSchema: z.ZodType<NetworkDescriptor> = z.object({
  shape: z.enum(SHAPE_NAMES),
  encoding: z.enum(['f32', 'i16']),
  scale: z.number().positive(),
  stages: z.array(z.number().int().min(0).max(15)).min(1).max(MAX_STAGES),
  metadata: z.record(z.string(), z.union([z.string(), z.number()])),
});

/** Decoded weights on their way between the workers (no shared memory): an i16 or f32 array, transferred. */
const WeightsSchema = z.custom<Int16Array | Float32Array>((value) => value instanceof Int16Array || value instanceof Float32Array);

/** The split's control words (Int32 in `split-attach`'s `control`): the stop flag (nonzero: stop now). */
export const SPLIT_CONTROL_STOP = 0;
export const SPLIT_CONTROL_WORDS = 4;

/** A SharedArrayBuffer (the global is missing where the context is not cross-origin isolated). */
const SharedBufferSchema = z.custom<SharedArrayBuffer>((value) => typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer);
const direction = z.number().int().min(0).max(3);
const SplitPlanSchema = z.object({
  dirs: z.array(direction).max(4),
  open: z.array(z.number().int().min(0).max(16)).max(4),
  owner: z.array(z.number().int().min(-1).max(15)).max(4),
});

const WorkerRequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    id: taskId,
    strategy: StrategyNameSchema,
    board: GridSchema,
    options: SearchOptionsSchema,
  }),
  z.object({ type: z.literal('cancel'), id: taskId }),
  z.object({
    type: z.literal('network-load'),
    id: taskId,
    slot,
    file: z.custom<Uint8Array>((value) => value instanceof Uint8Array),
    memory: z.instanceof(WebAssembly.Memory).optional(),
  }),
  z.object({
    type: z.literal('network-attach'),
    id: taskId,
    slot,
    memory: z.instanceof(WebAssembly.Memory),
    descriptor: NetworkDescriptorSchema,
  }),
  z.object({ type: z.literal('network-copy'), id: taskId, slot, descriptor: NetworkDescriptorSchema, weights: WeightsSchema }),
  z.object({ type: z.literal('network-drop'), weights: WeightsSchema }),
  z.object({
    type: z.literal('split-attach'),
    memory: z.instanceof(WebAssembly.Memory),
    bits: z.number().int().min(10).max(20),
    buffer: SharedBufferSchema,
    control: SharedBufferSchema,
  }),
  z.object({
    type: z.literal('split-search'),
    id: taskId,
    /** This worker's number in the split (its place in the split buffer). */
    thread: slot,
    board: GridSchema,
    plan: SplitPlanSchema,
    limit: z.number().int().min(1).max(16),
    cutoff: z.number().min(0),
    /** ms since the epoch (performance.timeOrigin + performance.now()); null: never. */
    deadline: z.number().nullable(),
    network: z.boolean(),
    /** The first of the search's table generations (one per root move). */
    generation: z.number().int().min(1).max(0xffffff),
    /** Zero the shared table first (its generations wrapped round): thread 0 does. */
    clear: z.boolean(),
    /** Answer with the chance meter's estimate of the board too. */
    chance: z.boolean(),
  }),
]);
export type WorkerRequest = z.infer<typeof WorkerRequestSchema>;

const WorkerResponseSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: taskId, choice: MoveChoiceSchema }),
  z.object({
    type: z.literal('error'),
    id: taskId,
    error: z.string(),
    /** True when the search ended because it was cancelled (not a failure). */
    aborted: z.boolean(),
  }),
  /** How far the decoding of the network file is (0..1). */
  z.object({ type: z.literal('network-progress'), id: taskId, fraction: z.number().min(0).max(1) }),
  /**
   * The network is decoded (the loader) or in use; `shared`: its weights are in the shared memory (false: in the
   * worker's own); `weights`: the decoded weights handed back (without shared memory).
   */
  z.object({
    type: z.literal('network-ready'),
    id: taskId,
    descriptor: NetworkDescriptorSchema,
    shared: z.boolean(),
    weights: WeightsSchema.optional(),
  }),
  /** The network could not be loaded (the worker goes on with the heuristic): why, as the pages word it. */
  z.object({ type: z.literal('network-failed'), id: taskId, reason: StatusMessageSchema }),
  /** A worker's share of a split search is done: its move executions by direction (NaN: it failed). */
  z.object({ type: z.literal('split-done'), id: taskId, executions: z.array(z.number()).length(4), chance: ChanceEstimateSchema.optional() }),
  z.object({ type: z.literal('split-failed'), id: taskId, error: z.string() }),
]);
export type WorkerResponse = z.infer<typeof WorkerResponseSchema>;

/** Parse a message received by a worker; null when it is not one of ours. */
export function parseWorkerRequest(data: unknown): WorkerRequest | null {
  const parsed = WorkerRequestSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** Parse a message received from a worker; null when it is not one of ours. */
export function parseWorkerResponse(data: unknown): WorkerResponse | null {
  const parsed = WorkerResponseSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** A worker's answer about the network (./network-supply.ts). */
export type NetworkAnswer = Extract<WorkerResponse, { type: 'network-progress' | 'network-ready' | 'network-failed' }>;

export function isNetworkAnswer(response: WorkerResponse): response is NetworkAnswer {
  return response.type === 'network-progress' || response.type === 'network-ready' || response.type === 'network-failed';
}
