/**
 * Bounded transposition table for expectimax: open addressing with linear probing over typed arrays
 * (64-bit key as two int32, float32 value, uint8 depth), and generation stamps so that "clearing" is one
 * increment. No Map, no allocation per entry.
 *
 * Two modes:
 * - bounded (default): a fixed capacity; probing stops after PROBE_LIMIT slots and the home slot is
 *   overwritten, so the table never grows and lookups stay O(1).
 * - exact (the reference configuration): nothing is ever evicted within a generation; the table doubles
 *   (up to 2^MAX_LOG2 entries) when it is half full, so it behaves like the reference's hash map.
 */

const PROBE_LIMIT = 12;
export const MAX_LOG2 = 26;
export const DEFAULT_TT_LOG2 = 19;

let log2 = 0;
let mask = 0;
let keyLo = new Int32Array(0);
let keyHi = new Int32Array(0);
let vals = new Float32Array(0);
let depths = new Uint8Array(0);
let gens = new Int32Array(0);
let gen = 1;
let count = 0;
let exact = false;

function allocate(bits: number): void {
  log2 = bits;
  const size = 1 << bits;
  mask = size - 1;
  keyLo = new Int32Array(size);
  keyHi = new Int32Array(size);
  vals = new Float32Array(size);
  depths = new Uint8Array(size);
  gens = new Int32Array(size);
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
  if (gen >= 0x7fffffff) {
    gens.fill(0);
    gen = 1;
  }
}

export function ttCapacityLog2(): number {
  return log2;
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
  for (let probe = 0; ; probe++) {
    if (gens[i] !== gen) return NaN;
    if (keyLo[i] === lo && keyHi[i] === hi) return depths[i] <= depth ? vals[i] : NaN;
    if (!exact && probe >= PROBE_LIMIT) return NaN;
    i = (i + 1) & mask;
  }
}

/** Store (overwriting the key's entry if present). */
export function ttPut(lo: number, hi: number, depth: number, value: number): void {
  let i = home(lo, hi);
  const first = i;
  for (let probe = 0; ; probe++) {
    if (gens[i] !== gen) {
      gens[i] = gen;
      keyLo[i] = lo;
      keyHi[i] = hi;
      vals[i] = value;
      depths[i] = depth;
      count++;
      if (exact && count * 2 > mask && log2 < MAX_LOG2) grow();
      return;
    }
    if (keyLo[i] === lo && keyHi[i] === hi) {
      vals[i] = value;
      depths[i] = depth;
      return;
    }
    if (!exact && probe >= PROBE_LIMIT) {
      keyLo[first] = lo;
      keyHi[first] = hi;
      vals[first] = value;
      depths[first] = depth;
      return;
    }
    i = (i + 1) & mask;
  }
}

function grow(): void {
  const oldLo = keyLo;
  const oldHi = keyHi;
  const oldVals = vals;
  const oldDepths = depths;
  const oldGens = gens;
  const oldGen = gen;
  allocate(log2 + 1);
  for (let j = 0; j < oldGens.length; j++) {
    if (oldGens[j] !== oldGen) continue;
    let i = home(oldLo[j], oldHi[j]);
    while (gens[i] === gen) i = (i + 1) & mask;
    gens[i] = gen;
    keyLo[i] = oldLo[j];
    keyHi[i] = oldHi[j];
    vals[i] = oldVals[j];
    depths[i] = oldDepths[j];
    count++;
  }
}
