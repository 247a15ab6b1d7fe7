/**
 * The stored form of an endgame table (a disk cache in the CLI, IndexedDB in the extension): a header,
 * the chunk directory and the entries, with a checksum over all of it. parseTable never trusts a store:
 * a wrong magic, version, spec, size or checksum is an error (the caller rebuilds).
 *
 * Layout (little endian): "2048EGT\0" · u32 version · u32 formation index · u32 goal · u32 maxSum ·
 * u32 chunk count · u32 entry count · u32 FNV-1a checksum of everything after the header · directory
 * (u32 per chunk) · entries (1 byte each).
 */
import { FORMATION_NAMES, layoutOf } from './formation';
import type { TableSpec } from './formation';
import { ABSENT_CHUNK } from './table';
import type { EndgameTable } from './table';

const TABLE_FORMAT_VERSION = 1;
const MAGIC = [0x32, 0x30, 0x34, 0x38, 0x45, 0x47, 0x54, 0x00];
const HEADER_BYTES = 8 + 7 * 4;

/** The name a stored table goes by (a file name in the CLI, a key in IndexedDB): spec and format version. */
export function tableKey(spec: TableSpec): string {
  return `${spec.formation}-goal${2 ** spec.goal}-sum${spec.maxSum}-v${TABLE_FORMAT_VERSION}`;
}

export class TableStoreError extends Error {
  override name = 'TableStoreError';
}

function fnv1a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function checksum(directory: Uint32Array, entries: Uint8Array): number {
  const dirBytes = new Uint8Array(directory.buffer, directory.byteOffset, directory.byteLength);
  return fnv1a(entries, fnv1a(dirBytes));
}

export function serializeTable(table: EndgameTable): Uint8Array {
  const { spec, directory, entries } = table;
  const out = new Uint8Array(HEADER_BYTES + directory.byteLength + entries.length);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  const header = [TABLE_FORMAT_VERSION, FORMATION_NAMES.indexOf(spec.formation), spec.goal, spec.maxSum,
    directory.length, entries.length, checksum(directory, entries)];
  header.forEach((value, i) => view.setUint32(8 + 4 * i, value, true));
  for (let i = 0; i < directory.length; i++) view.setUint32(HEADER_BYTES + 4 * i, directory[i]!, true);
  out.set(entries, HEADER_BYTES + directory.byteLength);
  return out;
}

/** The table in `bytes`, checked against the expected spec. Throws TableStoreError when anything is off. */
export function parseTable(bytes: Uint8Array, expected: TableSpec): EndgameTable {
  if (bytes.length < HEADER_BYTES || MAGIC.some((b, i) => bytes[i] !== b)) throw new TableStoreError('not an endgame table (bad magic)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (i: number): number => view.getUint32(8 + 4 * i, true);
  const [version, formation, goal, maxSum, chunks, count, sum] = [0, 1, 2, 3, 4, 5, 6].map(u32) as [number, number, number, number, number, number, number];
  if (version !== TABLE_FORMAT_VERSION) throw new TableStoreError(`table format version ${version}, expected ${TABLE_FORMAT_VERSION}`);
  if (FORMATION_NAMES[formation] !== expected.formation || goal !== expected.goal || maxSum !== expected.maxSum) {
    throw new TableStoreError('the stored table is for another formation, goal or bound');
  }
  const layout = layoutOf(expected);
  if (chunks !== layout.chunkCount || bytes.length !== HEADER_BYTES + 4 * chunks + count) {
    throw new TableStoreError('the stored table is truncated or has the wrong size');
  }
  const directory = new Uint32Array(chunks);
  for (let i = 0; i < chunks; i++) directory[i] = view.getUint32(HEADER_BYTES + 4 * i, true);
  const entries = bytes.slice(HEADER_BYTES + 4 * chunks);
  if (checksum(directory, entries) !== sum) throw new TableStoreError('the stored table is corrupt (checksum)');
  const allocated = directory.reduce((n, base) => (base === ABSENT_CHUNK ? n : n + 1), 0);
  if (allocated * layout.chunkSize !== count || directory.some((base) => base !== ABSENT_CHUNK && base >= allocated)) {
    throw new TableStoreError('the stored table directory is inconsistent');
  }
  return { spec: expected, directory, entries };
}
