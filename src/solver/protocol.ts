/**
 * Messages between the solver pool (offscreen document) and its Web Workers.
 *
 *   pool ──► worker   start {id, strategy, board, options}   cancel {id}
 *   worker ──► pool   result {id, choice}   error {id, error, aborted}
 *
 * A worker runs one search at a time; `id` ties every answer to the search it belongs to, so an answer
 * that arrives after its search was cancelled or replaced is recognised and dropped. Both ends validate
 * what they receive (a worker is our own code, but a crash can leave half a message, and the pool must
 * never act on something it did not ask for).
 */
import { z } from 'zod';
import { GridSchema, MoveChoiceSchema, SearchOptionsSchema, StrategyNameSchema } from '../shared/messages';

const taskId = z.number().int().min(0);

const WorkerRequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    id: taskId,
    strategy: StrategyNameSchema,
    board: GridSchema,
    options: SearchOptionsSchema,
  }),
  z.object({ type: z.literal('cancel'), id: taskId }),
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
