/**
 * The WebAssembly core of the 4x4 expectimax (AssemblyScript, compiled by build/build-wasm.mjs).
 *
 * Board: a native u64, cell (r, c) at bit 4·(4r + c) holding the rank. All values are f32 and every
 * operation rounds to f32 as the reference solver does (docs/engine.md, "The search"), so the reference configuration reproduces the
 * reference's values and move-execution counts exactly (tested against the TypeScript engine, the oracle).
 *
 * Linear memory: the tables at fixed addresses (memory.data), the transposition table after the heap
 * base, grown with memory.grow. No allocation on the managed heap (runtime stub).
 *
 * Built twice (build/build-wasm.mjs): engine.wasm with its own memory, and engine-shared.wasm
 * (ASC_FEATURE_THREADS: imported shared memory) whose instances in several threads share one memory, so
 * one transposition table: set up with ttShare, each entry stored as (board ^ data, data) so that a read
 * racing a write of another thread sees a miss, never a wrong value; table generations set by the host
 * (ttSetGeneration), one per root move of a split search (src/engine/split.ts).
 */

import { ROWS, ROW_LEFT, ROW_RIGHT, SCORE_LEFT, SCORE_RIGHT, emptyMask, fillMoveTables, movedLeft, movedRight, rowsScore, transpose } from "./bitboard";
import { evaluateF32, evaluateI16, rankLanes, reachesRank, weightCount } from "./ntuple";

@external("env", "now")
declare function hostNow(): f64;

const HEUR: usize = memory.data(ROWS * 4, 64);

/** The reference's cut-off: the float nearest 0.0001; searchRoot may lower it (play, time to spare). */
const REFERENCE_THRESHOLD: f32 = <f32>0.0001;
let threshold: f32 = REFERENCE_THRESHOLD;
const P9: f32 = <f32>0.9;
const P1: f32 = <f32>0.1;
const CACHE_DEPTH_LIMIT: i32 = 15;
/** The clock (and the execution budget) is read every this many move executions: ~0.1 ms of work. */
const CHECK_EXECUTIONS: u64 = 8192;
const PROBE_LIMIT: u32 = 12;
/** 2^21 entries of 16 bytes = 32 MiB: the reference positions need 2^20 at most (half full). */
const MAX_TT_LOG2: u32 = 21;

// ---- tables ----

function powd(r: i32, p: f64): f64 {
  return Math.pow(<f64>r, p);
}

// The line heuristic's weights and powers (docs/engine.md, "The heuristic evaluation": the reference's).
const W_LOST: f32 = 200000;
const W_EMPTY: f32 = 270;
const W_MERGES: f32 = 700;
const W_MONO: f32 = 47;
const P_MONO: f64 = 4;
const W_SUM: f32 = 11;
const P_SUM: f64 = 3.5;

/** The line heuristic for ranks a..d, each step rounded to f32 as the reference computes it. */
function lineHeuristic(line: u32): f32 {
  let sum: f32 = 0;
  let empty: i32 = 0;
  let merges: i32 = 0;
  let prev: u32 = 0;
  let counter: i32 = 0;
  for (let i: u32 = 0; i < 4; i++) {
    const rank = (line >> (4 * i)) & 0xf;
    sum = <f32>(<f64>sum + powd(<i32>rank, P_SUM));
    if (rank == 0) {
      empty++;
    } else {
      if (prev == rank) counter++;
      else if (counter > 0) {
        merges += 1 + counter;
        counter = 0;
      }
      prev = rank;
    }
  }
  if (counter > 0) merges += 1 + counter;
  let monoL: f32 = 0;
  let monoR: f32 = 0;
  for (let i: u32 = 1; i < 4; i++) {
    const a = <i32>((line >> (4 * (i - 1))) & 0xf);
    const b = <i32>((line >> (4 * i)) & 0xf);
    if (a > b) monoL = <f32>(<f64>monoL + (powd(a, P_MONO) - powd(b, P_MONO)));
    else monoR = <f32>(<f64>monoR + (powd(b, P_MONO) - powd(a, P_MONO)));
  }
  let v: f32 = W_LOST + W_EMPTY * <f32>empty;
  v = v + W_MERGES * <f32>merges;
  v = v - W_MONO * min<f32>(monoL, monoR);
  v = v - W_SUM * sum;
  return v;
}


let tablesReady = false;
/** Shared build: 1 once some instance has filled the tables in the shared memory. */
const TABLES_FILLED: usize = memory.data(8, 8);

export function init(): void {
  if (tablesReady) return;
  if (ASC_FEATURE_THREADS) leafCache = LEAF_CACHES + (<usize>(atomic.add<u32>(LEAF_INSTANCES, 1) % <u32>LEAF_SLOTS) << (LEAF_BITS + 4));
  if (ASC_FEATURE_THREADS && atomic.load<u32>(TABLES_FILLED) == 1) {
    tablesReady = true;
    return;
  }
  fillMoveTables();
  for (let row: u32 = 0; row < <u32>ROWS; row++) {
    store<f32>(HEUR + (<usize>row << 2), lineHeuristic(row));
    const at = <usize>row << 2;
    store<u32>(MOVE_SCORE_LEFT + at, <u32>load<u16>(ROW_LEFT + (<usize>row << 1)) | ((load<u32>(SCORE_LEFT + at) >> 2) << 16));
    store<u32>(MOVE_SCORE_RIGHT + at, <u32>load<u16>(ROW_RIGHT + (<usize>row << 1)) | ((load<u32>(SCORE_RIGHT + at) >> 2) << 16));
  }
  if (ASC_FEATURE_THREADS) atomic.store<u32>(TABLES_FILLED, 1);
  tablesReady = true;
}

// ---- board primitives ----

// The moves of the search with the network, which adds each move's score: the moved row and its score in
// one table entry (u32: the row in the low half, the score / 4 above: a row's score is a multiple of 4 and at
// most 2 * 65 536), so that a move and its score read four entries instead of eight.
const MOVE_SCORE_LEFT: usize = memory.data(ROWS * 4, 64);
const MOVE_SCORE_RIGHT: usize = memory.data(ROWS * 4, 64);
/** The score of the last moveRows. */
let movedScore: u32 = 0;

/** Every row of `b` moved with `table` (MOVE_SCORE_LEFT or MOVE_SCORE_RIGHT); the score in movedScore. */
@inline function moveRows(b: u64, table: usize): u64 {
  const e0 = load<u32>(table + (<usize>(b & 0xffff) << 2));
  const e1 = load<u32>(table + (<usize>((b >> 16) & 0xffff) << 2));
  const e2 = load<u32>(table + (<usize>((b >> 32) & 0xffff) << 2));
  const e3 = load<u32>(table + (<usize>(b >> 48) << 2));
  movedScore = ((e0 >> 16) + (e1 >> 16) + (e2 >> 16) + (e3 >> 16)) << 2;
  return <u64>(e0 & 0xffff) | (<u64>(e1 & 0xffff) << 16) | (<u64>(e2 & 0xffff) << 32) | (<u64>e3 << 48 & 0xffff000000000000);
}

@inline function heur(r: u64): f32 {
  return load<f32>(HEUR + (<usize>r << 2));
}

/** Sum of the row heuristics, in row order, in f32. */
@inline function heurRows(b: u64): f32 {
  return heur(b & 0xffff) + heur((b >> 16) & 0xffff) + heur((b >> 32) & 0xffff) + heur(b >> 48);
}

@inline function heuristicOf(b: u64): f32 {
  const rows = heurRows(b);
  const cols = heurRows(transpose(b));
  return rows + cols;
}

// ---- the learned evaluation ----
// The n-tuple network's weights sit at the heap base when one is reserved (networkReserve), and the
// transposition table after them. With a network in use (useNetwork), a leaf is valued by the network (the
// expected score still to come from an afterstate) and a move adds the score it makes, so a root move's value
// is its score plus the expectation of what follows (docs: engine.md, "The learned evaluation").

let networkOn = false;
let networkShape: i32 = 0;
let networkI16 = true;
let networkScale: f32 = 1;
let networkBase: usize = 0;
let networkEnd: usize = 0;
/** Stages of the network (1: one set of tables) and the bytes of one stage's tables. */
let networkStages: i32 = 1;
let networkStageBytes: usize = 0;
/** Most stages (MAX_STAGES in src/engine/network/format.ts). */
const MAX_STAGES: i32 = 8;
/**
 * For each stage s >= 1: rankLanes of the rank from which it values boards (0, as in a fresh memory: never).
 * Static data, so in the shared build one copy for every thread: each writes the same values, never a zero
 * over another's while that one searches.
 */
const STAGE_LANES: usize = memory.data(MAX_STAGES * 8, 8);

/** Where the transposition table may start: after the network's weights, if any. */
function dynamicStart(): usize {
  return ((networkEnd > 0 ? networkEnd : __heap_base) + 63) & ~<usize>63;
}

/**
 * Reserve room for a network of `shape` (ntuple.ts) with i16 or f32 weights in `stages` stages (each its own
 * tables, one after the other) at the heap base and return its address, where the host copies the weights;
 * the table moves after it (its entries are lost: configure or share it again). The host then says where each
 * later stage starts (networkStageFrom). In the shared build every instance calls both with the same arguments
 * (the same address) and one of them copies the weights. `scale`: an i16 weight's value.
 */
export function networkReserve(shape: i32, i16: bool, scale: f32, stages: i32): usize {
  networkShape = shape;
  networkI16 = i16;
  networkScale = i16 ? scale : 1;
  networkStages = min(max(stages, 1), MAX_STAGES);
  networkBase = (__heap_base + 63) & ~<usize>63;
  networkStageBytes = weightCount(shape) << (i16 ? 1 : 2);
  networkEnd = networkBase + networkStageBytes * <usize>networkStages;
  ensureMemory(networkEnd);
  leafCacheForget();
  ttBase = 0;
  ttLog2 = 0;
  return networkBase;
}

/** Stage `s` (1 .. stages - 1) values the boards whose largest rank is at least `rank` (1..15). */
export function networkStageFrom(s: i32, rank: i32): void {
  if (s < 1 || s >= networkStages || rank < 1 || rank > 15) return;
  store<u64>(STAGE_LANES + (<usize>s << 3), rankLanes(<u32>rank));
  leafCacheForget();
}

/** Value leaves with the network (reserved and filled) or with the heuristic; forgets the table's entries. */
export function useNetwork(on: bool): void {
  networkOn = on && networkEnd > 0;
  leafCacheForget();
  if (ttLog2 > 0) ttNewGeneration();
}

/** The weights of the stage that values board `b`: the last whose rank it reaches. */
@inline function stageWeights(b: u64): usize {
  let s = networkStages - 1;
  while (s > 0) {
    if (reachesRank(b, load<u64>(STAGE_LANES + (<usize>s << 3)))) break;
    s--;
  }
  return networkBase + <usize>s * networkStageBytes;
}

@inline function networkValue(b: u64): f32 {
  const w = networkStages > 1 ? stageWeights(b) : networkBase;
  return networkI16 ? <f32>evaluateI16(networkShape, b, w) * networkScale : evaluateF32(networkShape, b, w);
}

// ---- the leaf cache ----
// The network's value of the afterstates valued lately, direct-mapped by board. A leaf's afterstate often
// comes again: the spawn children of one chance node at the search's frontier share most of their afterstates
// (a tile spawned in any empty cell of a row on the same side of that row's tiles slides to the same row), and
// other paths reach the same boards. On the crisis boards at depth 4, 49 % of the network's evaluations are
// found here with 2^12 entries (64 KiB, in the first-level cache), 56 % with 2^16, 57 % with 2^18: the
// repeats are near each other, and a larger cache costs more per probe than it saves (bench/leaf-profile.ts;
// docs/research/2026-12-07-cheaper-leaf.md). A value depends on the board and the weights alone, so a hit
// returns the very value the network gives, bit for bit.
// Entry (16 bytes): board ^ data, data = value bits << 32 | tag. The tag is the cache's generation + 1 (never
// the 0 of a fresh memory), ticked whenever the weights or the stages may change (networkReserve,
// networkStageFrom, useNetwork), in static data, so in the shared build the same for every thread. Each
// instance has a cache of its own (the shared build: one of LEAF_SLOTS, dealt out in turn at init, so that two
// threads never write each other's lines); should more instances than slots share one memory, two share a
// cache, written as the shared table is (two halves; a reader seeing halves of two writes finds a board that
// does not match: a miss), so that a value is still never wrong.
const LEAF_BITS: u32 = 12;
const LEAF_SLOTS: i32 = ASC_FEATURE_THREADS ? 8 : 1;
const LEAF_CACHES: usize = memory.data(<i32>(16 << LEAF_BITS) * LEAF_SLOTS, 64);
const LEAF_GENERATION: usize = memory.data(8, 8);
/** Shared build: instances that took a slot so far. */
const LEAF_INSTANCES: usize = memory.data(8, 8);
/** This instance's leaf cache. */
let leafCache: usize = LEAF_CACHES;

function leafCacheForget(): void {
  if (ASC_FEATURE_THREADS) atomic.add<u32>(LEAF_GENERATION, 1);
  else store<u32>(LEAF_GENERATION, load<u32>(LEAF_GENERATION) + 1);
}

/** The network's value of afterstate `b`, from the leaf cache when it holds it. */
@inline function leafValue(b: u64): f32 {
  const at = leafCache + (<usize>((b * 0x9e3779b97f4a7c15) >> (64 - <u64>LEAF_BITS)) << 4);
  const tag = <u64>(load<u32>(LEAF_GENERATION) + 1);
  const data = load<u64>(at, 8);
  if ((load<u64>(at) ^ data) == b && (data & 0xffffffff) == tag) {
    return reinterpret<f32>(<u32>(data >> 32));
  }
  const v = networkValue(b);
  const fresh = (<u64>reinterpret<u32>(v) << 32) | tag;
  store<u64>(at, b ^ fresh);
  store<u64>(at, fresh, 8);
  return v;
}

/** The network's value of a board (for tests: the TypeScript evaluation must agree). */
export function networkValueOf(lo: u32, hi: u32): f32 {
  return networkValue(<u64>lo | (<u64>hi << 32));
}

/** The best of a move's score plus its afterstate's network value (0 when no move is legal). */
export function networkGreedy(lo: u32, hi: u32): f32 {
  return leafMaxNetwork(<u64>lo | (<u64>hi << 32));
}

// ---- transposition table ----
// Entry (16 bytes): board u64, stamp u32 = generation << GEN_SHIFT | epoch << 14 | prune quality << 8 |
// age << 5 | remaining depth, value f32. Epoch, quality and age are play's (buckets); the exact table
// leaves them 0. 10 bits of generation: the table is zeroed every 1 023 fresh searches (~4 ms for 32 MiB).
const GEN_SHIFT: u32 = 22;
const STAMP_LOW: u32 = (1 << GEN_SHIFT) - 1;
/** Generations wrap (the table is zeroed) before they reach this. */
const GEN_LIMIT: u32 = 1 << (32 - GEN_SHIFT);

let ttBase: usize = 0;
let ttLog2: u32 = 0;
let ttMask: u64 = 0;
let ttShift: u64 = 64;
let ttCount: u32 = 0;
let ttExact = false;
let generation: u32 = 1;

function ensureMemory(end: usize): void {
  const have = <usize>memory.size() << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) unreachable();
  }
}

/** True once ttShare made this instance search on the table every thread shares (engine-shared.wasm). */
let tableShared = false;
/** This instance's own table's place in a shared memory (ttSlot): slot k after k slots of SLOT_BYTES. */
let tableSlot: u32 = 0;
/** A slot holds the largest table and the scratch room it grows through. */
const SLOT_BYTES: usize = <usize>16 << (MAX_TT_LOG2 + 1);

/**
 * engine-shared.wasm without a shared table: give this instance a table of its own in slot `slot` of the
 * shared memory (after the network's weights), so that threads share the network but not their tables,
 * each keeping the play table's features (buckets, prune quality, ageing). Configure it with ttConfigure.
 */
export function ttSlot(slot: u32): void {
  tableSlot = slot;
  tableShared = false;
  ttBase = 0;
  ttLog2 = 0;
}

function ttAllocate(bits: u32): void {
  ttBase = dynamicStart() + <usize>tableSlot * SLOT_BYTES;
  ensureMemory(ttBase + (<usize>16 << bits));
  memory.fill(ttBase, 0, <usize>16 << bits);
  ttLog2 = bits;
  ttMask = (<u64>1 << bits) - 1;
  ttShift = 64 - <u64>bits;
  ttCount = 0;
  generation = 1;
}

@inline function ttHome(b: u64): u64 {
  return (b * 0x9e3779b97f4a7c15) >> ttShift;
}

/** Prepare the table: 2^bits entries; exact = never evict (grows instead), as the reference's map. */
export function ttConfigure(bits: u32, exact: bool): void {
  if (tableShared) {
    tableShared = false;
    ttLog2 = 0;
  }
  if (bits < 10) bits = 10;
  if (bits > MAX_TT_LOG2) bits = MAX_TT_LOG2;
  if (exact) {
    if (ttLog2 < bits) ttAllocate(bits);
  } else if (ttLog2 != bits) {
    ttAllocate(bits);
  }
  ttExact = exact;
}

/** Forget every entry (O(1)). */
export function ttNewGeneration(): void {
  generation++;
  ttCount = 0;
  if (generation >= GEN_LIMIT - 1) {
    memory.fill(ttBase, 0, <usize>16 << ttLog2);
    generation = 1;
  }
}

export function ttSizeLog2(): u32 {
  return ttLog2;
}

/** NaN when absent or stored with less remaining depth than `remaining` (play's buckets: or a lower prune
 *  quality than `quality`). */
@inline function ttGet(b: u64, remaining: u32, quality: u32): f32 {
  if (tableShared) return ttGetShared(b, remaining);
  if (!ttExact) return ttGetBucket(b, remaining, quality);
  let i = ttHome(b);
  const base = generation << GEN_SHIFT;
  for (let probe: u32 = 0; ; probe++) {
    const at = ttBase + (<usize>i << 4);
    const stamp = load<u32>(at, 8);
    if ((stamp & ~STAMP_LOW) != base) return NaN;
    if (load<u64>(at) == b) return (stamp & 0x1f) >= remaining ? load<f32>(at, 12) : NaN;
    if (!ttExact && probe >= PROBE_LIMIT) return NaN;
    i = (i + 1) & ttMask;
  }
  return NaN;
}

function ttPut(b: u64, remaining: u32, quality: u32, value: f32): void {
  if (tableShared) {
    ttPutShared(b, remaining, value);
    return;
  }
  if (!ttExact) {
    ttPutBucket(b, remaining, quality, value);
    return;
  }
  let i = ttHome(b);
  const first = i;
  const base = generation << GEN_SHIFT;
  for (let probe: u32 = 0; ; probe++) {
    const at = ttBase + (<usize>i << 4);
    const stamp = load<u32>(at, 8);
    if ((stamp & ~STAMP_LOW) != base) {
      store<u64>(at, b);
      store<u32>(at, base | remaining, 8);
      store<f32>(at, value, 12);
      ttCount++;
      if (ttExact && (<u64>ttCount << 1) > ttMask) {
        if (ttLog2 < MAX_TT_LOG2) ttGrow();
        // At the memory cap: evict (bounded probing) rather than fill the table and probe forever.
        else if (<u64>ttCount * 8 > ttMask * 7) ttExact = false;
      }
      return;
    }
    if (load<u64>(at) == b) {
      store<u32>(at, base | remaining, 8);
      store<f32>(at, value, 12);
      return;
    }
    if (!ttExact && probe >= PROBE_LIMIT) {
      const f = ttBase + (<usize>first << 4);
      store<u64>(f, b);
      store<u32>(f, base | remaining, 8);
      store<f32>(f, value, 12);
      return;
    }
    i = (i + 1) & ttMask;
  }
}

// Play (not exact): the table is kept across searches and fills up, so an entry lives in its home bucket of
// 4 (one 64-byte cache line) and a new one replaces the least useful there: an entry of another generation,
// else the one with the least remaining depth, less 4 layers per decision since it was stored (the age,
// bits 5-7 of the stamp, ticked by ttAgeTick), so that the deep entries of earlier decisions give way.

/** The decision counter (mod 8) new entries are stamped with (ttAgeTick). */
let ttAge: u32 = 0;
const AGE_PENALTY: i32 = 4;

/** Play: a new decision begins (entries stored before it age by one). */
export function ttAgeTick(): void {
  ttAge = (ttAge + 1) & 7;
  epoch = (epoch + 1) & EPOCH_MASK;
}

@inline function bucketOf(b: u64): usize {
  return ttBase + (<usize>(ttHome(b) & ~(<u64>3)) << 4);
}

function ttGetBucket(b: u64, remaining: u32, quality: u32): f32 {
  const at0 = bucketOf(b);
  for (let k: usize = 0; k < 64; k += 16) {
    const at = at0 + k;
    if (load<u64>(at) == b) {
      const stamp = load<u32>(at, 8);
      if ((stamp & ~STAMP_LOW) != generation << GEN_SHIFT) return NaN;
      if ((stamp & 0x1f) < remaining) return NaN;
      return ((stamp >> 14) & EPOCH_MASK) == epoch || ((stamp >> 8) & QUALITY_MASK) >= quality ? load<f32>(at, 12) : NaN;
    }
  }
  return NaN;
}

function ttPutBucket(b: u64, remaining: u32, quality: u32, value: f32): void {
  const at0 = bucketOf(b);
  const base = generation << GEN_SHIFT;
  let victim = at0;
  let least = i32.MAX_VALUE;
  for (let k: usize = 0; k < 64; k += 16) {
    const at = at0 + k;
    const stamp = load<u32>(at, 8);
    if (load<u64>(at) == b) {
      victim = at;
      break;
    }
    const score = (stamp & ~STAMP_LOW) != base ? i32.MIN_VALUE : <i32>(stamp & 0x1f) - AGE_PENALTY * <i32>((ttAge - (stamp >> 5)) & 7);
    if (score < least) {
      least = score;
      victim = at;
    }
  }
  store<u64>(victim, b);
  store<u32>(victim, base | (epoch << 14) | (quality << 8) | (ttAge << 5) | remaining, 8);
  store<f32>(victim, value, 12);
}

/** The table's value for a board (as a chance node needing `remaining` layers would read it), NaN when
 *  absent: for tests of the table itself. */
export function ttProbe(lo: u32, hi: u32, remaining: u32, quality: u32): f32 {
  return ttGet(boardOf(lo, hi), remaining, quality);
}

/** Store a board's value as a chance node searched to `remaining` layers would: for tests of the table. */
export function ttStore(lo: u32, hi: u32, remaining: u32, quality: u32, value: f32): void {
  ttPut(boardOf(lo, hi), remaining, quality <= QUALITY_MASK ? quality : QUALITY_MASK, value);
}

// Shared build: entry = (board ^ data u64, data u64 = value bits << 32 | generation << 8 | remaining).
// The two halves are written separately; a reader that sees halves of different writes gets a board that
// does not match (a miss). Generations from liveFrom on belong to the search going on (other threads' root
// moves): probing steps over them; older ones are free slots. Bounded probing, evicting the home slot.

/** Shared build: the first generation of the search going on (ttSetGeneration). */
let liveFrom: u32 = 1;

@inline function ttGetShared(b: u64, remaining: u32): f32 {
  let i = ttHome(b);
  for (let probe: u32 = 0; probe <= PROBE_LIMIT; probe++) {
    const at = ttBase + (<usize>i << 4);
    const data = load<u64>(at, 8);
    const gen = <u32>data >> 8;
    if (gen == generation) {
      if ((load<u64>(at) ^ data) == b) return (<u32>data & 0xff) >= remaining ? reinterpret<f32>(<u32>(data >> 32)) : NaN;
    } else if (gen < liveFrom) {
      return NaN;
    }
    i = (i + 1) & ttMask;
  }
  return NaN;
}

function ttPutShared(b: u64, remaining: u32, value: f32): void {
  let i = ttHome(b);
  const first = i;
  const data = (<u64>reinterpret<u32>(value) << 32) | <u64>((generation << 8) | remaining);
  for (let probe: u32 = 0; probe <= PROBE_LIMIT; probe++) {
    const at = ttBase + (<usize>i << 4);
    const seen = load<u64>(at, 8);
    const gen = <u32>seen >> 8;
    if (gen < liveFrom || (gen == generation && (load<u64>(at) ^ seen) == b)) {
      store<u64>(at, b ^ data);
      store<u64>(at, data, 8);
      return;
    }
    i = (i + 1) & ttMask;
  }
  const at = ttBase + (<usize>first << 4);
  store<u64>(at, b ^ data);
  store<u64>(at, data, 8);
}

/** Shared build: the start of the shared table (ttShare); ttBase is the current root move's region in it. */
let sharedStart: usize = 0;
/** Shared build: regions of the shared table, one per root move of a search (its index mod REGIONS). */
const REGIONS: u32 = 4;

/**
 * Shared build: use the table after the heap base of the shared memory, REGIONS regions of 2^bits entries
 * (one per root move of a search, so that threads on different root moves never write the same cache
 * lines), which the host made large enough and zeroed (a new memory is); every instance calls this.
 * `clear`: zero it now (no other thread may rely on its entries then).
 */
export function ttShare(bits: u32, clear: bool): void {
  sharedStart = dynamicStart();
  tableShared = true;
  const size = <usize>REGIONS << (bits + 4);
  ensureMemory(sharedStart + size);
  if (clear) memory.fill(sharedStart, 0, size);
  ttBase = sharedStart;
  ttLog2 = bits;
  ttMask = (<u64>1 << bits) - 1;
  ttShift = 64 - <u64>bits;
  ttExact = false;
}

/**
 * Shared build: the generation of the entries that the following searches read and write, and the first
 * generation of the search going on (1 <= live <= g <= 2^24-1; the host zeroes the table before reusing
 * them). Root move g - live of the search uses region (g - live) mod REGIONS.
 */
export function ttSetGeneration(g: u32, live: u32): void {
  generation = g;
  liveFrom = live;
  ttBase = sharedStart + (<usize>((g - live) % REGIONS) << (ttLog2 + 4));
}

/** Double the table (exact mode): rehash into a fresh area above, then move it down. */
function ttGrow(): void {
  const oldSize = <usize>16 << ttLog2;
  const bits = ttLog2 + 1;
  const newSize = <usize>16 << bits;
  const scratch = ttBase + oldSize;
  ensureMemory(scratch + newSize);
  memory.fill(scratch, 0, newSize);
  const base = generation << GEN_SHIFT;
  const shift = 64 - <u64>bits;
  const mask = (<u64>1 << bits) - 1;
  for (let at = ttBase; at < ttBase + oldSize; at += 16) {
    const stamp = load<u32>(at, 8);
    if ((stamp & ~STAMP_LOW) != base) continue;
    const b = load<u64>(at);
    let i = (b * 0x9e3779b97f4a7c15) >> shift;
    while ((load<u32>(scratch + (<usize>i << 4), 8) & ~STAMP_LOW) == base) i = (i + 1) & mask;
    memory.copy(scratch + (<usize>i << 4), at, 16);
  }
  memory.copy(ttBase, scratch, newSize);
  ttLog2 = bits;
  ttMask = mask;
  ttShift = shift;
}

// ---- search ----

let depthLimit: i32 = 0;
let curDepth: i32 = 0;
let executions: u64 = 0;
let deadline: f64 = Infinity;
let stopped = false;
let nextCheck: u64 = CHECK_EXECUTIONS;
/** Move executions a search may do before it is abandoned (setExecutionLimit; about u64 max = none). */
let executionLimit: u64 = U64.MAX_VALUE - 1;

/** Abandon the search once the clock passes the deadline or the executions pass their budget. Checked by
 *  executions, not nodes, so the time between two checks does not depend on the shape of the tree. */
function poll(): void {
  const next = executions + CHECK_EXECUTIONS;
  nextCheck = next <= executionLimit ? next : executionLimit + 1;
  if (executions > executionLimit || hostNow() > deadline) stopped = true;
}

/**
 * Budget of move executions for the following searches (searchRoot, searchChild): a search that goes past
 * it is abandoned (returns NaN) at the next chance node, deterministically (tests, reproducible runs).
 * Infinity, NaN or a negative value: no budget.
 */
export function setExecutionLimit(limit: f64): void {
  executionLimit = limit >= 0 && limit < 1.8e19 ? <u64>limit : U64.MAX_VALUE - 1;
}

function startSearch(limit: i32, cutoff: f32, stopAt: f64): void {
  depthLimit = limit;
  threshold = cutoff > 0 ? cutoff : REFERENCE_THRESHOLD;
  inverseThreshold = <f32>1 / threshold;
  if (threshold != epochCutoff) {
    epochCutoff = threshold;
    epoch = (epoch + 1) & EPOCH_MASK;
  }
  curDepth = 0;
  deadline = stopAt;
  stopped = false;
  nextCheck = executionLimit < CHECK_EXECUTIONS ? executionLimit + 1 : CHECK_EXECUTIONS;
}

// Play's table keeps entries across searches and across cut-offs, and a chance node's value depends on how
// far below it the cut-off prunes: on its cumulative probability over the cut-off. An entry records that
// ratio (its prune quality, in half steps of log2) and serves only a node it prunes no more than (a node of
// equal or lower ratio). Otherwise an entry of the previous decision, whose nodes were one move further from
// their root and so pruned harder, would serve this one, and a lower cut-off would read the values of the
// higher one back (and search nothing).

const QUALITY_MASK: u32 = 0x3f;
let inverseThreshold: f32 = <f32>1 / REFERENCE_THRESHOLD;
/** Play: entries carry their prune quality (off: every entry serves any node needing no more depth). */
let qualityOn = true;

export function ttUseQuality(on: bool): void {
  qualityOn = on;
}

/** Play: the searches of one decision at one cut-off (mod 256: at most 9 a decision, so an entry's epoch
 *  comes round again only after 28 decisions or more, when the age has long let it be replaced), ticked by ttAgeTick and by a search whose
 *  cut-off differs from the last one's. Within an epoch an entry serves any node (as the reference's
 *  table does: a transposition reached by paths of different probability); across epochs only nodes it
 *  prunes no more than. */
let epoch: u32 = 0;
let epochCutoff: f32 = 0;
const EPOCH_MASK: u32 = 0xff;

/** 2·log2(cprob / threshold) rounded down, within 0..QUALITY_MASK (cprob >= 1e-9: at most 60); 0 when qualities are off
 *  or in the exact table (the reference ignores how a cached value was pruned). */
@inline function qualityOf(cprob: f32): u32 {
  if (!qualityOn || ttExact || tableShared) return 0;
  const q = <i32>(reinterpret<u32>(cprob * inverseThreshold) >> 22) - 254;
  return q <= 0 ? 0 : q >= <i32>QUALITY_MASK ? QUALITY_MASK : <u32>q;
}

/** Shared build: a helper thread searches the cells last to first, so that it and the thread it helps
 *  meet in the middle of one subtree, each finding what the other stored (setReverse). */
let reverse = false;

/** The next empty cell of a chance node: the lowest one, or the highest for a helper (shared build). */
@inline function nextCell(mask: u64): u64 {
  if (ASC_FEATURE_THREADS && reverse) return (<u64>1) << (63 - clz(mask));
  return mask & (~mask + 1);
}

/** Shared build: search the cells of chance nodes last to first (a helper thread) or first to last. */
export function setReverse(on: bool): void {
  reverse = on;
}

function chance(b: u64, cprob: f32): f32 {
  if (cprob < threshold || curDepth >= depthLimit) return networkOn ? leafValue(b) : heuristicOf(b);
  if (executions >= nextCheck) poll();
  if (stopped) return 0;
  const remaining = <u32>(depthLimit - curDepth);
  const cache = curDepth < CACHE_DEPTH_LIMIT;
  const quality = qualityOf(cprob);
  // The root chance node is always expanded: with the table kept across searches it may hold the root's
  // value from an earlier search (a fresh table, as in the reference configuration, never does).
  if (cache && curDepth > 0) {
    const cached = ttGet(b, remaining, quality);
    if (cached == cached) return cached;
  }
  let mask = emptyMask(b);
  const open = <f32>(<i32>popcnt(mask));
  const p = cprob / open;
  const p9 = p * P9;
  const p1 = p * P1;
  let res: f32 = 0;
  if (p9 < threshold || curDepth + 1 >= depthLimit) {
    // Every child is a max node over leaves (p1 < p9).
    while (mask != 0) {
      const t = nextCell(mask);
      mask ^= t;
      res += leafMax(b | t) * P9;
      res += leafMax(b | (t << 1)) * P1;
    }
  } else {
    while (mask != 0) {
      const t = nextCell(mask);
      mask ^= t;
      res += maxNode(b | t, p9) * P9;
      res += maxNode(b | (t << 1), p1) * P1;
    }
  }
  res = res / open;
  if (cache) ttPut(b, remaining, quality, res);
  return res;
}

/** A max node whose chance children are all leaves (valued at once by the heuristic or the network). */
function leafMax(b: u64): f32 {
  if (networkOn) return leafMaxNetwork(b);
  executions += 4;
  let best: f32 = 0;
  const t = transpose(b);
  // up / down: moves of the transposed rows; the moved rows are the child's columns.
  let m = movedLeft(t);
  if (m != t) best = max<f32>(best, heurRows(transpose(m)) + heurRows(m));
  m = movedRight(t);
  if (m != t) best = max<f32>(best, heurRows(transpose(m)) + heurRows(m));
  m = movedLeft(b);
  if (m != b) best = max<f32>(best, heurRows(m) + heurRows(transpose(m)));
  m = movedRight(b);
  if (m != b) best = max<f32>(best, heurRows(m) + heurRows(transpose(m)));
  return best;
}

/** With the network: the best of a move's score plus its afterstate's value. */
function leafMaxNetwork(b: u64): f32 {
  executions += 4;
  let best: f32 = 0;
  const t = transpose(b);
  let m = moveRows(t, MOVE_SCORE_LEFT);
  if (m != t) best = max<f32>(best, <f32>movedScore + leafValue(transpose(m)));
  m = moveRows(t, MOVE_SCORE_RIGHT);
  if (m != t) best = max<f32>(best, <f32>movedScore + leafValue(transpose(m)));
  m = moveRows(b, MOVE_SCORE_LEFT);
  if (m != b) best = max<f32>(best, <f32>movedScore + leafValue(m));
  m = moveRows(b, MOVE_SCORE_RIGHT);
  if (m != b) best = max<f32>(best, <f32>movedScore + leafValue(m));
  return best;
}

/** With the network: the best of a move's score plus its chance node's value. */
function maxNodeNetwork(b: u64, cprob: f32): f32 {
  curDepth++;
  executions += 4;
  let best: f32 = 0;
  const t = transpose(b);
  let m = moveRows(t, MOVE_SCORE_LEFT);
  let score = <f32>movedScore;
  if (m != t) best = max<f32>(best, score + chance(transpose(m), cprob));
  m = moveRows(t, MOVE_SCORE_RIGHT);
  score = <f32>movedScore;
  if (m != t) best = max<f32>(best, score + chance(transpose(m), cprob));
  m = moveRows(b, MOVE_SCORE_LEFT);
  score = <f32>movedScore;
  if (m != b) best = max<f32>(best, score + chance(m, cprob));
  m = moveRows(b, MOVE_SCORE_RIGHT);
  score = <f32>movedScore;
  if (m != b) best = max<f32>(best, score + chance(m, cprob));
  curDepth--;
  return best;
}

function maxNode(b: u64, cprob: f32): f32 {
  if (cprob < threshold || curDepth + 1 >= depthLimit) return leafMax(b);
  if (networkOn) return maxNodeNetwork(b, cprob);
  curDepth++;
  executions += 4;
  let best: f32 = 0;
  const t = transpose(b);
  let m = movedLeft(t);
  if (m != t) best = max<f32>(best, chance(transpose(m), cprob));
  m = movedRight(t);
  if (m != t) best = max<f32>(best, chance(transpose(m), cprob));
  m = movedLeft(b);
  if (m != b) best = max<f32>(best, chance(m, cprob));
  m = movedRight(b);
  if (m != b) best = max<f32>(best, chance(m, cprob));
  curDepth--;
  return best;
}

// ---- exports ----

function boardOf(lo: u32, hi: u32): u64 {
  return <u64>lo | (<u64>hi << 32);
}

let outBoard: u64 = 0;

/** Execute move `dir` (0 up, 1 down, 2 left, 3 right); the board is read with outLo/outHi; returns the score. */
export function move(lo: u32, hi: u32, dir: i32): u32 {
  const b = boardOf(lo, hi);
  let score: u32 = 0;
  if (dir == 2 || dir == 3) {
    const table = dir == 2 ? SCORE_LEFT : SCORE_RIGHT;
    for (let s: u64 = 0; s < 64; s += 16) score += load<u32>(table + (<usize>((b >> s) & 0xffff) << 2));
    outBoard = dir == 2 ? movedLeft(b) : movedRight(b);
  } else {
    const t = transpose(b);
    const table = dir == 0 ? SCORE_LEFT : SCORE_RIGHT;
    for (let s: u64 = 0; s < 64; s += 16) score += load<u32>(table + (<usize>((t >> s) & 0xffff) << 2));
    outBoard = transpose(dir == 0 ? movedLeft(t) : movedRight(t));
  }
  return score;
}

export function outLo(): u32 {
  return <u32>outBoard;
}

export function outHi(): u32 {
  return <u32>(outBoard >> 32);
}

export function heuristic(lo: u32, hi: u32): f32 {
  return heuristicOf(boardOf(lo, hi));
}

export function lineHeuristicOf(row: u32): f32 {
  return heur(<u64>(row & 0xffff));
}

/**
 * Value of root move `dir` searched to `limit` move layers (the root chance node at depth 0), as the
 * reference computes it (+1e-6; 0 when illegal), or NaN when stopped at `stopAt` (host clock, ms).
 * `fresh`: start a new table generation (the reference); otherwise entries of earlier searches are reused.
 * `cutoff`: the cumulative-probability cut-off (0: the reference's, the float nearest 0.0001).
 */
export function searchRoot(lo: u32, hi: u32, dir: i32, limit: i32, stopAt: f64, fresh: bool, cutoff: f32): f32 {
  const score = move(lo, hi, dir);
  const nb = outBoard;
  executions = 0;
  if (nb == boardOf(lo, hi)) return 0;
  if (fresh) ttNewGeneration();
  startSearch(limit, cutoff, stopAt);
  const v = chance(nb, 1);
  if (stopped) return NaN;
  if (networkOn) return <f32>score + v;
  return <f32>(<f64>v + 1e-6);
}

/** Move executions of the last searchRoot. */
export function lastExecutions(): f64 {
  return <f64>executions;
}

/**
 * One child of a root move's chance node, for sharing one search between threads: the root move `dir`,
 * then the spawn `child` (child >> 1 = which empty cell, counted in cell order; child & 1 = a 4, else a 2),
 * searched as the whole search would search it (cumulative probability 0.9/open or 0.1/open). Returns the
 * child's value, unweighted (the caller adds 0.9·v2 + 0.1·v4 per cell in cell order and divides by the
 * empty cells, as the root chance node does); NaN when stopped; 0 when the move is illegal or the child
 * does not exist. `fresh`, `cutoff` and executions as searchRoot: the children of one root move searched in
 * order on one table, the first fresh, reproduce searchRoot's values and executions exactly.
 */
export function searchChild(lo: u32, hi: u32, dir: i32, limit: i32, child: i32, stopAt: f64, fresh: bool, cutoff: f32): f32 {
  const score = move(lo, hi, dir);
  const b = outBoard;
  executions = 0;
  if (b == boardOf(lo, hi)) return 0;
  let mask = emptyMask(b);
  const open = <f32>(<i32>popcnt(mask));
  for (let k = child >> 1; k > 0 && mask != 0; k--) mask &= mask - 1;
  if (child < 0 || mask == 0) return 0;
  if (fresh) ttNewGeneration();
  startSearch(limit, cutoff, stopAt);
  const t = mask & (~mask + 1);
  const p = <f32>1 / open;
  const v = (child & 1) != 0 ? maxNode(b | (t << 1), p * P1) : maxNode(b | t, p * P9);
  if (stopped) return NaN;
  // With the network the root move's score is in every child (so in their average, the root's value).
  return networkOn ? <f32>score + v : v;
}
