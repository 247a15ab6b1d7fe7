/**
 * How the network file packs its weights (docs: engine.md, "The network file"): each stage's weights as one
 * sparse stream of codes — runs of zero codes, then the codes' bytes by plane (all low bytes, then all next
 * bytes...), little-endian — that ./format.ts compresses with zlib.
 *
 * - Version 1 (one stage): the codes are the weights' own bits.
 * - Version 2 (S stages): stage 0's codes are its weights, each later stage's are its difference from the stage
 *   before: i16 weights as the difference, zigzag-coded (a small change of either sign is a small code, its high
 *   byte 0); f32 weights as the XOR of their bits (0 where equal). Before that, every entry a stage can never
 *   read is written as the next stage's (unreadEntriesFilled): its difference is then 0 and costs a run.
 */
import { NetworkFormatError } from './format-error';

export type Weights = Int16Array | Float32Array;
/** The codes of one stage: 16-bit (i16 weights) or 32-bit (f32 weights' bits). */
type Codes = Uint16Array | Uint32Array;

/**
 * Does a tuple's table index (4 bits a cell, up to 6 cells) hold a cell of rank `rank` or more? Even and odd
 * cells in byte lanes: a lane overflows into its bit 4 when its cell plus 16 - rank reaches 16.
 */
export function indexReaches(index: number, rank: number): boolean {
  const k = (16 - rank) * 0x010101;
  return ((((index & 0x0f0f0f) + k) | (((index >>> 4) & 0x0f0f0f) + k)) & 0x101010) !== 0;
}

/**
 * A copy of `weights` (stages.length stages of `count`, tuple tables of `tableSize`) in which every entry that
 * stage s can never read — its index holds a cell of rank stages[s + 1] or more, and stage s values only boards
 * whose largest rank is below that — is the next stage's entry (in turn filled from the one after). Play is
 * unchanged: a stage reads only the entries it can reach.
 */
export function unreadEntriesFilled(weights: Weights, stages: readonly number[], count: number, tableSize: number): Weights {
  const out = weights.slice();
  for (let s = stages.length - 2; s >= 0; s--) {
    const next = stages[s + 1];
    const unread = new Uint8Array(tableSize);
    for (let i = 0; i < tableSize; i++) unread[i] = indexReaches(i, next) ? 1 : 0;
    const base = s * count;
    for (let i = 0; i < count; i++) if (unread[i & (tableSize - 1)]) out[base + i] = out[base + count + i];
  }
  return out;
}

/** The codes of stage `s` of `weights` (version 2). */
function stageCodes(weights: Weights, s: number, count: number): Codes {
  const base = s * count;
  if (weights instanceof Float32Array) {
    const bits = new Uint32Array(weights.buffer, weights.byteOffset, weights.length);
    const codes = bits.slice(base, base + count);
    if (s > 0) for (let i = 0; i < count; i++) codes[i] ^= bits[base - count + i];
    return codes;
  }
  const codes = new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    const d = (weights[base + i] - (s > 0 ? weights[base - count + i] : 0)) << 16 >> 16; // wrapped to 16 bits
    codes[i] = (d << 1) ^ (d >> 31);
  }
  return codes;
}

function varintLength(value: number): number {
  let n = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 128)) n++;
  return n;
}

/** The sparse stream of `codes`: varint R, R runs (varint zeros, varint n) covering every code, then the planes. */
function sparseStream(codes: Codes): Uint8Array {
  const n = codes.length;
  const runs: number[] = [];
  let values = 0;
  for (let i = 0; i < n; ) {
    const zerosFrom = i;
    while (i < n && codes[i] === 0) i++;
    const valuesFrom = i;
    while (i < n && codes[i] !== 0) i++;
    runs.push(valuesFrom - zerosFrom, i - valuesFrom);
    values += i - valuesFrom;
  }
  const width = codes.BYTES_PER_ELEMENT;
  let runBytes = varintLength(runs.length / 2);
  for (const r of runs) runBytes += varintLength(r);
  const out = new Uint8Array(runBytes + values * width);
  let at = 0;
  const varint = (value: number): void => {
    let v = value;
    while (v >= 0x80) {
      out[at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    out[at++] = v;
  };
  varint(runs.length / 2);
  for (const r of runs) varint(r);
  for (let plane = 0; plane < width; plane++) {
    const shift = 8 * plane;
    let k = runBytes + plane * values;
    for (let i = 0; i < n; i++) if (codes[i] !== 0) out[k++] = codes[i] >>> shift;
  }
  return out;
}

/**
 * The runs at the head of a sparse stream, checked against `count` codes: [zeros, values, zeros, values, ...],
 * where the planes begin, and how many values they hold. A malformed stream throws.
 */
function readRuns(stream: Uint8Array, count: number, width: number): { runs: Uint32Array; at: number; values: number } {
  const end = stream.length;
  let at = 0;
  const varint = (): number => {
    if (at >= end) throw new NetworkFormatError('the network file is corrupt (its weights end early)');
    let byte = stream[at++];
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    for (let shift = 7; shift < 35; shift += 7) {
      if (at >= end) throw new NetworkFormatError('the network file is corrupt (its weights end early)');
      byte = stream[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new NetworkFormatError('the network file is corrupt (a bad run length)');
  };
  const runCount = varint();
  if (runCount > count) throw new NetworkFormatError('the network file is corrupt (more runs than weights)');
  const runs = new Uint32Array(2 * runCount);
  let covered = 0;
  let values = 0;
  for (let r = 0; r < 2 * runCount; r += 2) {
    let zeros: number;
    let n: number;
    // A fast path for two one-byte lengths (below 128), nearly all of the ~11 million runs of the shipped network.
    if (at + 1 < end && stream[at] < 0x80 && stream[at + 1] < 0x80) {
      zeros = stream[at];
      n = stream[at + 1];
      at += 2;
    } else {
      zeros = varint();
      n = varint();
    }
    covered += zeros + n;
    if (covered > count) throw new NetworkFormatError('the network file is corrupt (its weights overrun the network)');
    runs[r] = zeros;
    runs[r + 1] = n;
    values += n;
  }
  if (covered !== count || at + values * width !== end) throw new NetworkFormatError('the network file is corrupt (its weights do not fill the network)');
  return { runs, at, values };
}

/** Runs shorter than this are copied or zeroed element by element (a call costs more than a few stores). */
const SHORT_RUN = 16;

/**
 * Decode stage `s`'s sparse stream straight into i16 weights, in one pass: each code (low byte from the first
 * plane, high from the second) zigzag-decoded and added to the stage before (version 2) or taken as the weight's
 * own bits (version 1, `raw`); a run of zero codes is the stage before's weights (or zeros at stage 0).
 */
function fillI16(stream: Uint8Array, weights: Int16Array, base: number, count: number, raw: boolean): void {
  const { runs, at, values } = readRuns(stream, count, 2);
  const previous = base > 0;
  let low = at;
  let high = at + values;
  let i = base;
  for (let r = 0; r < runs.length; r += 2) {
    const zeros = runs[r];
    if (zeros > 0) {
      if (!previous) weights.fill(0, i, i + zeros);
      else if (zeros < SHORT_RUN) for (let k = i; k < i + zeros; k++) weights[k] = weights[k - count];
      else weights.copyWithin(i, i - count, i - count + zeros);
      i += zeros;
    }
    const stop = i + runs[r + 1];
    if (raw) {
      for (; i < stop; i++) weights[i] = stream[low++] | (stream[high++] << 8);
    } else if (previous) {
      for (; i < stop; i++) {
        const z = stream[low++] | (stream[high++] << 8);
        weights[i] = weights[i - count] + ((z >>> 1) ^ -(z & 1)); // the Int16Array wraps the sum
      }
    } else {
      for (; i < stop; i++) {
        const z = stream[low++] | (stream[high++] << 8);
        weights[i] = (z >>> 1) ^ -(z & 1);
      }
    }
  }
}

/**
 * Decode stage `s`'s sparse stream straight into f32 weights' bits (four planes), in one pass: each code XORed
 * with the stage before's bits (version 2, s > 0) or taken as the bits; a run of zero codes repeats the stage
 * before (or is 0.0 at stage 0).
 */
function fillF32(stream: Uint8Array, bits: Uint32Array, base: number, count: number): void {
  const { runs, at, values } = readRuns(stream, count, 4);
  const previous = base > 0;
  let p0 = at;
  let p1 = at + values;
  let p2 = at + 2 * values;
  let p3 = at + 3 * values;
  let i = base;
  for (let r = 0; r < runs.length; r += 2) {
    const zeros = runs[r];
    if (zeros > 0) {
      if (previous) bits.copyWithin(i, i - count, i - count + zeros);
      else bits.fill(0, i, i + zeros);
      i += zeros;
    }
    const stop = i + runs[r + 1];
    for (; i < stop; i++) {
      const code = stream[p0++] | (stream[p1++] << 8) | (stream[p2++] << 16) | (stream[p3++] << 24);
      bits[i] = previous ? code ^ bits[i - count] : code;
    }
  }
}

/** Decode one stage's sparse stream into `weights` at `base` (`raw`, version 1: i16 codes are the weights' bits). */
function fillStage(stream: Uint8Array, weights: Weights, base: number, count: number, raw: boolean): void {
  if (weights instanceof Int16Array) fillI16(stream, weights, base, count, raw);
  else fillF32(stream, new Uint32Array(weights.buffer, weights.byteOffset, weights.length), base, count);
}

/** Stage `s`'s sparse stream (version 2; `weights` already filled: unreadEntriesFilled). */
export function packStage(weights: Weights, s: number, count: number): Uint8Array {
  return sparseStream(stageCodes(weights, s, count));
}

/** Decode stage `s`'s sparse stream into `weights` (version 2: stages before `s` already decoded there). */
export function unpackStage(stream: Uint8Array, weights: Weights, s: number, count: number): void {
  fillStage(stream, weights, s * count, count, false);
}

/** Version 1: decode the one stage's sparse stream into `weights`. */
export function unpackVersion1(stream: Uint8Array, weights: Weights): void {
  fillStage(stream, weights, 0, weights.length, true);
}
