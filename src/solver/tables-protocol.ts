/**
 * Messages between the solver host and its endgame-table builder worker (src/solver/tables-worker.ts):
 *
 *   host ──► builder   build {specs}
 *   builder ──► host   progress {fraction}   table {index, bytes}   error {error}
 *
 * `bytes` is a table in the checksummed stored form (src/engine/tables/store.ts): the host parses it
 * (checks it) before use, as it does a table read back from IndexedDB. Both ends validate what arrives.
 */
import { z } from 'zod';
import { FORMATION_NAMES } from '../engine/tables/formation';
import type { TableSpec } from '../engine/tables/formation';

export const TableSpecSchema: z.ZodType<TableSpec> = z.object({
  formation: z.enum(FORMATION_NAMES),
  goal: z.number().int().min(2).max(15),
  maxSum: z.number().int().min(0).max(1 << 20),
});

export const TablesWorkerRequestSchema = z.object({ type: z.literal('build'), specs: z.array(TableSpecSchema).min(1) });
export type TablesWorkerRequest = z.infer<typeof TablesWorkerRequestSchema>;

export const TablesWorkerResponseSchema = z.discriminatedUnion('type', [
  /** 0..1 of all the tables asked for (weighted by their positions). */
  z.object({ type: z.literal('progress'), fraction: z.number().min(0).max(1) }),
  z.object({ type: z.literal('table'), index: z.number().int().min(0), bytes: z.instanceof(Uint8Array) }),
  z.object({ type: z.literal('error'), error: z.string() }),
]);
export type TablesWorkerResponse = z.infer<typeof TablesWorkerResponseSchema>;

export function parseTablesWorkerRequest(data: unknown): TablesWorkerRequest | null {
  const parsed = TablesWorkerRequestSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

export function parseTablesWorkerResponse(data: unknown): TablesWorkerResponse | null {
  const parsed = TablesWorkerResponseSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}
