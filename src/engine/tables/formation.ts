/**
 * Endgame-table formations (docs: engine.md, "Endgame tables"): which cells of the 4x4 board hold the fixed big tiles, where the
 * next tile is built, how a table is indexed, and how a real board is looked up in the 8 orientations.
 *
 * Canonical frame: cell i = row-major index (row i >> 2, column i & 3). A formation lists its fixed cells
 * along its snake, the last of them the anchor (the smallest big tile, which the built tile merges into:
 * anchorOf), the goal cells (free cells next to the anchor) and the free cells in index-digit order. For
 * goal rank G every free cell is capped at G - 1 (a G anywhere but a goal cell is a dead end in the small game).
 *
 * Pure TypeScript, no DOM.
 */
import type { Direction } from '../types';

export const FORMATION_NAMES = ['rows8', 'block6', 'tiny3', 'tiny4'] as const;
export type FormationName = (typeof FORMATION_NAMES)[number];

export interface Formation {
  readonly name: FormationName;
  readonly description: string;
  /** The fixed cells along the snake, from the corner (the biggest tile) to the anchor, the last. */
  readonly fixed: readonly number[];
  /** Free cells in index-digit order (the first `chunkCells` form the offset within a chunk). */
  readonly free: readonly number[];
  readonly goalCells: readonly number[];
  readonly chunkCells: number;
}

export const FORMATIONS: Readonly<Record<FormationName, Formation>> = {
  // The two rows along an edge hold the 8 biggest tiles (a snake: row 0 left to right, row 1 back), the
  // anchor (smallest) at (1, 0); the next tile is built in the other 8 cells, the goal cell is (2, 0).
  rows8: {
    name: 'rows8',
    description: 'the 8 biggest tiles fill the two rows along an edge; the next tile is built below the anchor',
    fixed: [0, 1, 2, 3, 7, 6, 5, 4],
    free: [12, 13, 14, 15, 8, 9, 10, 11],
    goalCells: [8],
    chunkCells: 2,
  },
  // Six big tiles in a 3x2 corner block (snake 0 1 2 / 6 5 4), the anchor at (1, 0); ten free cells.
  block6: {
    name: 'block6',
    description: 'the 6 biggest tiles fill a 3x2 corner block; the next tile is built below the anchor',
    fixed: [0, 1, 2, 6, 5, 4],
    free: [12, 13, 14, 15, 3, 7, 8, 9, 10, 11],
    goalCells: [8],
    chunkCells: 3,
  },
  // A tiny formation for tests: 13 fixed cells, the anchor at (3, 0), the other 3 cells of the bottom row free.
  tiny3: {
    name: 'tiny3',
    description: 'tests: 3 free cells in the bottom row, the goal at (3, 1)',
    fixed: [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 12],
    free: [13, 14, 15],
    goalCells: [13],
    chunkCells: 1,
  },
  // A tiny 2-D formation for tests: the bottom-right 2x2 block free, the anchor at (2, 1).
  tiny4: {
    name: 'tiny4',
    description: 'tests: the bottom-right 2x2 block free, the goal at (2, 2)',
    fixed: [0, 1, 2, 3, 7, 6, 5, 4, 8, 12, 13, 9],
    free: [10, 11, 14, 15],
    goalCells: [10],
    chunkCells: 2,
  },
};

/** The anchor: the last fixed cell (the smallest big tile, which the tile built beside it merges into). */
export function anchorOf(formation: Formation): number {
  return formation.fixed[formation.fixed.length - 1]!;
}

/** One table: a formation built for goal rank `goal` (the anchor's rank), free tiles summing to ≤ maxSum. */
export interface TableSpec {
  readonly formation: FormationName;
  readonly goal: number;
  readonly maxSum: number;
}

export function capsOf(spec: TableSpec): number[] {
  return FORMATIONS[spec.formation].free.map(() => spec.goal - 1);
}

/** The largest sum the free cells can hold: with this bound a table is exact outright. */
export function fullSum(spec: TableSpec): number {
  return capsOf(spec).reduce((sum, cap) => sum + 2 ** cap, 0);
}

/** The exact table of a formation for goal rank `goal` (maxSum at its full bound). */
function exactSpec(formation: FormationName, goal: number): TableSpec {
  return { formation, goal, maxSum: fullSum({ formation, goal, maxSum: 0 }) };
}

/** The tables the CLI and the extension build: rows8 for anchors 32..512 and block6 for 32 and 64, all exact (102 MiB). */
export const STANDARD_TABLE_SPECS: readonly TableSpec[] = [
  exactSpec('rows8', 5),
  exactSpec('rows8', 6),
  exactSpec('rows8', 7),
  exactSpec('rows8', 8),
  exactSpec('rows8', 9),
  exactSpec('block6', 5),
  exactSpec('block6', 6),
];

export interface Layout {
  readonly chunkSize: number;
  readonly chunkCount: number;
  /** Index weight of each free cell's digit (within the chunk or of the chunk number). */
  readonly weights: readonly number[];
}

export function layoutOf(spec: TableSpec): Layout {
  const formation = FORMATIONS[spec.formation];
  const caps = capsOf(spec);
  let chunkSize = 1;
  let chunkCount = 1;
  const weights = caps.map((cap, i) => {
    if (i < formation.chunkCells) {
      const w = chunkSize;
      chunkSize *= cap + 1;
      return w;
    }
    const w = chunkCount;
    chunkCount *= cap + 1;
    return w;
  });
  return { chunkSize, chunkCount, weights };
}

/** (chunk, offset) of the free cells' ranks, or null when a rank is over its cap. */
export function indexOf(spec: TableSpec, layout: Layout, ranks: readonly number[]): { chunk: number; offset: number } | null {
  const formation = FORMATIONS[spec.formation];
  let chunk = 0;
  let offset = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i]!;
    if (r < 0 || r > spec.goal - 1) return null;
    if (i < formation.chunkCells) offset += r * layout.weights[i]!;
    else chunk += r * layout.weights[i]!;
  }
  return { chunk, offset };
}

/** The free cells' ranks of (chunk, offset): the inverse of indexOf. */
export function ranksOf(spec: TableSpec, layout: Layout, chunk: number, offset: number): number[] {
  const formation = FORMATIONS[spec.formation];
  const caps = capsOf(spec);
  const ranks = caps.map(() => 0);
  let restOffset = offset;
  let restChunk = chunk;
  for (let i = caps.length - 1; i >= 0; i--) {
    const w = layout.weights[i]!;
    if (i < formation.chunkCells) {
      ranks[i] = Math.floor(restOffset / w);
      restOffset -= ranks[i]! * w;
    } else {
      ranks[i] = Math.floor(restChunk / w);
      restChunk -= ranks[i]! * w;
    }
  }
  return ranks;
}

// ---- orientations ----

/** The 8 symmetries: canonical cell i shows real cell ORIENTATIONS[t][i]. */
export const ORIENTATIONS: readonly (readonly number[])[] = Array.from({ length: 8 }, (_, t) => {
  const map: number[] = [];
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      let rr = r;
      let cc = c;
      if (t & 4) [rr, cc] = [cc, rr];
      if (t & 1) cc = 3 - cc;
      if (t & 2) rr = 3 - rr;
      map.push(rr * 4 + cc);
    }
  }
  return map;
});

/** Directions in the engine's order (the table stores 0 up, 1 down, 2 left, 3 right). */
export const TABLE_DIRECTIONS: readonly Direction[] = ['up', 'down', 'left', 'right'];

function directionOfStep(from: number, to: number): Direction {
  const dr = (to >> 2) - (from >> 2);
  const dc = (to & 3) - (from & 3);
  if (dr < 0) return 'up';
  if (dr > 0) return 'down';
  return dc < 0 ? 'left' : 'right';
}

/** For orientation t, the real direction of each canonical direction. */
export const REAL_DIRECTIONS: readonly (readonly Direction[])[] = ORIENTATIONS.map((map) => [
  directionOfStep(map[4]!, map[0]!), // up: (1,0) → (0,0)
  directionOfStep(map[0]!, map[4]!), // down
  directionOfStep(map[1]!, map[0]!), // left: (0,1) → (0,0)
  directionOfStep(map[0]!, map[1]!), // right
]);

/**
 * Does the (canonical) board fit the table? The anchor holds the goal rank, the other fixed tiles are
 * bigger and decrease along the formation's snake, every free cell is within its cap. Returns the free
 * cells' ranks or null.
 */
export function freeRanksIfFits(spec: TableSpec, canonical: readonly number[]): number[] | null {
  const formation = FORMATIONS[spec.formation];
  if (canonical[anchorOf(formation)] !== spec.goal) return null;
  // The big tiles decrease along the snake (formation.fixed lists it from the corner to the anchor, so every
  // one is bigger than the goal the anchor holds): then the goal tile merging into the anchor keeps the chain
  // in order, and a chain of equal tiles collapses. A set of big tiles out of order fits the small game too,
  // but winning it builds nothing the game can use (measured: docs/research/2026-11-25-endgame-tables.md).
  let above = Infinity;
  for (const cell of formation.fixed) {
    const r = canonical[cell]!;
    if (r >= above) return null;
    above = r;
  }
  const ranks: number[] = [];
  let sum = 0;
  for (const cell of formation.free) {
    const r = canonical[cell]!;
    if (r > spec.goal - 1) return null;
    if (r > 0) sum += 2 ** r;
    ranks.push(r);
  }
  return sum <= spec.maxSum ? ranks : null;
}
