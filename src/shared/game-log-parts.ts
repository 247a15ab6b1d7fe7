/**
 * How the game log is kept in chrome.storage.local: in GAME_CHUNKS parts (`games:<chunk>`), a game's part told
 * by its key (chunkOf), so that a game recorded writes its own part and the part of a game it evicts, not the
 * whole log — each write carries the parts it changes to every extension page that listens to storage. Versions
 * up to 0.2 kept the whole log under GAMES_STORAGE_KEY: it is read with the parts (a game in both counts once,
 * the part's record wins) and moved into them by the writer's next change (src/background/game-log-writer.ts).
 * What the log holds and how it changes: ./game-log.ts.
 */
import { ASIDE_STORAGE_KEY, GAMES_STORAGE_KEY, gameKey, readLog } from './game-log';
import type { GameLog } from './game-log';
import { GameRecordSchema } from './messages';
import type { GameRecord } from './messages';

/** How many parts the log is stored in. Never changed: a game's part is its key's hash modulo this. */
export const GAME_CHUNKS = 16;

/** chrome.storage.local key of one part of the log (0 ≤ chunk < GAME_CHUNKS). */
export function gamesChunkKey(chunk: number): string {
  return `games:${chunk}`;
}

/** Every chrome.storage.local key the log is kept under: the parts, the old whole log, the unreadable records. */
export const GAME_LOG_KEYS: readonly string[] = [...Array.from({ length: GAME_CHUNKS }, (_, chunk) => gamesChunkKey(chunk)), GAMES_STORAGE_KEY, ASIDE_STORAGE_KEY];

/** A stored value's JSON (null for one that cannot be written as JSON). */
function jsonOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

/** The part of the log a game is stored in: FNV-1a of its key (gameKey), modulo GAME_CHUNKS. */
export function chunkOf(game: GameRecord): number {
  const key = gameKey(game);
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % GAME_CHUNKS;
}

/**
 * The log as chrome.storage.local holds it (`items`: what a get of GAME_LOG_KEYS returned). The parts, then
 * the old whole log of an earlier version, less the games a part holds already; a part that is not a list is
 * kept aside whole, as the old log is (readLog).
 */
export function readStoredLog(items: Readonly<Record<string, unknown>>): GameLog {
  const stored: unknown[] = [];
  const aside: unknown[] = Array.isArray(items[ASIDE_STORAGE_KEY]) ? [...(items[ASIDE_STORAGE_KEY] as unknown[])] : [];
  for (let chunk = 0; chunk < GAME_CHUNKS; chunk++) {
    const part = items[gamesChunkKey(chunk)];
    if (Array.isArray(part)) stored.push(...(part as unknown[]));
    else if (part !== undefined && part !== null) aside.push(part);
  }
  const old = items[GAMES_STORAGE_KEY];
  if (Array.isArray(old) && stored.length > 0) {
    const inParts = new Set(readLog(stored).games.map(gameKey));
    const parsedKey = (item: unknown): string | null => {
      const parsed = GameRecordSchema.safeParse(item);
      return parsed.success ? gameKey(parsed.data) : null;
    };
    stored.push(...(old as unknown[]).filter((item) => !inParts.has(parsedKey(item) ?? '')));
  } else if (Array.isArray(old)) {
    stored.push(...(old as unknown[]));
  } else if (old !== undefined && old !== null) {
    aside.push(old);
  }
  return readLog(stored, aside);
}

/**
 * The parts to write for `log` over what storage holds (`items`): each part whose stored value is not
 * already the log's games of that part, in end-time order (so a game recorded writes one or two parts).
 */
export function changedChunks(items: Readonly<Record<string, unknown>>, log: GameLog): { chunk: number; games: GameRecord[] }[] {
  const parts = Array.from({ length: GAME_CHUNKS }, (): GameRecord[] => []);
  for (const game of log.games) parts[chunkOf(game)].push(game);
  return parts.flatMap((games, chunk) => {
    const stored = items[gamesChunkKey(chunk)];
    const same = stored === undefined ? games.length === 0 : jsonOf(stored) === JSON.stringify(games);
    return same ? [] : [{ chunk, games }];
  });
}
