/**
 * The n-tuple network's shapes: four base tuples of cells (row-major, 0..15), each read on the 8 symmetric
 * images of the board. The WebAssembly core hard-codes the index of each shape's tuples (assembly/ntuple.ts);
 * the TypeScript evaluation (./evaluate.ts) reads the cells listed here, and the tests hold the two equal.
 */
export const SHAPE_NAMES = ['4x6', '4x4'] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];

export const SHAPE_TUPLES: Readonly<Record<ShapeName, readonly (readonly number[])[]>> = {
  '4x6': [
    [0, 1, 2, 3, 4, 5],
    [4, 5, 6, 7, 8, 9],
    [0, 1, 2, 4, 5, 6],
    [4, 5, 6, 8, 9, 10],
  ],
  '4x4': [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [0, 1, 4, 5],
    [1, 2, 5, 6],
  ],
};

/** The shape's id in the WebAssembly core (SHAPE_4X6 = 0, SHAPE_4X4 = 1). */
export function shapeId(shape: ShapeName): number {
  return SHAPE_NAMES.indexOf(shape);
}

/** Weights of one tuple's table (16 ranks per cell). */
export function tableSize(shape: ShapeName): number {
  return 16 ** SHAPE_TUPLES[shape][0].length;
}

/** Weights in the whole network of a shape. */
export function weightCount(shape: ShapeName): number {
  return SHAPE_TUPLES[shape].length * tableSize(shape);
}

/** The shape whose tuples are exactly `tuples`, or undefined. */
export function shapeOfTuples(tuples: readonly (readonly number[])[]): ShapeName | undefined {
  return SHAPE_NAMES.find((name) => {
    const known = SHAPE_TUPLES[name];
    return known.length === tuples.length && known.every((cells, i) => cells.length === tuples[i].length && cells.every((c, j) => c === tuples[i][j]));
  });
}
