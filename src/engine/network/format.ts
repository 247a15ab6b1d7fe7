/**
 * The network file (docs: engine.md, "The network file"): a versioned, checksummed header, then the weights
 * as a sparse stream (runs of zeros and runs of values) compressed with deflate.
 *
 *   0  "2048-NTN"                     8  u16 version            10 u8 encoding (0 f32, 1 i16)
 *   11 u8 tuples T                    12 u8 cells per tuple C   13 u8 stages S
 *   14 u16 metadata bytes M           16 f32 scale (i16: value = integer x scale)
 *   20 u32 payload bytes              24 u32 weights per stage (T x 16^C)
 *   28 u32 CRC-32 of the sparse stream
 *   32 T x C cells, S stage ranks (stage s plays boards whose largest rank is at least its rank), M bytes of
 *      metadata (JSON: how the network was made), u32 CRC-32 of the header so far; then the payload.
 * Sparse stream: repeated (varint zeros, varint n, n values little-endian) until every weight is given.
 *
 * Reading a file that is truncated, corrupt, of another version or of a shape the engine does not know throws
 * a NetworkFormatError that says which: a network is never half read.
 */
import { deflateSync, inflateSync } from 'fflate';
import { crc32 } from './crc32';
import { SHAPE_TUPLES, shapeOfTuples, weightCount } from './shapes';
import type { ShapeName } from './shapes';

export const NETWORK_MAGIC = '2048-NTN';
export const NETWORK_VERSION = 1;
const FIXED_HEADER = 32;
/** Largest metadata accepted (a made file holds a few hundred bytes). */
const MAX_METADATA = 16384;

export type WeightEncoding = 'f32' | 'i16';
const ENCODINGS: readonly WeightEncoding[] = ['f32', 'i16'];

/** How a network was made (training command, seed, episodes...): strings and numbers only. */
export type NetworkMetadata = Readonly<Record<string, string | number>>;

export interface Network {
  readonly shape: ShapeName;
  readonly encoding: WeightEncoding;
  /** i16: a weight's value is its integer times the scale; f32: 1. */
  readonly scale: number;
  /** Weights of the one stage, tuple-major: tuple k's table at k x 16^C. */
  readonly weights: Float32Array | Int16Array;
  readonly metadata: NetworkMetadata;
}

export class NetworkFormatError extends Error {
  override readonly name = 'NetworkFormatError';
}

/** The i16 encoding of f32 weights: the largest weight maps to 32767, each rounded to the nearest step. */
export function quantise(weights: Float32Array): { weights: Int16Array; scale: number } {
  let largest = 0;
  for (let i = 0; i < weights.length; i++) largest = Math.max(largest, Math.abs(weights[i]));
  const scale = largest > 0 ? Math.fround(largest / 32767) : 1;
  const out = new Int16Array(weights.length);
  for (let i = 0; i < weights.length; i++) out[i] = Math.max(-32767, Math.min(32767, Math.round(weights[i] / scale)));
  return { weights: out, scale };
}

// ---- sparse stream ----

class ByteWriter {
  private bytes = new Uint8Array(1 << 20);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  varint(value: number): void {
    this.room(5);
    let v = value >>> 0;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  values(source: Float32Array | Int16Array, start: number, end: number): void {
    const view = source instanceof Int16Array ? new Uint8Array(source.buffer, source.byteOffset + start * 2, (end - start) * 2) : new Uint8Array(source.buffer, source.byteOffset + start * 4, (end - start) * 4);
    this.room(view.length);
    this.bytes.set(view, this.length);
    this.length += view.length;
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

function sparseStream(weights: Float32Array | Int16Array): Uint8Array {
  const out = new ByteWriter();
  const n = weights.length;
  let i = 0;
  while (i < n) {
    const zerosFrom = i;
    while (i < n && weights[i] === 0) i++;
    const valuesFrom = i;
    while (i < n && weights[i] !== 0) i++;
    out.varint(valuesFrom - zerosFrom);
    out.varint(i - valuesFrom);
    out.values(weights, valuesFrom, i);
  }
  return out.result();
}

function readSparse(stream: Uint8Array, encoding: WeightEncoding, count: number): Float32Array | Int16Array {
  const weights = encoding === 'i16' ? new Int16Array(count) : new Float32Array(count);
  const width = encoding === 'i16' ? 2 : 4;
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
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
  let i = 0;
  while (i < count) {
    i += varint();
    const n = varint();
    if (i + n > count || at + n * width > stream.length) throw new NetworkFormatError('the network file is corrupt (its weights overrun the network)');
    if (width === 2) for (let k = 0; k < n; k++, at += 2) weights[i + k] = view.getInt16(at, true);
    else for (let k = 0; k < n; k++, at += 4) weights[i + k] = view.getFloat32(at, true);
    i += n;
  }
  if (i !== count || at !== stream.length) throw new NetworkFormatError('the network file is corrupt (its weights do not fill the network)');
  return weights;
}

// ---- the file ----

export function encodeNetwork(network: Network): Uint8Array {
  const tuples = SHAPE_TUPLES[network.shape];
  const count = weightCount(network.shape);
  if (network.weights.length !== count) throw new RangeError(`a ${network.shape} network has ${count} weights, got ${network.weights.length}`);
  if ((network.encoding === 'i16') !== network.weights instanceof Int16Array) throw new RangeError(`weights do not match the encoding ${network.encoding}`);
  const metadata = new TextEncoder().encode(JSON.stringify(network.metadata));
  if (metadata.length > MAX_METADATA) throw new RangeError(`network metadata over ${MAX_METADATA} bytes`);
  const stream = sparseStream(network.weights);
  const payload = deflateSync(stream, { level: 9 });
  const cells = tuples.flat();
  const headerLength = FIXED_HEADER + cells.length + 1 + metadata.length;
  const file = new Uint8Array(headerLength + 4 + payload.length);
  const view = new DataView(file.buffer);
  for (let i = 0; i < 8; i++) file[i] = NETWORK_MAGIC.charCodeAt(i);
  view.setUint16(8, NETWORK_VERSION, true);
  file[10] = ENCODINGS.indexOf(network.encoding);
  file[11] = tuples.length;
  file[12] = tuples[0].length;
  file[13] = 1;
  view.setUint16(14, metadata.length, true);
  view.setFloat32(16, network.encoding === 'i16' ? network.scale : 1, true);
  view.setUint32(20, payload.length, true);
  view.setUint32(24, count, true);
  view.setUint32(28, crc32(stream), true);
  file.set(cells, FIXED_HEADER);
  file[FIXED_HEADER + cells.length] = 0;
  file.set(metadata, FIXED_HEADER + cells.length + 1);
  view.setUint32(headerLength, crc32(file, 0, headerLength), true);
  file.set(payload, headerLength + 4);
  return file;
}

export function decodeNetwork(file: Uint8Array): Network {
  const fail = (why: string): never => {
    throw new NetworkFormatError(why);
  };
  if (file.length < FIXED_HEADER) fail(`not a network file: ${file.length} bytes, shorter than the header`);
  for (let i = 0; i < 8; i++) if (file[i] !== NETWORK_MAGIC.charCodeAt(i)) fail('not a 2048 Autopilot network file (its first bytes are not "2048-NTN")');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const version = view.getUint16(8, true);
  if (version !== NETWORK_VERSION) fail(`network file version ${version}; this build reads version ${NETWORK_VERSION}`);
  const encoding = ENCODINGS[file[10]] ?? fail(`unknown weight encoding ${file[10]}`);
  const tupleCount = file[11];
  const cellsPerTuple = file[12];
  const stages = file[13];
  const metadataLength = view.getUint16(14, true);
  const headerLength = FIXED_HEADER + tupleCount * cellsPerTuple + stages + metadataLength;
  if (file.length < headerLength + 4) fail(`the network file is truncated (${file.length} bytes, its header needs ${headerLength + 4})`);
  if (crc32(file, 0, headerLength) !== view.getUint32(headerLength, true)) fail('the network file is corrupt (header checksum mismatch)');
  const tuples: number[][] = [];
  for (let t = 0; t < tupleCount; t++) tuples.push(Array.from(file.subarray(FIXED_HEADER + t * cellsPerTuple, FIXED_HEADER + (t + 1) * cellsPerTuple)));
  const shape = shapeOfTuples(tuples) ?? fail(`the network's tuples ${JSON.stringify(tuples)} are not a shape this build knows`);
  if (stages !== 1) fail(`the network has ${stages} stages; this build reads networks of one stage`);
  const count = view.getUint32(24, true);
  if (count !== weightCount(shape)) fail(`the network file is corrupt (${count} weights for a ${shape} network)`);
  const scale = view.getFloat32(16, true);
  if (!Number.isFinite(scale) || scale <= 0) fail(`the network file is corrupt (scale ${scale})`);
  let metadata: NetworkMetadata;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(file.subarray(headerLength - metadataLength, headerLength)));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    for (const value of Object.values(parsed)) if (typeof value !== 'string' && typeof value !== 'number') throw new Error('not strings and numbers');
    metadata = parsed as NetworkMetadata;
  } catch (error) {
    return fail(`the network file's metadata is not valid (${error instanceof Error ? error.message : String(error)})`);
  }
  const payloadLength = view.getUint32(20, true);
  const payloadStart = headerLength + 4;
  if (file.length < payloadStart + payloadLength) fail(`the network file is truncated (${file.length} bytes of ${payloadStart + payloadLength})`);
  if (file.length > payloadStart + payloadLength) fail(`the network file has ${file.length - payloadStart - payloadLength} bytes after its end`);
  let stream: Uint8Array;
  try {
    stream = inflateSync(file.subarray(payloadStart, payloadStart + payloadLength));
  } catch (error) {
    return fail(`the network file is corrupt (its weights do not decompress: ${error instanceof Error ? error.message : String(error)})`);
  }
  if (crc32(stream) !== view.getUint32(28, true)) fail('the network file is corrupt (weights checksum mismatch)');
  return { shape, encoding, scale: encoding === 'i16' ? scale : 1, weights: readSparse(stream, encoding, count), metadata };
}
