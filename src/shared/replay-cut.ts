/**
 * Replays cut short (pure): to the whole boards a replay may keep (MAX_RESYNC_BOARDS), and to the characters
 * one record may take (RECORD_BYTE_CAP), at the last move that fits, marked `truncated` (./history.ts holds
 * the format; ./game-log.ts cuts every record it stores).
 */
import { MAX_RESYNC_BOARDS, RECORD_BYTE_CAP, base64ToBytes, bytesToBase64 } from './history';
import type { Replay } from './history';

/** Characters a replay takes in storage (its JSON). */
function replaySize(replay: Replay | undefined): number {
  return replay ? JSON.stringify(replay).length : 0;
}

/** A replay's data, decoded: `moves`, `spawns`, and `think` when it has one per move. */
interface ReplayBytes {
  readonly moves: Uint8Array;
  readonly spawns: Uint8Array;
  readonly think: Uint8Array | null;
}

/** The replay's data decoded once, or null when it cannot be (not base64). */
function decode(replay: Replay): ReplayBytes | null {
  try {
    const think = replay.think ? base64ToBytes(replay.think) : null;
    return { moves: base64ToBytes(replay.moves), spawns: base64ToBytes(replay.spawns), think: think && think.length === 2 * replay.n ? think : null };
  } catch {
    return null;
  }
}

/** What is left of a replay whose data cannot be decoded: its start board, marked truncated. */
function startOnly(replay: Replay): Replay {
  const { resyncs: _resyncs, think: _think, ...rest } = replay;
  return { ...rest, n: 0, moves: '', spawns: '', truncated: true };
}

/** Characters of `bytes` bytes as base64. */
function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/** The replay cut to its first `k` moves (the data decoded once: `moves`, `spawns`, `think` bytes). */
function cutReplay(replay: Replay, k: number, bytes: ReplayBytes): Replay {
  const moves = bytes.moves.slice(0, Math.ceil(k / 4));
  // Unused bits of the last byte are zero, as packMoves writes them.
  if (k % 4 !== 0 && moves.length > 0) moves[moves.length - 1] &= (1 << ((k % 4) * 2)) - 1;
  const resyncs: Record<string, number[]> = {};
  for (const [key, board] of Object.entries(replay.resyncs ?? {})) if (Number(key) < k) resyncs[key] = board;
  const { resyncs: _resyncs, think: _think, ...rest } = replay;
  return {
    ...rest,
    n: k,
    moves: bytesToBase64(moves),
    spawns: bytesToBase64(bytes.spawns.slice(0, k)),
    ...(bytes.think ? { think: bytesToBase64(bytes.think.slice(0, 2 * k)) } : {}),
    ...(Object.keys(resyncs).length > 0 ? { resyncs } : {}),
    truncated: true,
  };
}

/** The replay cut before its (MAX_RESYNC_BOARDS + 1)th whole board (an import's, an older version's), marked truncated. */
export function capResyncs(replay: Replay, max = MAX_RESYNC_BOARDS): Replay {
  const keys = Object.keys(replay.resyncs ?? {});
  if (keys.length <= max) return replay;
  const cut = keys.map(Number).sort((a, b) => a - b)[max];
  const bytes = decode(replay);
  return bytes ? cutReplay(replay, cut, bytes) : startOnly(replay);
}

/**
 * The replay as it is when it fits in `maxChars` characters (replaySize), else cut at the last move that
 * fits and marked `truncated`. Never throws: data that cannot be decoded leave a replay of the start board
 * alone, marked truncated. Linear in the replay's size (the size of each cut is added up, not measured).
 */
export function truncateReplay(replay: Replay, maxChars = RECORD_BYTE_CAP): Replay {
  if (replaySize(replay) <= maxChars) return replay;
  const bytes = decode(replay);
  if (!bytes) return startOnly(replay);
  const n = Math.min(replay.n, bytes.spawns.length, bytes.moves.length * 4);
  // The size of a cut at k: a skeleton (no moves) plus the base64 texts plus the boards kept before k.
  const skeleton = replaySize(cutReplay(replay, 0, bytes));
  const boardCost = new Map<number, number>();
  for (const [key, board] of Object.entries(replay.resyncs ?? {})) boardCost.set(Number(key), key.length + 3 + JSON.stringify(board).length + 1);
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + (boardCost.get(i) ?? 0);
  const sizeAt = (k: number): number => {
    const boards = prefix[k] > 0 ? prefix[k] - 1 + '"resyncs":{},'.length : 0;
    return skeleton + String(k).length - 1 + base64Length(Math.ceil(k / 4)) + base64Length(k) + (bytes.think ? base64Length(2 * k) : 0) + boards;
  };
  let low = 0;
  let high = n;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sizeAt(mid) <= maxChars) low = mid;
    else high = mid - 1;
  }
  // The sum is exact; the measure confirms it (a cut that still does not fit steps back until it does).
  let cut = cutReplay(replay, low, bytes);
  while (low > 0 && replaySize(cut) > maxChars) cut = cutReplay(replay, (low = Math.floor(low * 0.9)), bytes);
  return cut;
}
