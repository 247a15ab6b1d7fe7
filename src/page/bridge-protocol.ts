/**
 * The small protocol between the content script (isolated world) and the main-world script
 * (src/page/main-world.ts). It crosses into untrusted page code, so:
 *
 * - Messages travel as JSON strings in the `detail` of namespaced CustomEvents on `window`:
 *   `__2048autopilot:<nonce>:to-page` and `__2048autopilot:<nonce>:to-content`. The nonce is made by the
 *   content script at injection and handed over once through an attribute on <html> that the main-world
 *   script removes as it starts.
 * - Every message is validated with the schemas below on arrival and must carry the nonce; anything else
 *   is dropped. The only things the page side can ask for are: press an arrow key, and (on a page with a
 *   play2048.co-style game module) read that game's state, call its move / continueAfterWin.
 *   A hostile page can at worst feed the autopilot a wrong board of its own game.
 */
import { z } from 'zod';
import { DIRECTIONS } from '../engine/types';
import { BOARD_LIMITS } from '../engine/limits';

// No code generation (page CSPs, and the house rule against eval).
z.config({ jitless: true });

export const BRIDGE_PREFIX = '__2048autopilot';
/** Attribute on <html> holding the nonce between the two injections. */
export const NONCE_ATTRIBUTE = 'data-autopilot-bridge';

export type BridgeDirection = 'to-page' | 'to-content';

export function channelName(nonce: string, direction: BridgeDirection): string {
  return `${BRIDGE_PREFIX}:${nonce}:${direction}`;
}

const NonceSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

export function isNonce(value: unknown): value is string {
  return NonceSchema.safeParse(value).success;
}

const DirectionSchema = z.enum(DIRECTIONS);

/** Requests to the main world. */
export const PageRequestSchema = z.discriminatedUnion('type', [
  z.object({ nonce: NonceSchema, id: z.number().int().min(0), type: z.literal('hello') }),
  z.object({ nonce: NonceSchema, id: z.number().int().min(0), type: z.literal('key'), payload: z.object({ direction: DirectionSchema }) }),
  z.object({ nonce: NonceSchema, id: z.number().int().min(0), type: z.literal('store/find') }),
  z.object({ nonce: NonceSchema, id: z.number().int().min(0), type: z.literal('store/snapshot') }),
  z.object({ nonce: NonceSchema, id: z.number().int().min(0), type: z.literal('store/move'), payload: z.object({ direction: DirectionSchema }) }),
  z.object({ nonce: NonceSchema, id: z.number().int().min(0), type: z.literal('store/continue') }),
]);
export type PageRequest = z.infer<typeof PageRequestSchema>;
export type PageRequestType = PageRequest['type'];
export const PAGE_REQUEST_TYPES: readonly PageRequestType[] = [
  'hello',
  'key',
  'store/find',
  'store/snapshot',
  'store/move',
  'store/continue',
];

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

/** Messages to the content script: replies to requests, and pushes (the store's state as it changes). */
export const ContentMessageSchema = z.union([
  z.object({ nonce: NonceSchema, kind: z.literal('reply'), id: z.number().int().min(0), ok: z.literal(true), result: z.unknown().optional() }),
  z.object({ nonce: NonceSchema, kind: z.literal('reply'), id: z.number().int().min(0), ok: z.literal(false), error: z.string().max(500) }),
  z.object({ nonce: NonceSchema, kind: z.literal('push'), type: z.literal('store/state'), payload: StoreSnapshotSchema }),
  z.object({ nonce: NonceSchema, kind: z.literal('push'), type: z.literal('ready'), payload: z.object({ agent: z.number() }) }),
]);

/** Result of `store/find`. */
export const StoreFindResultSchema = z.object({ found: z.boolean(), snapshot: StoreSnapshotSchema.nullable() });
export type StoreFindResult = z.infer<typeof StoreFindResultSchema>;

/** Parse a message's `detail` (a JSON string); null when it is not valid JSON or not of the schema. */
export function parseBridgeDetail<T>(detail: unknown, schema: z.ZodType<T>, nonce: string): T | null {
  if (typeof detail !== 'string' || detail.length > 100_000) return null;
  let data: unknown;
  try {
    data = JSON.parse(detail);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) return null;
  const value = parsed.data as T & { nonce?: unknown };
  return value.nonce === nonce ? parsed.data : null;
}

/** A fresh random nonce (URL-safe, 32 characters). */
export function makeNonce(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[b & 63];
  return out;
}
