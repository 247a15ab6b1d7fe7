/**
 * The bridge between the content script (isolated world) and the main-world agent
 * (src/page/main-world.ts, whose header holds the threat model), as the content script sees it.
 *
 * - The background makes two random values per injection, a secret and a channel name, and hands them
 *   to both worlds through chrome.scripting.executeScript's `args` (src/background/inject.ts): never
 *   through the DOM.
 * - The two event names are derived from the secret and the page's origin (the first 32 hex digits of
 *   HMAC-SHA-256 of `to-page|<origin>` and `to-content|<origin>` under the secret: src/content/hmac.ts
 *   derivedEventName, and the agent's own copy): no fixed text on the page, nothing shared between two
 *   injections or two sites, nothing that tells the page which extension this is.
 * - Requests (content → agent) are CustomEvents of the to-page name on `window` with the text
 *   `id:type:argument`. They carry nothing secret; a page that learns the name can only make the agent
 *   act on its own game.
 * - Replies and pushes (agent → content) are CustomEvents of the to-content name whose detail is
 *   `<json>~<hmac>`: the JSON carries a sequence number, the tag is HMAC-SHA-256 of the JSON
 *   under the secret. A wrong tag, an old sequence number or a shape outside the schemas below is dropped.
 */
import { z } from 'zod';
import { BOARD_LIMITS } from '../engine/limits';

// No code generation (page CSPs, and the house rule against eval).
z.config({ jitless: true });

export type BridgeDirection = 'to-page' | 'to-content';

/** Secrets and channel names: URL-safe base64 characters (the agent checks the same). */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{32,64}$/;
const CHANNEL_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export function isSecret(value: unknown): value is string {
  return typeof value === 'string' && SECRET_PATTERN.test(value);
}

export function isChannel(value: unknown): value is string {
  return typeof value === 'string' && CHANNEL_PATTERN.test(value);
}

/** Where the background leaves the keys on the isolated world's global (src/content/index.ts takes them). */
export const KEYS_GLOBAL = '__2048autopilotBridgeKeys';

/** The keys of one injection. */
export interface BridgeKeys {
  readonly secret: string;
  readonly channel: string;
  /**
   * The handover key: the same for every injection of this installation (kept in storage.local, so it
   * outlives an update), for what a content script hands to the next one (src/content/handover.ts).
   */
  readonly handover?: string;
}

/** Requests the agent answers; nothing else is sent. */
export const PAGE_REQUEST_TYPES = ['hello', 'key', 'store/find', 'store/snapshot', 'store/move', 'store/continue'] as const;
export type PageRequestType = (typeof PAGE_REQUEST_TYPES)[number];

const TILE_MAX = BOARD_LIMITS.maxTile;
const SIDE_MIN = BOARD_LIMITS.minSize;
const SIDE_MAX = BOARD_LIMITS.maxSize;

/** A play2048.co-style game as the main world publishes it: state, score and tile values row-major. */
export const StoreSnapshotSchema = z
  .object({
    state: z.string().max(40),
    score: z.number().finite().min(0).nullable(),
    board: z.array(z.array(z.number().int().min(0).max(TILE_MAX)).min(SIDE_MIN).max(SIDE_MAX)).min(SIDE_MIN).max(SIDE_MAX),
  })
  .refine((s) => s.board.every((row) => row.length === s.board[0].length), { message: 'board rows differ in length' });
export type StoreSnapshot = z.infer<typeof StoreSnapshotSchema>;

/** Why the agent could not do a request: fixed codes, never the page's own words. */
const PAGE_ERRORS = ['no-store', 'bad-direction', 'bad-request', 'page-failed'] as const;

/** Messages to the content script: replies to requests, and pushes (the store's state as it changes). */
const Seq = z.number().int().min(1);
export const ContentMessageSchema = z.union([
  z.object({ seq: Seq, kind: z.literal('reply'), id: z.number().int().min(0), ok: z.literal(true), result: z.unknown().optional() }),
  z.object({ seq: Seq, kind: z.literal('reply'), id: z.number().int().min(0), ok: z.literal(false), error: z.enum(PAGE_ERRORS) }),
  z.object({ seq: Seq, kind: z.literal('push'), type: z.literal('store/state'), payload: StoreSnapshotSchema }),
  z.object({ seq: Seq, kind: z.literal('push'), type: z.literal('ready'), payload: z.object({ agent: z.number() }) }),
]);
export type ContentMessage = z.infer<typeof ContentMessageSchema>;

/** Result of `store/find`. */
export const StoreFindResultSchema = z.object({ found: z.boolean(), snapshot: StoreSnapshotSchema.nullable() });

/** A fresh random token of `length` URL-safe characters (secrets: 43, channel names: 22). */
export function makeToken(length: number): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[b & 63];
  return out;
}
