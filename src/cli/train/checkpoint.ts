/**
 * Trainer checkpoints: everything needed to resume after a kill — the weights (and TC's sums), each thread's
 * random state and restart board, the counters and the recent games — written atomically (to FILE.tmp, then
 * renamed over FILE), so a kill mid-write leaves the previous checkpoint whole. Not a network file: a
 * checkpoint is several times larger and exact f32; the trainer writes the network (../../engine/network) beside it.
 *
 * Layout: "2048CKPT", u32 version, u32 header bytes H, H bytes of JSON (CheckpointHeader), zero padding to 8,
 * the weight region (header.regionBytes), then 16 bytes per thread (random state u64, restart board u64).
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';

const MAGIC = '2048CKPT';
const VERSION = 1;
/** Bytes copied out of the shared memory at a time. */
const SLICE = 64 << 20;
export const THREAD_STATE_BYTES = 16;

export interface CheckpointHeader {
  readonly shape: string;
  readonly coherence: boolean;
  readonly threads: number;
  readonly episodes: number;
  readonly moves: number;
  readonly seconds: number;
  readonly regionBytes: number;
  /** The last games: [score, moves, largest rank] each. */
  readonly recent: readonly (readonly [number, number, number])[];
  /** Each run that trained this network: its command line and how many episodes it ended at. */
  readonly runs: readonly { readonly command: string; readonly seed: number; readonly until: number }[];
  /** The stages' ranks ([0]: one stage; absent in checkpoints of one stage written before stages). */
  readonly stages?: readonly number[];
  readonly lateRestarts?: number;
  /** The runs before the network file this run went on from (its metadata's commands). */
  readonly earlier?: string;
}

export interface MemoryRegion {
  readonly memory: WebAssembly.Memory;
  readonly offset: number;
  readonly bytes: number;
}

function headerBytes(header: CheckpointHeader): { prefix: Uint8Array; padded: number } {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil((16 + json.length) / 8) * 8;
  const prefix = new Uint8Array(padded);
  for (let i = 0; i < 8; i++) prefix[i] = MAGIC.charCodeAt(i);
  const view = new DataView(prefix.buffer);
  view.setUint32(8, VERSION, true);
  view.setUint32(12, json.length, true);
  prefix.set(json, 16);
  return { prefix, padded };
}

function writeRegion(fd: number, region: MemoryRegion): void {
  const buffer = Buffer.allocUnsafe(Math.min(SLICE, region.bytes));
  for (let done = 0; done < region.bytes; ) {
    const n = Math.min(SLICE, region.bytes - done);
    buffer.set(new Uint8Array(region.memory.buffer, region.offset + done, n));
    writeSync(fd, buffer, 0, n);
    done += n;
  }
}

/** Write the checkpoint to `file` atomically: the weight region, then each thread's state region. */
export function writeCheckpoint(file: string, header: CheckpointHeader, weights: MemoryRegion, threadStates: readonly MemoryRegion[]): void {
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, headerBytes(header).prefix);
    writeRegion(fd, weights);
    for (const state of threadStates) writeRegion(fd, state);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

/** Read a checkpoint's header (validated), with the file offset where its weight region starts. */
export function readCheckpointHeader(file: string): { header: CheckpointHeader; dataOffset: number } {
  const fd = openSync(file, 'r');
  try {
    const fixed = Buffer.alloc(16);
    if (readSync(fd, fixed, 0, 16, 0) < 16 || fixed.toString('latin1', 0, 8) !== MAGIC) throw new CheckpointError(`${file} is not a trainer checkpoint`);
    if (fixed.readUInt32LE(8) !== VERSION) throw new CheckpointError(`${file}: checkpoint version ${fixed.readUInt32LE(8)}, this trainer reads ${VERSION}`);
    const length = fixed.readUInt32LE(12);
    const json = Buffer.alloc(length);
    if (readSync(fd, json, 0, length, 16) < length) throw new CheckpointError(`${file} is truncated (in its header)`);
    let header: CheckpointHeader;
    try {
      header = JSON.parse(json.toString('utf8')) as CheckpointHeader;
    } catch {
      throw new CheckpointError(`${file}: the checkpoint's header is not valid JSON`);
    }
    if (typeof header.shape !== 'string' || typeof header.regionBytes !== 'number' || typeof header.threads !== 'number' || !Array.isArray(header.recent) || !Array.isArray(header.runs)) {
      throw new CheckpointError(`${file}: the checkpoint's header is incomplete`);
    }
    const dataOffset = Math.ceil((16 + length) / 8) * 8;
    const expected = dataOffset + header.regionBytes + header.threads * THREAD_STATE_BYTES;
    const size = statSync(file).size;
    if (size !== expected) throw new CheckpointError(`${file} is ${size} bytes, its header says ${expected}: truncated or corrupt`);
    return { header, dataOffset };
  } finally {
    closeSync(fd);
  }
}

/** Copy `bytes` bytes of `file` from `position` into the shared memory at `offset`. */
export function readIntoMemory(file: string, position: number, region: MemoryRegion): void {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(Math.min(SLICE, region.bytes));
    for (let done = 0; done < region.bytes; ) {
      const n = Math.min(SLICE, region.bytes - done);
      if (readSync(fd, buffer, 0, n, position + done) < n) throw new CheckpointError(`${file} ended early`);
      new Uint8Array(region.memory.buffer, region.offset + done, n).set(buffer.subarray(0, n));
      done += n;
    }
  } finally {
    closeSync(fd);
  }
}
