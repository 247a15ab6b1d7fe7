/**
 * Endgame-table builder (the CLI's --tables; docs/engine.md, "Endgame tables"), a separate AssemblyScript entry compiled to build/tables.wasm.
 *
 * The small game: some cells of the 4x4 board hold big tiles that must never move (the formation, marked
 * here by rank 15, a token that slides like a tile but never merges); the other cells ("free cells", at
 * most 12) hold small tiles, each capped at a rank. A move is allowed when no big tile moves. After the
 * move, a tile of the goal rank G in a goal cell is success (value 1); a free cell over its cap (e.g. a G
 * built away from the goal cells) is a dead end (value 0); otherwise a 2 (0.9) or a 4 (0.1) spawns in a
 * random empty free cell. Positions whose free tiles sum above `maxSum` count as dead ends too (so the
 * table is exact for the game with that bound; with maxSum at the sum of all caps it is exact outright).
 * The value is the success probability under the best play; the tile sum grows by 2 or 4 every turn, so
 * the positions form a DAG and are solved layer by layer, from the largest sum down.
 *
 * Index: mixed radix over the free cells (digit i = the rank in free cell i, radix cap_i + 1). The first
 * `chunkCells` digits form the offset inside a chunk, the rest the chunk number; a chunk is allocated only
 * when its smallest sum is within maxSum (chunk-sparse). Entry (1 byte): best move << 6 | round(63·p).
 *
 * Memory (linear, after the row tables): directory (u32 per chunk), f32 work values (per allocated entry,
 * exact values for the layers still to read), the byte table.
 */

const ROWS: i32 = 65536;
const ROW_LEFT: usize = memory.data(ROWS * 2, 64);
const ROW_RIGHT: usize = memory.data(ROWS * 2, 64);
const MAX_CELLS: i32 = 12;
const WALL: u32 = 15;
const ABSENT: u32 = 0xffffffff;
const P9: f32 = <f32>0.9;
const P1: f32 = <f32>0.1;

// ---- moves with a never-merging wall token ----

function slideLeft(row: u32): u32 {
  let out: u32 = 0;
  let n: u32 = 0;
  let pending: u32 = 0;
  for (let i: u32 = 0; i < 4; i++) {
    const r = (row >> (4 * i)) & 0xf;
    if (r == 0) continue;
    if (pending == 0) pending = r;
    else if (pending == r && r != WALL) {
      out |= (r + 1) << (4 * n++);
      pending = 0;
    } else {
      out |= pending << (4 * n++);
      pending = r;
    }
  }
  if (pending != 0) out |= pending << (4 * n);
  return out;
}

function reverseRow(row: u32): u32 {
  return ((row & 0xf) << 12) | ((row & 0xf0) << 4) | ((row >> 4) & 0xf0) | (row >> 12);
}

let ready = false;

export function init(): void {
  if (ready) return;
  for (let row: u32 = 0; row < <u32>ROWS; row++) {
    store<u16>(ROW_LEFT + (<usize>row << 1), <u16>slideLeft(row));
    store<u16>(ROW_RIGHT + (<usize>row << 1), <u16>reverseRow(slideLeft(reverseRow(row))));
  }
  ready = true;
}

@inline function transpose(x: u64): u64 {
  const a = (x & 0xf0f00f0ff0f00f0f) | ((x & 0x0000f0f00000f0f0) << 12) | ((x & 0x0f0f00000f0f0000) >> 12);
  return (a & 0xff00ff0000ff00ff) | ((a & 0x00ff00ff00000000) >> 24) | ((a & 0x00000000ff00ff00) << 24);
}

@inline function rows(b: u64, table: usize): u64 {
  return (
    <u64>load<u16>(table + (<usize>(b & 0xffff) << 1)) |
    (<u64>load<u16>(table + (<usize>((b >> 16) & 0xffff) << 1)) << 16) |
    (<u64>load<u16>(table + (<usize>((b >> 32) & 0xffff) << 1)) << 32) |
    (<u64>load<u16>(table + (<usize>(b >> 48) << 1)) << 48)
  );
}

/** Direction 0 up, 1 down, 2 left, 3 right (the engine's order). */
@inline function moved(b: u64, dir: i32): u64 {
  if (dir == 2) return rows(b, ROW_LEFT);
  if (dir == 3) return rows(b, ROW_RIGHT);
  return transpose(rows(transpose(b), dir == 0 ? ROW_LEFT : ROW_RIGHT));
}

export function moveWalls(lo: u32, hi: u32, dir: i32): u32 {
  outBoard = moved(<u64>lo | (<u64>hi << 32), dir);
  return <u32>outBoard;
}
let outBoard: u64 = 0;
export function outHi(): u32 {
  return <u32>(outBoard >> 32);
}

// ---- formation ----

let nCells: i32 = 0;
let chunkCells: i32 = 0;
// Per free cell (static data, no managed heap): board position, rank cap, index weight (inside the chunk
// for i < chunkCells, of the chunk number above), the largest sum cells 0..i can hold.
const CELL_POS: usize = memory.data(MAX_CELLS * 4, 16);
const CELL_CAP: usize = memory.data(MAX_CELLS * 4, 16);
const WEIGHT: usize = memory.data(MAX_CELLS * 4, 16);
const MAX_BELOW: usize = memory.data(MAX_CELLS * 4, 16);
// Per board position: the index weight of a free cell (0 for a fixed cell) and whether it is a chunk digit.
const POS_WEIGHT: usize = memory.data(16 * 4, 16);
const POS_IN_CHUNK: usize = memory.data(16 * 4, 16);
const POS_CAP: usize = memory.data(16 * 4, 16);
// Per board row (4) and row value (65536): the row's share of the index, chunk part in the low 32 bits,
// offset part in the high 32 bits; OVER when a free cell of the row is over its cap.
const ROW_INDEX: usize = memory.data(4 * ROWS * 8, 64);
const OVER: u64 = 0xffffffffffffffff;
let freeNibbles: u64 = 0;
@inline function cellPos(i: i32): i32 {
  return load<i32>(CELL_POS + (<usize>i << 2));
}
@inline function cellCap(i: i32): i32 {
  return load<i32>(CELL_CAP + (<usize>i << 2));
}
@inline function weight(i: i32): u32 {
  return load<u32>(WEIGHT + (<usize>i << 2));
}
let fixedBoard: u64 = 0;
let fixedNibbles: u64 = 0;
let goalNibbles: u64 = 0;
let goalRank: u64 = 0;
let maxSum: u32 = 0;
let chunkSize: u32 = 1;
let chunkCount: u32 = 1;
let dirBase: usize = 0;
let workBase: usize = 0;
let tableBase: usize = 0;
let allocated: u32 = 0;
let memoryEnd: usize = 0;

function ensureMemory(end: usize): bool {
  const have = <usize>memory.size() << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) return false;
  }
  if (end > memoryEnd) memoryEnd = end;
  return true;
}

export function setCell(i: i32, pos: i32, cap: i32): void {
  if (i < 0 || i >= MAX_CELLS) return;
  store<i32>(CELL_POS + (<usize>i << 2), pos);
  store<i32>(CELL_CAP + (<usize>i << 2), cap);
}

/**
 * Describe the formation: `cells` free cells (set with setCell first), the fixed cells (16-bit mask), the
 * goal cells (16-bit mask, free cells) and goal rank, the sum bound and the chunk width in digits.
 * Allocates the directory and the chunks; returns the number of entries allocated, or -1 when the
 * description is invalid, -2 when memory runs out.
 */
export function plan(cells: i32, fixedMask: u32, goalMask: u32, goal: i32, sumBound: u32, chunkDigits: i32): f64 {
  if (cells < 1 || cells > MAX_CELLS || chunkDigits < 0 || chunkDigits > cells || goal < 2 || goal > 14) return -1;
  nCells = cells;
  chunkCells = chunkDigits;
  fixedBoard = 0;
  fixedNibbles = 0;
  goalNibbles = 0;
  let seen: u32 = fixedMask;
  for (let p = 0; p < 16; p++) {
    if ((fixedMask >> p) & 1) {
      fixedBoard |= <u64>WALL << (4 * p);
      fixedNibbles |= <u64>0xf << (4 * p);
    }
    if ((goalMask >> p) & 1) goalNibbles |= <u64>0xf << (4 * p);
  }
  chunkSize = 1;
  let chunks: u64 = 1;
  let below: u32 = 0;
  for (let i = 0; i < cells; i++) {
    const pos = cellPos(i);
    const cap = cellCap(i);
    if (pos < 0 || pos > 15 || (seen >> pos) & 1 || cap < 1 || cap > 14) return -1;
    seen |= 1 << pos;
    below += <u32>1 << cap;
    store<u32>(MAX_BELOW + (<usize>i << 2), below);
    if (i < chunkDigits) {
      store<u32>(WEIGHT + (<usize>i << 2), chunkSize);
      chunkSize *= <u32>(cap + 1);
    } else {
      store<u32>(WEIGHT + (<usize>i << 2), <u32>chunks);
      chunks *= <u64>(cap + 1);
    }
  }
  if (chunks > 0x3fffffff || chunkSize > 0x3fffffff) return -1;
  freeNibbles = 0;
  for (let p = 0; p < 16; p++) {
    store<u32>(POS_WEIGHT + (<usize>p << 2), 0);
    store<i32>(POS_CAP + (<usize>p << 2), -1);
  }
  for (let i = 0; i < cells; i++) {
    const p = cellPos(i);
    freeNibbles |= <u64>0xf << (4 * p);
    store<u32>(POS_WEIGHT + (<usize>p << 2), weight(i));
    store<u32>(POS_IN_CHUNK + (<usize>p << 2), i < chunkDigits ? 1 : 0);
    store<i32>(POS_CAP + (<usize>p << 2), cellCap(i));
  }
  for (let row = 0; row < 4; row++) {
    for (let v: u32 = 0; v < <u32>ROWS; v++) {
      let share: u64 = 0;
      for (let c = 0; c < 4; c++) {
        const p = row * 4 + c;
        const cap = load<i32>(POS_CAP + (<usize>p << 2));
        if (cap < 0) continue;
        const r = <i32>((v >> (4 * c)) & 0xf);
        if (r > cap) {
          share = OVER;
          break;
        }
        const part = <u64>(<u32>r * load<u32>(POS_WEIGHT + (<usize>p << 2)));
        share += load<u32>(POS_IN_CHUNK + (<usize>p << 2)) ? part << 32 : part;
      }
      store<u64>(ROW_INDEX + ((<usize>row * <usize>ROWS + <usize>v) << 3), share);
    }
  }
  chunkCount = <u32>chunks;
  goalRank = <u64>goal;
  maxSum = sumBound;
  // Directory, then count the chunks whose prefix (the chunk digits at 0) fits the bound.
  dirBase = (__heap_base + 63) & ~<usize>63;
  if (!ensureMemory(dirBase + (<usize>chunkCount << 2))) return -2;
  let used: u32 = 0;
  for (let c: u32 = 0; c < chunkCount; c++) {
    let rest = c;
    let sum: u32 = 0;
    for (let i = nCells - 1; i >= chunkCells; i--) {
      const digit = rest / weight(i);
      rest -= digit * weight(i);
      if (digit > 0) sum += <u32>1 << digit;
    }
    if (sum <= maxSum) store<u32>(dirBase + (<usize>c << 2), used++);
    else store<u32>(dirBase + (<usize>c << 2), ABSENT);
  }
  allocated = used * chunkSize;
  workBase = (dirBase + (<usize>chunkCount << 2) + 63) & ~<usize>63;
  tableBase = (workBase + (<usize>allocated << 2) + 63) & ~<usize>63;
  if (!ensureMemory(tableBase + <usize>allocated)) return -2;
  memory.fill(workBase, 0, <usize>allocated << 2);
  memory.fill(tableBase, 0, <usize>allocated);
  nextSum = <i32>(maxSum & ~1);
  statesSolved = 0;
  return <f64>allocated;
}

// ---- the build ----

let nextSum: i32 = 0;
let statesSolved: f64 = 0;

/** Slot of (chunk number, offset) in the pool, or -1 when the chunk is absent. */
@inline function slot(chunk: u32, offset: u32): i64 {
  const base = load<u32>(dirBase + (<usize>chunk << 2));
  if (base == ABSENT) return -1;
  return <i64>base * <i64>chunkSize + <i64>offset;
}

@inline function work(chunk: u32, offset: u32): f32 {
  const s = slot(chunk, offset);
  return s < 0 ? 0 : load<f32>(workBase + (<usize>s << 2));
}

/** Value of the position after a move (board m): success, dead end or the spawn expectation. */
function afterMove(m: u64): f32 {
  // Goal: a goal cell holds the goal rank.
  let g = m & goalNibbles;
  while (g != 0) {
    const low = ctz(g) & ~3;
    if (((g >> low) & 0xf) == goalRank) return 1;
    g &= ~(<u64>0xf << low);
  }
  let index: u64 = 0;
  for (let row: u64 = 0; row < 4; row++) {
    const share = load<u64>(ROW_INDEX + (<usize>((row << 16) | ((m >> (row << 4)) & 0xffff)) << 3));
    if (share == OVER) return 0;
    index += share;
  }
  const chunk = <u32>index;
  const offset = <u32>(index >> 32);
  // Empty free cells: bit 0 of each empty nibble.
  let x = m | (m >> 1);
  x |= x >> 2;
  let empty = ~x & 0x1111111111111111 & freeNibbles;
  let total: f32 = 0;
  let open: i32 = 0;
  while (empty != 0) {
    const bit = ctz(empty);
    empty &= empty - 1;
    const p = <usize>(bit >> 2);
    open++;
    const w = load<u32>(POS_WEIGHT + (p << 2));
    const inChunk = load<u32>(POS_IN_CHUNK + (p << 2)) != 0;
    const v2 = inChunk ? work(chunk, offset + w) : work(chunk + w, offset);
    let v4: f32 = 0;
    if (load<i32>(POS_CAP + (p << 2)) >= 2) v4 = inChunk ? work(chunk, offset + 2 * w) : work(chunk + 2 * w, offset);
    total += v2 * P9 + v4 * P1;
  }
  return open == 0 ? 0 : total / <f32>open;
}

function solve(board: u64, chunk: u32, offset: u32): void {
  let best: f32 = 0;
  let bestDir: i32 = 0;
  for (let d = 0; d < 4; d++) {
    const m = moved(board, d);
    if (m == board || (m & fixedNibbles) != fixedBoard) continue;
    const v = afterMove(m);
    if (v > best) {
      best = v;
      bestDir = d;
    }
  }
  const s = slot(chunk, offset);
  store<f32>(workBase + (<usize>s << 2), best);
  const q = <u32>Math.round(<f64>best * 63);
  store<u8>(tableBase + <usize>s, <u8>((<u32>bestDir << 6) | q));
  statesSolved++;
}

/** Every position whose free tiles sum to exactly `left` more, digits from `i` down. */
function enumerate(i: i32, left: u32, board: u64, chunk: u32, offset: u32): void {
  if (left > load<u32>(MAX_BELOW + (<usize>i << 2))) return;
  const cap = cellCap(i);
  const shift = <u64>(cellPos(i) << 2);
  const w = weight(i);
  const inChunk = i < chunkCells;
  if (i == 0) {
    // The last digit is forced: empty, or the one rank whose value is what is left.
    let r: i32 = 0;
    if (left != 0) {
      if (popcnt(left) != 1) return;
      r = <i32>ctz(left);
      if (r < 1 || r > cap) return;
    }
    const b = board | (<u64>r << shift);
    if (inChunk) offset += <u32>r * w;
    else chunk += <u32>r * w;
    if (load<u32>(dirBase + (<usize>chunk << 2)) != ABSENT) solve(b, chunk, offset);
    return;
  }
  // Rank 0 (empty), then ranks 1..cap while the value fits.
  enumerate(i - 1, left, board, chunk, offset);
  for (let r = 1; r <= cap; r++) {
    const value = <u32>1 << r;
    if (value > left) break;
    const b = board | (<u64>r << shift);
    if (inChunk) enumerate(i - 1, left - value, b, chunk, offset + <u32>r * w);
    else enumerate(i - 1, left - value, b, chunk + <u32>r * w, offset);
  }
}

/**
 * Solve the next `layers` sum layers (from maxSum down, even sums); returns the sum layers left (0: done).
 * Call repeatedly to report progress between calls.
 */
export function buildLayers(layers: i32): i32 {
  while (layers-- > 0 && nextSum >= 0) {
    enumerate(nCells - 1, <u32>nextSum, fixedBoard, 0, 0);
    nextSum -= 2;
  }
  return nextSum < 0 ? 0 : (nextSum >> 1) + 1;
}

export function solvedStates(): f64 {
  return statesSolved;
}

/** Exact (f32) success probability of an index (chunk number, offset); 0 when not allocated. */
export function workValue(chunk: u32, offset: u32): f32 {
  return work(chunk, offset);
}

export function directoryPtr(): usize {
  return dirBase;
}
export function tablePtr(): usize {
  return tableBase;
}
export function chunkTotal(): u32 {
  return chunkCount;
}
export function chunkEntries(): u32 {
  return chunkSize;
}
export function allocatedEntries(): u32 {
  return allocated;
}
/** Bytes of linear memory in use at the peak. */
export function memoryBytes(): f64 {
  return <f64>(<usize>memory.size() << 16);
}
