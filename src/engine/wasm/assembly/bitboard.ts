/**
 * The 4x4 bitboard shared by the WebAssembly entries (index.ts: search; train.ts: the network's trainer).
 *
 * Board: a native u64, cell (r, c) at bit 4·(4r + c) holding the rank (log2 of the tile, 0 = empty); rank 15
 * (32768) is the largest, and two 15s merge into a 15. A row is a 16-bit word; left and right moves are
 * table lookups per row, up and down go through a transpose. The tables live at fixed addresses (memory.data)
 * and are filled once per instance by fillMoveTables (in a shared memory every instance writes the same
 * values, so it does not matter who comes first).
 */

export const ROWS: i32 = 65536;
export const ROW_LEFT: usize = memory.data(ROWS * 2, 64);
export const ROW_RIGHT: usize = memory.data(ROWS * 2, 64);
export const SCORE_LEFT: usize = memory.data(ROWS * 4, 64);
export const SCORE_RIGHT: usize = memory.data(ROWS * 4, 64);
/** One bit per cell (bit 0 of each nibble). */
export const NIBBLE_LOW: u64 = 0x1111111111111111;

/** Slide a row towards nibble 0; returns the moved row in the low 16 bits and the score above. */
export function slideLeft(row: u32): u64 {
  let out: u32 = 0;
  let n: u32 = 0;
  let pending: u32 = 0;
  let score: u64 = 0;
  for (let i: u32 = 0; i < 4; i++) {
    const r = (row >> (4 * i)) & 0xf;
    if (r == 0) continue;
    if (pending == 0) pending = r;
    else if (pending == r) {
      out |= (r == 15 ? 15 : r + 1) << (4 * n++);
      score += <u64>1 << (r + 1);
      pending = 0;
    } else {
      out |= pending << (4 * n++);
      pending = r;
    }
  }
  if (pending != 0) out |= pending << (4 * n);
  return <u64>out | (score << 16);
}

export function reverseRow(row: u32): u32 {
  return ((row & 0xf) << 12) | ((row & 0xf0) << 4) | ((row >> 4) & 0xf0) | (row >> 12);
}

/** Fill the move and score tables for every row. */
export function fillMoveTables(): void {
  for (let row: u32 = 0; row < <u32>ROWS; row++) {
    const left = slideLeft(row);
    const right = slideLeft(reverseRow(row));
    store<u16>(ROW_LEFT + (<usize>row << 1), <u16>(left & 0xffff));
    store<u16>(ROW_RIGHT + (<usize>row << 1), <u16>reverseRow(<u32>(right & 0xffff)));
    store<u32>(SCORE_LEFT + (<usize>row << 2), <u32>(left >> 16));
    store<u32>(SCORE_RIGHT + (<usize>row << 2), <u32>(right >> 16));
  }
}

@inline export function rowLeft(r: u64): u64 {
  return <u64>load<u16>(ROW_LEFT + (<usize>r << 1));
}
@inline export function rowRight(r: u64): u64 {
  return <u64>load<u16>(ROW_RIGHT + (<usize>r << 1));
}

@inline export function transpose(x: u64): u64 {
  const a = (x & 0xf0f00f0ff0f00f0f) | ((x & 0x0000f0f00000f0f0) << 12) | ((x & 0x0f0f00000f0f0000) >> 12);
  return (a & 0xff00ff0000ff00ff) | ((a & 0x00ff00ff00000000) >> 24) | ((a & 0x00000000ff00ff00) << 24);
}

/** Mirror left-right: the nibbles of each row reversed. */
@inline export function flipRows(x: u64): u64 {
  const a = ((x & 0x0f0f0f0f0f0f0f0f) << 4) | ((x >> 4) & 0x0f0f0f0f0f0f0f0f);
  return ((a & 0x00ff00ff00ff00ff) << 8) | ((a >> 8) & 0x00ff00ff00ff00ff);
}

/** Mirror top-bottom: the order of the rows reversed. */
@inline export function flipColumns(x: u64): u64 {
  const a = ((x & 0x0000ffff0000ffff) << 16) | ((x >> 16) & 0x0000ffff0000ffff);
  return (a << 32) | (a >> 32);
}

@inline export function movedLeft(b: u64): u64 {
  return rowLeft(b & 0xffff) | (rowLeft((b >> 16) & 0xffff) << 16) | (rowLeft((b >> 32) & 0xffff) << 32) | (rowLeft(b >> 48) << 48);
}
@inline export function movedRight(b: u64): u64 {
  return rowRight(b & 0xffff) | (rowRight((b >> 16) & 0xffff) << 16) | (rowRight((b >> 32) & 0xffff) << 32) | (rowRight(b >> 48) << 48);
}

/** The score of moving every row of `b` with the score table at `table` (SCORE_LEFT or SCORE_RIGHT). */
@inline export function rowsScore(b: u64, table: usize): u32 {
  return (
    load<u32>(table + (<usize>(b & 0xffff) << 2)) +
    load<u32>(table + (<usize>((b >> 16) & 0xffff) << 2)) +
    load<u32>(table + (<usize>((b >> 32) & 0xffff) << 2)) +
    load<u32>(table + (<usize>(b >> 48) << 2))
  );
}

/** One bit (bit 0 of the nibble) per empty cell. */
@inline export function emptyMask(b: u64): u64 {
  let x = b | (b >> 1);
  x |= x >> 2;
  return ~x & NIBBLE_LOW;
}

/** The largest rank on the board. */
@inline export function maxRank(b: u64): u32 {
  let best: u64 = 0;
  for (let s: u64 = 0; s < 64; s += 4) {
    const r = (b >> s) & 0xf;
    if (r > best) best = r;
  }
  return <u32>best;
}
