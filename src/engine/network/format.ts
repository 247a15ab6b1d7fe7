/**
 * The network file (docs: engine.md, "The network file"): a versioned, checksummed header, then the weights
 * as a sparse stream (runs of zeros and runs of values) compressed with zlib (RFC 1950: deflate and a checksum).
 *
 *   0  "2048-NTN"                     8  u16 version            10 u8 encoding (0 f32, 1 i16)
 *   11 u8 tuples T                    12 u8 cells per tuple C   13 u8 stages S
 *   14 u16 metadata bytes M           16 f32 scale (i16: value = integer x scale)
 *   20 u32 payload bytes              24 u32 weights per stage (T x 16^C)
 *   28 u32 CRC-32 of the sparse stream
 *   32 T x C cells, S stage ranks (stage s plays boards whose largest rank is at least its rank), M bytes of
 *      metadata (JSON: how the network was made), u32 CRC-32 of the header so far; then the payload.
 * Sparse stream: varint R, R runs (varint zeros, varint n) covering every weight, then the values' bytes by
 * plane (all low bytes, then all next bytes...), little-endian.
 *
 * Reading a file that is truncated, corrupt, of another version or of a shape the engine does not know throws
 * a NetworkFormatError that says which: a network is never half read.
 */
import { unzlibSync, zlibSync } from 'fflate';
import { crc32 } from './crc32';
import { SHAPE_TUPLES, shapeOfTuples, weightCount } from './shapes';
import type { ShapeName } from './shapes';

const NETWORK_MAGIC = '2048-NTN';
const NETWORK_VERSION = 1;
const FIXED_HEADER = 32;
/** Largest metadata accepted (a made file holds a few hundred bytes). */
const MAX_METADATA = 16384;

export type WeightEncoding = 'f32' | 'i16';
const ENCODINGS: readonly WeightEncoding[] = ['f32', 'i16'];

/** How a network was made (training command, seed, episodes...): strings and numbers only. */
type NetworkMetadata = Readonly<Record<string, string | number>>;

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

/**
 * The i16 encoding of f32 weights: the largest weight maps to 2^(bits-1) - 1 (32 767 with the default 16
 * bits), each rounded to the nearest step. Fewer bits, coarser steps: a smaller file (fewer distinct values
 * compress better), at a cost in strength to measure.
 */
export function quantise(weights: Float32Array, bits = 16): { weights: Int16Array; scale: number } {
  if (!Number.isInteger(bits) || bits < 2 || bits > 16) throw new RangeError(`quantise: bits must be 2..16, got ${bits}`);
  let largest = 0;
  for (let i = 0; i < weights.length; i++) largest = Math.max(largest, Math.abs(weights[i]));
  const scale = largest > 0 ? Math.fround(largest / (2 ** (bits - 1) - 1)) : 1;
  const out = new Int16Array(weights.length);
  for (let i = 0; i < weights.length; i++) out[i] = Math.max(-32767, Math.min(32767, Math.round(weights[i] / scale)));
  return { weights: out, scale };
}

// ---- sparse stream ----
// The runs come first, then the values' bytes one plane at a time (every value's low byte, then every value's
// next byte...): a plane of high bytes is mostly 0x00 and 0xff and compresses far better on its own.

function varintLength(value: number): number {
  let n = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 128)) n++;
  return n;
}

function sparseStream(weights: Float32Array | Int16Array): Uint8Array {
  const n = weights.length;
  const runs: number[] = [];
  let values = 0;
  for (let i = 0; i < n; ) {
    const zerosFrom = i;
    while (i < n && weights[i] === 0) i++;
    const valuesFrom = i;
    while (i < n && weights[i] !== 0) i++;
    runs.push(valuesFrom - zerosFrom, i - valuesFrom);
    values += i - valuesFrom;
  }
  const width = weights.BYTES_PER_ELEMENT;
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
  const bytes = new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength);
  for (let plane = 0; plane < width; plane++) {
    let k = runBytes + plane * values;
    for (let i = 0; i < n; i++) if (weights[i] !== 0) out[k++] = bytes[i * width + plane];
  }
  return out;
}

function readSparse(stream: Uint8Array, encoding: WeightEncoding, count: number): Float32Array | Int16Array {
  const weights = encoding === 'i16' ? new Int16Array(count) : new Float32Array(count);
  const width = weights.BYTES_PER_ELEMENT;
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
    i += varint();
    const n = varint();
    if (i + n > count) throw new NetworkFormatError('the network file is corrupt (its weights overrun the network)');
    starts[r] = i;
    lengths[r] = n;
    i += n;
    values += n;
  }
  if (i !== count || at + values * width !== stream.length) throw new NetworkFormatError('the network file is corrupt (its weights do not fill the network)');
  if (weights instanceof Int16Array) {
    // Both planes at once: the low byte, and the high byte shifted in (the Int16Array wraps it to a sign).
    let low = at;
    let high = at + values;
    for (let r = 0; r < runCount; r++) {
      const end = starts[r] + lengths[r];
      for (let w = starts[r]; w < end; w++) weights[w] = stream[low++] | (stream[high++] << 8);
    }
    return weights;
  }
  const bytes = new Uint8Array(weights.buffer);
  for (let plane = 0; plane < width; plane++) {
    let k = at + plane * values;
    for (let r = 0; r < runCount; r++) {
      const end = (starts[r] + lengths[r]) * width + plane;
      for (let b = starts[r] * width + plane; b < end; b += width) bytes[b] = stream[k++];
    }
  }
  return weights;
}

// ---- the file ----

/** A zlib compressor: the default is fflate's (pure JS); Node's native zlib is much faster for 4x6 networks. */
export type Compress = (bytes: Uint8Array) => Uint8Array;
/** A zlib decompressor (see decodeNetworkAsync for the browser's native one). */
export type Decompress = (bytes: Uint8Array) => Uint8Array;

const fflateCompress: Compress = (bytes) => zlibSync(bytes, { level: 6 });
const fflateDecompress: Decompress = (bytes) => unzlibSync(bytes);

export function encodeNetwork(network: Network, compress: Compress = fflateCompress): Uint8Array {
  const tuples = SHAPE_TUPLES[network.shape];
  const count = weightCount(network.shape);
  if (network.weights.length !== count) throw new RangeError(`a ${network.shape} network has ${count} weights, got ${network.weights.length}`);
  if ((network.encoding === 'i16') !== network.weights instanceof Int16Array) throw new RangeError(`weights do not match the encoding ${network.encoding}`);
  const metadata = new TextEncoder().encode(JSON.stringify(network.metadata));
  if (metadata.length > MAX_METADATA) throw new RangeError(`network metadata over ${MAX_METADATA} bytes`);
  const stream = sparseStream(network.weights);
  const payload = compress(stream);
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

interface ParsedHeader {
  readonly shape: Network['shape'];
  readonly encoding: WeightEncoding;
  readonly scale: number;
  readonly count: number;
  readonly metadata: NetworkMetadata;
  readonly payload: Uint8Array;
  readonly streamCrc: number;
}

/** What a network file holds, from its header alone (nothing decoded); a bad header throws as decodeNetwork does. */
export function describeNetworkFile(file: Uint8Array): Omit<Network, 'weights'> {
  const { shape, encoding, scale, metadata } = parseHeader(file);
  return { shape, encoding, scale, metadata };
}

/** Read a network file (synchronously; see decodeNetworkAsync). */
export function decodeNetwork(file: Uint8Array, decompress: Decompress = fflateDecompress): Network {
  const header = parseHeader(file);
  return networkOf(header, inflatePayload(header, decompress));
}

/** An asynchronous zlib decompressor, e.g. the browser's native DecompressionStream (src/solver/network-loader.ts). */
export type DecompressAsync = (bytes: Uint8Array) => Promise<Uint8Array>;

/** Read a network file with an asynchronous decompressor (a native one is several times faster for 4x6). */
export async function decodeNetworkAsync(file: Uint8Array, decompress: DecompressAsync): Promise<Network> {
  const header = parseHeader(file);
  let stream: Uint8Array;
  try {
    stream = await decompress(header.payload);
  } catch (error) {
    throw new NetworkFormatError(`the network file is corrupt (its weights do not decompress: ${error instanceof Error ? error.message : String(error)})`);
  }
  return networkOf(header, stream);
}

function inflatePayload(header: ParsedHeader, decompress: Decompress): Uint8Array {
  try {
    return decompress(header.payload);
  } catch (error) {
    throw new NetworkFormatError(`the network file is corrupt (its weights do not decompress: ${error instanceof Error ? error.message : String(error)})`);
  }
}

function networkOf(header: ParsedHeader, stream: Uint8Array): Network {
  if (crc32(stream) !== header.streamCrc) throw new NetworkFormatError('the network file is corrupt (weights checksum mismatch)');
  const { shape, encoding, scale, metadata } = header;
  return { shape, encoding, scale, weights: readSparse(stream, encoding, header.count), metadata };
}

function parseHeader(file: Uint8Array): ParsedHeader {
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
  return {
    shape,
    encoding,
    scale: encoding === 'i16' ? scale : 1,
    count,
    metadata,
    payload: file.subarray(payloadStart, payloadStart + payloadLength),
    streamCrc: view.getUint32(28, true),
  };
}
