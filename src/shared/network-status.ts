/**
 * The learned network's state in the solver host, as the pages show it: loading (with its progress), in use
 * (one copy in a shared memory, or one copy per worker) or not in use and why (a status message the pages
 * word). The host reports each change; the background keeps the last one in storage.session under
 * NETWORK_STATUS_KEY (one for the extension: every tab's solver shares the network); the popup and the side
 * panel read it beside the tab's status, whose `evaluation` says what valued the last move.
 */
import { z } from 'zod';
import { StatusMessageSchema } from './status-message';

/** chrome.storage.session key of the network's state. */
export const NETWORK_STATUS_KEY = 'solver:network';

export const NetworkStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('loading'), percent: z.number().int().min(0).max(100) }),
  z.object({
    state: z.literal('ready'),
    /** `shared`: one copy in a shared memory for every worker (cross-origin-isolated host); `copies`: one per worker. */
    memory: z.enum(['shared', 'copies']),
    workers: z.number().int().min(1).max(16),
    /** Milliseconds from the start of the load to the network in use. */
    ms: z.number().min(0),
  }),
  z.object({ state: z.literal('failed'), reason: StatusMessageSchema }),
]);
export type NetworkStatus = z.infer<typeof NetworkStatusSchema>;

/** A stored network state, validated (null when absent or not one). */
export function readNetworkStatus(stored: unknown): NetworkStatus | null {
  const parsed = NetworkStatusSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
