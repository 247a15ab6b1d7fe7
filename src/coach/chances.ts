/**
 * The chance meter's curve of a coached game, as its record keeps it (pure): one character per move, the
 * chance of the next milestone at the position the move was played from, in 64 steps (base64url: 'A' = 0,
 * '_' = 1), '.' where the coach had no estimate (a move played before its search ended, no network). The
 * replay draws it and names the move where it fell most.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const NO_CHANCE = '.';
export const CHANCES_PATTERN = /^[A-Za-z0-9_.-]*$/;

export function encodeChance(p: number): string {
  return ALPHABET[Math.max(0, Math.min(63, Math.round(p * 63)))];
}

/** The chances of a record's string (null where none was kept). */
export function decodeChances(text: string): (number | null)[] {
  return [...text].map((c) => {
    const i = ALPHABET.indexOf(c);
    return i < 0 ? null : i / 63;
  });
}

export interface ChanceFall {
  /** The move after which the chance stood lowest against the position before it (1-based). */
  readonly move: number;
  readonly from: number;
  readonly to: number;
  readonly target: number;
}

/**
 * Where the chance fell most from one position to the next, for the same milestone (`targets[i]`: the next
 * milestone at position i; a new milestone starts a new chance, not a fall). Null when it never fell.
 */
export function biggestFall(chances: readonly (number | null)[], targets: readonly (number | null)[]): ChanceFall | null {
  let best: ChanceFall | null = null;
  for (let i = 0; i + 1 < chances.length; i++) {
    const from = chances[i];
    const to = chances[i + 1];
    const target = targets[i];
    if (from === null || to === null || target === null || targets[i + 1] !== target) continue;
    if (to < from && (!best || from - to > best.from - best.to)) best = { move: i + 1, from, to, target };
  }
  return best;
}
