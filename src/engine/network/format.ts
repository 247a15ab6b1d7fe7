/**
 * The network file (docs: engine.md, "The network file"): a versioned, checksummed header, then each stage's
 * weights as a sparse stream (./packing.ts) compressed with zlib (RFC 1950: deflate and a checksum).
 *
 *   0  "2048-NTN"                     8  u16 version            10 u8 encoding (0 f32, 1 i16)
 *   11 u8 tuples T                    12 u8 cells per tuple C   13 u8 stages S
 *   14 u16 metadata bytes M           16 f32 scale (i16: value = integer x scale)
 *   20 u32 payload bytes              24 u32 weights per stage (T x 16^C)
 *   28 u32 CRC-32 of the sparse stream (version 1) or of the stage table (version 2)
 *   32 T x C cells, S stage ranks (stage s plays boards whose largest rank is at least its rank), M bytes of
 *      metadata (JSON: how the network was made), u32 CRC-32 of the header so far; then the payload.
 * Payload, version 2: the stage table (S x u32 compressed bytes, u32 CRC-32 of the stage's sparse stream), then
 * each stage's zlib stream in turn. Version 1 (one stage, read only): one zlib stream.
 *
 * Reading a file that is truncated, corrupt, of another version or of a shape the engine does not know throws
 * a NetworkFormatError that says which: a network is never half read.
 */
import { unzlibSync, zlibSync } from 'fflate';
import { crc32 } from './crc32';
import { NetworkFormatError } from './format-error';
import { packStage, unpackStage, unpackVersion1, unreadEntriesFilled } from './packing';
import type { Weights } from './packing';
import { SHAPE_TUPLES, shapeOfTuples, tableSize, weightCount } from './shapes';
import type { ShapeName } from './shapes';

export { NetworkFormatError } from './format-error';

const NETWORK_MAGIC = '2048-NTN';
/** The version written; version 1 (one stage) is still read. */
const NETWORK_VERSION = 2;
/** Most stages a file may hold (the core keeps a threshold for each). */
export const MAX_STAGES = 8;
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
  /**
   * The largest rank from which each stage plays: stage s values the boards whose largest rank is at least
   * stages[s] (and below stages[s + 1]); stages[0] is 0, ascending. One stage: [0].
   */
  readonly stages: readonly number[];
  /** Weights, stage-major (stage s at s x weightCount(shape)), each stage tuple-major (tuple k's table at k x 16^C). */
  readonly weights: Weights;
  readonly metadata: NetworkMetadata;
}

/**
 * The i16 encoding of f32 weights: the largest weight maps to 2^(bits-1) - 1 (16 383 at the trainer's default 15
 * bits, 32 767 at 16), each rounded to the nearest step. Fewer bits, coarser steps: a smaller file (fewer distinct values
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

// ---- the file ----

/** A zlib compressor: the default is fflate's (pure JS); Node's native zlib is much faster for 4x6 networks. */
export type Compress = (bytes: Uint8Array) => Uint8Array;
/** A zlib decompressor (see decodeNetworkAsync for the browser's native one). */
export type Decompress = (bytes: Uint8Array) => Uint8Array;
/** An asynchronous zlib decompressor, e.g. the browser's native DecompressionStream (src/solver/network-loader.ts). */
export type DecompressAsync = (bytes: Uint8Array) => Promise<Uint8Array>;

const fflateCompress: Compress = (bytes) => zlibSync(bytes, { level: 6 });
const fflateDecompress: Decompress = (bytes) => unzlibSync(bytes);

/** Why `stages` cannot be a network's stages, or null. */
function stagesProblem(stages: readonly number[]): string | null {
  if (stages.length < 1 || stages.length > MAX_STAGES) return `a network has 1 to ${MAX_STAGES} stages, not ${stages.length}`;
  if (stages[0] !== 0) return `its first stage must start at rank 0, not ${stages[0]}`;
  for (let s = 1; s < stages.length; s++) {
    if (!Number.isInteger(stages[s]) || stages[s] <= stages[s - 1] || stages[s] > 15) return `its stages ${JSON.stringify(stages)} are not ascending ranks of 0 to 15`;
  }
  return null;
}

/**
 * Write `network` as a file of the current version. Every entry a stage can never read (unreadEntriesFilled)
 * is written as the next stage's: the file reads back the same network in play, not always the same array.
 */
export function encodeNetwork(network: Network, compress: Compress = fflateCompress): Uint8Array {
  const tuples = SHAPE_TUPLES[network.shape];
  const count = weightCount(network.shape);
  const stages = network.stages;
  const problem = stagesProblem(stages);
  if (problem) throw new RangeError(`cannot write the network: ${problem}`);
  if (network.weights.length !== count * stages.length) {
    throw new RangeError(`a ${network.shape} network of ${stages.length} stage(s) has ${count * stages.length} weights, got ${network.weights.length}`);
  }
  if ((network.encoding === 'i16') !== network.weights instanceof Int16Array) throw new RangeError(`weights do not match the encoding ${network.encoding}`);
  const metadata = new TextEncoder().encode(JSON.stringify(network.metadata));
  if (metadata.length > MAX_METADATA) throw new RangeError(`network metadata over ${MAX_METADATA} bytes`);
  const filled = stages.length > 1 ? unreadEntriesFilled(network.weights, stages, count, tableSize(network.shape)) : network.weights;
  const table = new Uint8Array(8 * stages.length);
  const tableView = new DataView(table.buffer);
  const parts: Uint8Array[] = [table];
  let payloadLength = table.length;
  for (let s = 0; s < stages.length; s++) {
    const stream = packStage(filled, s, count);
    const compressed = compress(stream);
    tableView.setUint32(8 * s, compressed.length, true);
    tableView.setUint32(8 * s + 4, crc32(stream), true);
    parts.push(compressed);
    payloadLength += compressed.length;
  }
  const cells = tuples.flat();
  const headerLength = FIXED_HEADER + cells.length + stages.length + metadata.length;
  const file = new Uint8Array(headerLength + 4 + payloadLength);
  const view = new DataView(file.buffer);
  for (let i = 0; i < 8; i++) file[i] = NETWORK_MAGIC.charCodeAt(i);
  view.setUint16(8, NETWORK_VERSION, true);
  file[10] = ENCODINGS.indexOf(network.encoding);
  file[11] = tuples.length;
  file[12] = tuples[0].length;
  file[13] = stages.length;
  view.setUint16(14, metadata.length, true);
  view.setFloat32(16, network.encoding === 'i16' ? network.scale : 1, true);
  view.setUint32(20, payloadLength, true);
  view.setUint32(24, count, true);
  view.setUint32(28, crc32(table), true);
  file.set(cells, FIXED_HEADER);
  file.set(stages, FIXED_HEADER + cells.length);
  file.set(metadata, FIXED_HEADER + cells.length + stages.length);
  view.setUint32(headerLength, crc32(file, 0, headerLength), true);
  let at = headerLength + 4;
  for (const part of parts) {
    file.set(part, at);
    at += part.length;
  }
  return file;
}

/** What describes a network apart from its weights. */
export type NetworkDescriptor = Omit<Network, 'weights'>;

interface ParsedHeader extends NetworkDescriptor {
  readonly version: number;
  /** Weights per stage. */
  readonly count: number;
  /** Each stage's zlib stream (version 1: the one) and the CRC-32 of what it inflates to. */
  readonly parts: readonly { readonly bytes: Uint8Array; readonly crc: number }[];
}

/** What a network file holds, from its header alone (nothing decoded); a bad header throws as decodeNetwork does. */
export function describeNetworkFile(file: Uint8Array): NetworkDescriptor {
  const { shape, encoding, scale, stages, metadata } = parseHeader(file);
  return { shape, encoding, scale, stages, metadata };
}

/** Where decoding writes the weights: a new array by default, or `into` (e.g. a view of a shared memory). */
export interface DecodeOptions {
  /** stages x weightCount weights of the file's encoding to fill (the network returned holds it). */
  readonly into?: Weights;
}

/** Read a network file (synchronously; see decodeNetworkAsync). */
export function decodeNetwork(file: Uint8Array, decompress: Decompress = fflateDecompress, options: DecodeOptions = {}): Network {
  const header = parseHeader(file);
  const weights = target(header, options.into);
  header.parts.forEach((part, s) => fillStage(header, weights, s, inflate(() => decompress(part.bytes))));
  return networkOf(header, weights);
}

/**
 * Read a network file with an asynchronous decompressor (a native one is several times faster for 4x6), one
 * stage at a time: no more than one stage's inflated stream is held at once.
 */
export async function decodeNetworkAsync(file: Uint8Array, decompress: DecompressAsync, options: DecodeOptions = {}): Promise<Network> {
  const header = parseHeader(file);
  const weights = target(header, options.into);
  for (let s = 0; s < header.parts.length; s++) {
    const bytes = header.parts[s].bytes;
    fillStage(header, weights, s, await inflate(() => decompress(bytes)));
  }
  return networkOf(header, weights);
}

function target(header: ParsedHeader, into: Weights | undefined): Weights {
  const length = header.count * header.stages.length;
  if (!into) return header.encoding === 'i16' ? new Int16Array(length) : new Float32Array(length);
  if (into.length !== length || (header.encoding === 'i16') !== into instanceof Int16Array) {
    throw new RangeError(`the weights to decode into hold ${into.length} ${into instanceof Int16Array ? 'i16' : 'f32'}; the network needs ${length} ${header.encoding}`);
  }
  return into;
}

function inflate<T extends Uint8Array | Promise<Uint8Array>>(run: () => T): T {
  const failed = (error: unknown): never => {
    throw new NetworkFormatError(`the network file is corrupt (its weights do not decompress: ${error instanceof Error ? error.message : String(error)})`);
  };
  try {
    const out = run();
    return (out instanceof Promise ? out.catch(failed) : out) as T;
  } catch (error) {
    return failed(error);
  }
}

function fillStage(header: ParsedHeader, weights: Weights, s: number, stream: Uint8Array): void {
  if (crc32(stream) !== header.parts[s].crc) throw new NetworkFormatError('the network file is corrupt (weights checksum mismatch)');
  if (header.version === 1) unpackVersion1(stream, weights);
  else unpackStage(stream, weights, s, header.count);
}

function networkOf(header: ParsedHeader, weights: Weights): Network {
  const { shape, encoding, scale, stages, metadata } = header;
  return { shape, encoding, scale, stages, weights, metadata };
}

function parseHeader(file: Uint8Array): ParsedHeader {
  const fail = (why: string): never => {
    throw new NetworkFormatError(why);
  };
  if (file.length < FIXED_HEADER) fail(`not a network file: ${file.length} bytes, shorter than the header`);
  for (let i = 0; i < 8; i++) if (file[i] !== NETWORK_MAGIC.charCodeAt(i)) fail('not a 2048 Autopilot network file (its first bytes are not "2048-NTN")');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const version = view.getUint16(8, true);
  if (version !== 1 && version !== NETWORK_VERSION) fail(`network file version ${version}; this build reads versions 1 and ${NETWORK_VERSION}`);
  const encoding = ENCODINGS[file[10]] ?? fail(`unknown weight encoding ${file[10]}`);
  const tupleCount = file[11];
  const cellsPerTuple = file[12];
  const stageCount = file[13];
  const metadataLength = view.getUint16(14, true);
  const stagesAt = FIXED_HEADER + tupleCount * cellsPerTuple;
  const headerLength = stagesAt + stageCount + metadataLength;
  if (file.length < headerLength + 4) fail(`the network file is truncated (${file.length} bytes, its header needs ${headerLength + 4})`);
  if (crc32(file, 0, headerLength) !== view.getUint32(headerLength, true)) fail('the network file is corrupt (header checksum mismatch)');
  const tuples: number[][] = [];
  for (let t = 0; t < tupleCount; t++) tuples.push(Array.from(file.subarray(FIXED_HEADER + t * cellsPerTuple, FIXED_HEADER + (t + 1) * cellsPerTuple)));
  const shape = shapeOfTuples(tuples) ?? fail(`the network's tuples ${JSON.stringify(tuples)} are not a shape this build knows`);
  const stages = Array.from(file.subarray(stagesAt, stagesAt + stageCount));
  const problem = stagesProblem(stages);
  if (problem) fail(`the network file is corrupt (${problem})`);
  if (version === 1 && stageCount !== 1) fail(`the network file is corrupt (version 1 holds one stage, not ${stageCount})`);
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
  const payload = file.subarray(payloadStart, payloadStart + payloadLength);
  return { version, shape, encoding, scale: encoding === 'i16' ? scale : 1, stages, metadata, count, parts: payloadParts(version, payload, stageCount, view.getUint32(28, true)) };
}

/** The zlib stream of each stage in `payload`, checked against the stage table's checksum (version 2). */
function payloadParts(version: number, payload: Uint8Array, stageCount: number, crc: number): ParsedHeader['parts'] {
  if (version === 1) return [{ bytes: payload, crc }];
  const tableLength = 8 * stageCount;
  if (payload.length < tableLength || crc32(payload, 0, tableLength) !== crc) throw new NetworkFormatError('the network file is corrupt (stage table checksum mismatch)');
  const view = new DataView(payload.buffer, payload.byteOffset, tableLength);
  const parts: { bytes: Uint8Array; crc: number }[] = [];
  let at = tableLength;
  for (let s = 0; s < stageCount; s++) {
    const length = view.getUint32(8 * s, true);
    if (at + length > payload.length) throw new NetworkFormatError('the network file is corrupt (its stages overrun the payload)');
    parts.push({ bytes: payload.subarray(at, at + length), crc: view.getUint32(8 * s + 4, true) });
    at += length;
  }
  if (at !== payload.length) throw new NetworkFormatError('the network file is corrupt (its stages do not fill the payload)');
  return parts;
}
