/**
 * The n-tuple network's value of a 4x4 board in TypeScript: the oracle of the WebAssembly evaluation
 * (assembly/ntuple.ts), equal to it bit for bit (tested), and the evaluation wherever no core is loaded.
 *
 * Images, in order: the board, mirrored left-right, mirrored top-bottom, both, then the same four of its
 * transpose. A tuple's index on an image: cell j of the tuple (its rank) at bits 4j..4j+3. Sums in f32 as the
 * core sums: each image's four weights left to right, then images 0-3 and 4-7, then the two halves; i16
 * weights sum exactly as integers, then the sum times the scale, rounded to f32. A network of several stages
 * values a board with the stage of its largest rank (the last whose rank it reaches).
 */
import type { Network } from './format';
import { SHAPE_TUPLES, tableSize, weightCount } from './shapes';

const F = Math.fround;

/** IMAGES[k][cell] = the board cell that cell `cell` of image k shows. */
const IMAGES: readonly Uint8Array[] = (() => {
  const maps: ((r: number, c: number) => number)[] = [
    (r, c) => 4 * r + c,
    (r, c) => 4 * r + (3 - c),
    (r, c) => 4 * (3 - r) + c,
    (r, c) => 4 * (3 - r) + (3 - c),
    (r, c) => 4 * c + r,
    (r, c) => 4 * (3 - c) + r,
    (r, c) => 4 * c + (3 - r),
    (r, c) => 4 * (3 - c) + (3 - r),
  ];
  return maps.map((map) => Uint8Array.from({ length: 16 }, (_, cell) => map(cell >> 2, cell & 3)));
})();

/** The 32 feature entries (tuple k's table at k x 16^C, plus its index) of a board given as 16 ranks. */
export function featureEntries(network: Pick<Network, 'shape'>, ranks: ArrayLike<number>): number[] {
  const tuples = SHAPE_TUPLES[network.shape];
  const size = tableSize(network.shape);
  const out: number[] = [];
  for (const image of IMAGES) {
    for (let k = 0; k < tuples.length; k++) {
      let index = 0;
      const cells = tuples[k];
      for (let j = 0; j < cells.length; j++) index += ranks[image[cells[j]]] * 16 ** j;
      out.push(k * size + index);
    }
  }
  return out;
}

/** The stage that values a board of 16 ranks: the last whose rank its largest rank reaches. */
export function stageOf(stages: readonly number[], ranks: ArrayLike<number>): number {
  let largest = 0;
  for (let i = 0; i < 16; i++) largest = Math.max(largest, ranks[i]);
  let s = stages.length - 1;
  while (s > 0 && largest < stages[s]) s--;
  return s;
}

/** The network's value of a board of 16 ranks (row-major). */
function evaluateRanks(network: Network, ranks: ArrayLike<number>): number {
  const entries = featureEntries(network, ranks);
  const base = stageOf(network.stages, ranks) * weightCount(network.shape);
  const w = network.weights.subarray(base, base + weightCount(network.shape));
  if (network.encoding === 'i16') {
    let sum = 0;
    for (const e of entries) sum += w[e];
    return F(F(sum) * F(network.scale));
  }
  const images: number[] = [];
  for (let i = 0; i < 8; i++) {
    const at = i * 4;
    images.push(F(F(F(w[entries[at]] + w[entries[at + 1]]) + w[entries[at + 2]]) + w[entries[at + 3]]));
  }
  const first = F(F(F(images[0] + images[1]) + images[2]) + images[3]);
  const second = F(F(F(images[4] + images[5]) + images[6]) + images[7]);
  return F(first + second);
}

/** The ranks of a bitboard given as two int32 halves (cell i at bits 4i of lo for i < 8, else of hi). */
export function ranksOfBoard(lo: number, hi: number): Uint8Array {
  const ranks = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    ranks[i] = (lo >>> (4 * i)) & 0xf;
    ranks[i + 8] = (hi >>> (4 * i)) & 0xf;
  }
  return ranks;
}

export function evaluateBoard(network: Network, lo: number, hi: number): number {
  return evaluateRanks(network, ranksOfBoard(lo, hi));
}
