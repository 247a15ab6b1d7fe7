/**
 * Bounded transposition table for expectimax: open addressing with linear probing over one typed
 * buffer (a slot = 16 bytes: key as two int32, a stamp = generation·256 + depth, the float32 value), so
 * a lookup touches one cache line; generation stamps make "clearing" one increment. No Map, no
 * allocation per entry.
 *
 * Two modes:
 * - bounded (default): a fixed capacity; probing stops after PROBE_LIMIT slots and the home slot is
 *   overwritten, so the table never grows and lookups stay O(1).
 * - exact (the reference configuration): nothing is ever evicted within a generation; the table doubles
 *   (up to 2^MAX_LOG2 slots) when it is half full, so it behaves like the reference's hash map.
 */

const PROBE_LIMIT = 12;
const MAX_LOG2 = 23; // 128 MiB; the 200 reference positions need 2^20 slots at most
export const DEFAULT_TT_LOG2 = 19;
const MAX_GENERATION = (1 << 23) - 1;

let log2 = 0;
let mask = 0;
let words = new Int32Array(0);
let floats = new Float32Array(0);
let gen = 1;
let count = 0;
let exact = false;

function allocate(bits: number): void {
  log2 = bits;
  mask = (1 << bits) - 1;
  const buffer = new ArrayBuffer(16 << bits);
  words = new Int32Array(buffer);
  floats = new Float32Array(buffer);
  gen = 1;
  count = 0;
}

/** Prepare the table for a search: `bits` = log2 of its capacity; `exactMode` = never evict. */
export function ttConfigure(bits: number, exactMode: boolean): void {
  const b = Math.max(10, Math.min(MAX_LOG2, Math.floor(bits)));
  if (exactMode) {
    if (log2 < b) allocate(b);
  } else if (log2 !== b) {
    allocate(b);
  }
  exact = exactMode;
}

/** Forget every entry (O(1)). */
export function ttNewGeneration(): void {
  gen++;
  count = 0;
  if (gen > MAX_GENERATION) {
    words.fill(0);
    gen = 1;
  }
}

function home(lo: number, hi: number): number {
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 13;
  return h & mask;
}

/** The stored value when the key is present with a stored depth <= `depth`; NaN otherwise. */
export function ttGet(lo: number, hi: number, depth: number): number {
  let i = home(lo, hi);
  const base = gen << 8;
  for (let probe = 0; ; probe++) {
    const at = i << 2;
    const stamp = words[at + 2];
    if ((stamp & ~0xff) !== base) return NaN;
    if (words[at] === lo && words[at + 1] === hi) return (stamp & 0xff) <= depth ? floats[at + 3] : NaN;
    if (!exact && probe >= PROBE_LIMIT) return NaN;
    i = (i + 1) & mask;
  }
}

/** Store (overwriting the key's entry if present). */
export function ttPut(lo: number, hi: number, depth: number, value: number): void {
  let i = home(lo, hi);
  const first = i;
  const base = gen << 8;
  for (let probe = 0; ; probe++) {
    const at = i << 2;
    const stamp = words[at + 2];
    if ((stamp & ~0xff) !== base) {
      words[at] = lo;
      words[at + 1] = hi;
      words[at + 2] = base | depth;
      floats[at + 3] = value;
      count++;
      if (exact && count * 2 > mask && log2 < MAX_LOG2) grow();
      return;
    }
    if (words[at] === lo && words[at + 1] === hi) {
      words[at + 2] = base | depth;
      floats[at + 3] = value;
      return;
    }
    if (!exact && probe >= PROBE_LIMIT) {
      const f = first << 2;
      words[f] = lo;
      words[f + 1] = hi;
      words[f + 2] = base | depth;
      floats[f + 3] = value;
      return;
    }
    i = (i + 1) & mask;
  }
}

function grow(): void {
  const old = words;
  const oldBase = gen << 8;
  allocate(log2 + 1);
  const base = gen << 8;
  for (let j = 0; j < old.length; j += 4) {
    if ((old[j + 2] & ~0xff) !== oldBase) continue;
    let i = home(old[j], old[j + 1]);
    while ((words[(i << 2) + 2] & ~0xff) === base) i = (i + 1) & mask;
    const at = i << 2;
    words[at] = old[j];
    words[at + 1] = old[j + 1];
    words[at + 2] = base | (old[j + 2] & 0xff);
    words[at + 3] = old[j + 3];
    count++;
  }
}
