/**
 * The n-tuple network: the learned evaluation of a 4x4 afterstate (docs: engine.md, "The learned evaluation").
 *
 * A shape is four base tuples of cells; each is read on the 8 symmetric images of the board (4 rotations x
 * mirror), so a board has 32 features, each the index of its tuple's cells (one nibble per cell) into the
 * tuple's table. The value of a board is the sum of the 32 weights. Shapes (SHAPE_*), cells counted row-major:
 * - 4x6: {0,1,2,3,4,5} {4,5,6,7,8,9} {0,1,2,4,5,6} {4,5,6,8,9,10}; 4 tables of 2^24 weights.
 * - 4x4 (a tiny network for tests): {0,1,2,3} {4,5,6,7} {0,1,4,5} {1,2,5,6}; 4 tables of 2^16.
 * Each tuple's index is read off a symmetric image with two or three masks and shifts.
 *
 * Weights are f32 (training, and play from a float network) or i16 (play from a quantised network: the sum
 * of the i16 weights times the network's scale), at `base` in linear memory: table k at base + (k << bits).
 * A network of several stages holds one such set of tables per stage; the board's largest rank chooses
 * (reachesRank, in index.ts).
 */
import { flipColumns, flipRows, transpose } from "./bitboard";

export const SHAPE_4X6: i32 = 0;
export const SHAPE_4X4: i32 = 1;
export const TUPLES: i32 = 4;
export const SYMMETRIES: i32 = 8;
export const FEATURES: i32 = TUPLES * SYMMETRIES;

/** Index bits of one tuple's table in a shape (4 per cell). */
export function tupleBits(shape: i32): u32 {
  return shape == SHAPE_4X4 ? 16 : 24;
}

/** Weights in the whole network of a shape (all four tables). */
export function weightCount(shape: i32): usize {
  return <usize>TUPLES << tupleBits(shape);
}

/** The constant of reachesRank for boards holding rank `rank` (1..15) or more: 16 - rank in every byte. */
export function rankLanes(rank: u32): u64 {
  return <u64>(16 - rank) * 0x0101010101010101;
}

/**
 * Does board `b` hold a cell of the rank `lanes` was made for (rankLanes) or more? Even and odd cells in byte
 * lanes: a lane overflows into its bit 4 when its cell plus 16 - rank reaches 16.
 */
@inline export function reachesRank(b: u64, lanes: u64): bool {
  const low: u64 = 0x0f0f0f0f0f0f0f0f;
  return ((((b & low) + lanes) | (((b >> 4) & low) + lanes)) & 0x1010101010101010) != 0;
}

// The four entries (tuple << bits | index) of one image, for each shape.

@inline function entry4x6(s: u64, k: u32): u32 {
  if (k == 0) return <u32>(s & 0xffffff);
  if (k == 1) return (1 << 24) | <u32>((s >> 16) & 0xffffff);
  if (k == 2) return (2 << 24) | <u32>((s & 0xfff) | ((s >> 4) & 0xfff000));
  return (3 << 24) | <u32>(((s >> 16) & 0xfff) | ((s >> 20) & 0xfff000));
}

@inline function entry4x4(s: u64, k: u32): u32 {
  if (k == 0) return <u32>(s & 0xffff);
  if (k == 1) return (1 << 16) | <u32>((s >> 16) & 0xffff);
  if (k == 2) return (2 << 16) | <u32>((s & 0xff) | ((s >> 8) & 0xff00));
  return (3 << 16) | <u32>(((s >> 4) & 0xff) | ((s >> 12) & 0xff00));
}

/** Write the 32 feature entries of board `b` (u32 each) at `out`: images in the order of `images`. */
export function features(shape: i32, b: u64, out: usize): void {
  const h = flipRows(b);
  const t = transpose(b);
  const th = flipRows(t);
  imageEntries(shape, b, out);
  imageEntries(shape, h, out + 16);
  imageEntries(shape, flipColumns(b), out + 32);
  imageEntries(shape, flipColumns(h), out + 48);
  imageEntries(shape, t, out + 64);
  imageEntries(shape, th, out + 80);
  imageEntries(shape, flipColumns(t), out + 96);
  imageEntries(shape, flipColumns(th), out + 112);
}

@inline function imageEntries(shape: i32, s: u64, out: usize): void {
  if (shape == SHAPE_4X6) {
    store<u32>(out, entry4x6(s, 0));
    store<u32>(out, entry4x6(s, 1), 4);
    store<u32>(out, entry4x6(s, 2), 8);
    store<u32>(out, entry4x6(s, 3), 12);
  } else {
    store<u32>(out, entry4x4(s, 0));
    store<u32>(out, entry4x4(s, 1), 4);
    store<u32>(out, entry4x4(s, 2), 8);
    store<u32>(out, entry4x4(s, 3), 12);
  }
}

// Evaluation: the sum over the 8 images, without a detour through memory.

@inline function imageF32(s: u64, w: usize): f32 {
  return (
    load<f32>(w + (<usize>entry4x6(s, 0) << 2)) +
    load<f32>(w + (<usize>entry4x6(s, 1) << 2)) +
    load<f32>(w + (<usize>entry4x6(s, 2) << 2)) +
    load<f32>(w + (<usize>entry4x6(s, 3) << 2))
  );
}

@inline function imageF32Tiny(s: u64, w: usize): f32 {
  return (
    load<f32>(w + (<usize>entry4x4(s, 0) << 2)) +
    load<f32>(w + (<usize>entry4x4(s, 1) << 2)) +
    load<f32>(w + (<usize>entry4x4(s, 2) << 2)) +
    load<f32>(w + (<usize>entry4x4(s, 3) << 2))
  );
}

@inline function imageI16(s: u64, w: usize): i32 {
  return (
    <i32>load<i16>(w + (<usize>entry4x6(s, 0) << 1)) +
    <i32>load<i16>(w + (<usize>entry4x6(s, 1) << 1)) +
    <i32>load<i16>(w + (<usize>entry4x6(s, 2) << 1)) +
    <i32>load<i16>(w + (<usize>entry4x6(s, 3) << 1))
  );
}

@inline function imageI16Tiny(s: u64, w: usize): i32 {
  return (
    <i32>load<i16>(w + (<usize>entry4x4(s, 0) << 1)) +
    <i32>load<i16>(w + (<usize>entry4x4(s, 1) << 1)) +
    <i32>load<i16>(w + (<usize>entry4x4(s, 2) << 1)) +
    <i32>load<i16>(w + (<usize>entry4x4(s, 3) << 1))
  );
}

/** The value of board `b` under f32 weights at `w`. */
export function evaluateF32(shape: i32, b: u64, w: usize): f32 {
  const h = flipRows(b);
  const t = transpose(b);
  const th = flipRows(t);
  if (shape == SHAPE_4X6) {
    return (
      imageF32(b, w) + imageF32(h, w) + imageF32(flipColumns(b), w) + imageF32(flipColumns(h), w) +
      (imageF32(t, w) + imageF32(th, w) + imageF32(flipColumns(t), w) + imageF32(flipColumns(th), w))
    );
  }
  return (
    imageF32Tiny(b, w) + imageF32Tiny(h, w) + imageF32Tiny(flipColumns(b), w) + imageF32Tiny(flipColumns(h), w) +
    (imageF32Tiny(t, w) + imageF32Tiny(th, w) + imageF32Tiny(flipColumns(t), w) + imageF32Tiny(flipColumns(th), w))
  );
}

/** The value of board `b` under i16 weights at `w` (times the network's scale: the caller's). */
export function evaluateI16(shape: i32, b: u64, w: usize): i32 {
  const h = flipRows(b);
  const t = transpose(b);
  const th = flipRows(t);
  if (shape == SHAPE_4X6) {
    return (
      imageI16(b, w) + imageI16(h, w) + imageI16(flipColumns(b), w) + imageI16(flipColumns(h), w) +
      (imageI16(t, w) + imageI16(th, w) + imageI16(flipColumns(t), w) + imageI16(flipColumns(th), w))
    );
  }
  return (
    imageI16Tiny(b, w) + imageI16Tiny(h, w) + imageI16Tiny(flipColumns(b), w) + imageI16Tiny(flipColumns(h), w) +
    (imageI16Tiny(t, w) + imageI16Tiny(th, w) + imageI16Tiny(flipColumns(t), w) + imageI16Tiny(flipColumns(th), w))
  );
}
