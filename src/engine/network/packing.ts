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

/** Turn the codes decoded in place at stage `s` of `weights` back into its weights (version 2). */
function undoCodes(weights: Weights, s: number, count: number): void {
  const base = s * count;
  if (weights instanceof Float32Array) {
    if (s === 0) return;
    const bits = new Uint32Array(weights.buffer, weights.byteOffset, weights.length);
    for (let i = base; i < base + count; i++) bits[i] ^= bits[i - count];
    return;
  }
  const codes = new Uint16Array(weights.buffer, weights.byteOffset, weights.length);
  for (let i = base; i < base + count; i++) {
    const z = codes[i];
    const d = (z >>> 1) ^ -(z & 1);
    weights[i] = s > 0 ? weights[i - count] + d : d; // the Int16Array wraps the sum
  }
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

/** Read a sparse stream into `codes` (every code written, zeros included); a malformed stream throws. */
function readSparse(stream: Uint8Array, codes: Codes): void {
  const count = codes.length;
  const width = codes.BYTES_PER_ELEMENT;
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= stream.length) throw new NetworkFormatError('the network file is corrupt (its weights end early)');
      const byte = stream[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new NetworkFormatError('the network file is corrupt (a bad run length)');
  };
  const runCount = varint();
  if (runCount > count) throw new NetworkFormatError('the network file is corrupt (more runs than weights)');
  const starts = new Uint32Array(runCount);
  const lengths = new Uint32Array(runCount);
  let i = 0;
  let values = 0;
  for (let r = 0; r < runCount; r++) {
    const zeros = varint();
    const n = varint();
    if (i + zeros + n > count) throw new NetworkFormatError('the network file is corrupt (its weights overrun the network)');
    codes.fill(0, i, i + zeros);
    i += zeros;
    starts[r] = i;
    lengths[r] = n;
    i += n;
    values += n;
  }
  if (i !== count || at + values * width !== stream.length) throw new NetworkFormatError('the network file is corrupt (its weights do not fill the network)');
  if (codes instanceof Uint16Array) {
    let low = at;
    let high = at + values;
    for (let r = 0; r < runCount; r++) {
      const end = starts[r] + lengths[r];
      for (let w = starts[r]; w < end; w++) codes[w] = stream[low++] | (stream[high++] << 8);
    }
    return;
  }
  const p = [at, at + values, at + 2 * values, at + 3 * values];
  for (let r = 0; r < runCount; r++) {
    const end = starts[r] + lengths[r];
    for (let w = starts[r]; w < end; w++) codes[w] = (stream[p[0]++] | (stream[p[1]++] << 8) | (stream[p[2]++] << 16) | (stream[p[3]++] << 24)) >>> 0;
  }
}

/** The codes' view of stage `s` of `weights` (the same memory). */
function codesView(weights: Weights, s: number, count: number): Codes {
  const offset = weights.byteOffset + s * count * weights.BYTES_PER_ELEMENT;
  return weights instanceof Int16Array ? new Uint16Array(weights.buffer, offset, count) : new Uint32Array(weights.buffer, offset, count);
}

/** Stage `s`'s sparse stream (version 2; `weights` already filled: unreadEntriesFilled). */
export function packStage(weights: Weights, s: number, count: number): Uint8Array {
  return sparseStream(stageCodes(weights, s, count));
}

/** Decode stage `s`'s sparse stream into `weights` (version 2: stages before `s` already decoded there). */
export function unpackStage(stream: Uint8Array, weights: Weights, s: number, count: number): void {
  readSparse(stream, codesView(weights, s, count));
  undoCodes(weights, s, count);
}

/** Version 1: decode the one stage's sparse stream into `weights`. */
export function unpackVersion1(stream: Uint8Array, weights: Weights): void {
  readSparse(stream, codesView(weights, 0, weights.length));
}
