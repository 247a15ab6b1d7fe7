/**
 * A built endgame table and its lookup on real boards (8 orientations).
 * Entry byte: best canonical move << 6 | round(63 · success probability); absent chunks read as 0.
 */
import type { Direction, Grid } from '../types';
import type { TableSpec } from './formation';
import { ORIENTATIONS, REAL_DIRECTIONS, freeRanksIfFits, indexOf, layoutOf } from './formation';
import type { Layout } from './formation';

export const ABSENT_CHUNK = 0xffffffff;

export interface EndgameTable {
  readonly spec: TableSpec;
  /** Per chunk: its number among the allocated chunks, or ABSENT_CHUNK. */
  readonly directory: Uint32Array;
  readonly entries: Uint8Array;
}

export interface TableHit {
  readonly move: Direction;
  /** Success probability (quantized to 1/63). */
  readonly probability: number;
  readonly spec: TableSpec;
  readonly orientation: number;
}

export function entryAt(table: EndgameTable, layout: Layout, chunk: number, offset: number): number {
  const base = table.directory[chunk];
  if (base === undefined || base === ABSENT_CHUNK) return 0;
  return table.entries[base * layout.chunkSize + offset] ?? 0;
}

/** Ranks (log2, 0 = empty) of a 4x4 grid, or null when a tile is not a power of two. */
function ranksOfGrid(grid: Grid): number[] | null {
  if (grid.rows !== 4 || grid.cols !== 4) return null;
  const ranks: number[] = [];
  for (const v of grid.cells) {
    if (v === 0) ranks.push(0);
    else {
      const r = Math.log2(v);
      if (!Number.isInteger(r) || r < 1) return null;
      ranks.push(r);
    }
  }
  return ranks;
}

const layouts = new WeakMap<EndgameTable, Layout>();

/** The best hit over the tables and the 8 orientations, or null when no table fits the board. */
export function lookup(tables: readonly EndgameTable[], grid: Grid): TableHit | null {
  const ranks = ranksOfGrid(grid);
  if (!ranks) return null;
  let best: TableHit | null = null;
  for (const table of tables) {
    let layout = layouts.get(table);
    if (!layout) {
      layout = layoutOf(table.spec);
      layouts.set(table, layout);
    }
    for (let t = 0; t < 8; t++) {
      const map = ORIENTATIONS[t]!;
      const canonical = map.map((cell) => ranks[cell]!);
      const free = freeRanksIfFits(table.spec, canonical);
      if (!free) continue;
      const index = indexOf(table.spec, layout, free);
      if (!index) continue;
      const entry = entryAt(table, layout, index.chunk, index.offset);
      const probability = (entry & 63) / 63;
      if (probability === 0) continue;
      if (!best || probability > best.probability) {
        best = { move: REAL_DIRECTIONS[t]![entry >> 6]!, probability, spec: table.spec, orientation: t };
      }
    }
  }
  return best;
}
