/**
 * The trainer's hot loop (AssemblyScript entry compiled to build/train.wasm on an imported shared memory):
 * self-play of the 4x4 game, choosing each move greedily by reward + the network's value of the afterstate,
 * and learning the afterstate values by backward TD(λ) at the end of each game (docs: engine.md, "The learned
 * evaluation"), with temporal-coherence learning rates (TC: a per-weight rate |E|/A from the sums of its
 * errors E and of their sizes A) or a fixed rate, from any initial value (optimistic values explore).
 *
 * Threads: each worker instantiates this module on the same shared memory and trains in its own block, all
 * of them on the one set of weights (lock-free: a lost update now and then costs nothing measurable).
 *
 * Memory after the heap base: weights f32 [n], then with TC the pairs (error sum E f32, sum of sizes A f32)
 * [n] (one cache line for both), then one block per thread (THREAD_BLOCK bytes): its state, its finished games and its path.
 *
 * Restarts: a game that lasted more than RESTART_MIN moves is followed by one started from the afterstate in
 * the middle of its path (the late game is seen more often); a chain of such games counts as one episode, and
 * only its first game, played from a fresh board, counts in the statistics.
 *
 * Stages: with two stages (setStages), boards whose largest rank is at least the late stage's rank are valued
 * and taught by a second set of weights (and sums) right after the first; a game that reached the late stage is
 * followed by up to `lateRestarts` games started from one of its late afterstates, chosen uniformly, before the
 * restarts from the middle take over again: the boards where games are decided are seen many times over.
 *
 * Warm-up (setFrozen): the sizes of the TD errors are gathered into TC's sums A while the weights and the
 * signed sums E stay as they are (0), so a network read from a file (which keeps its weights but not its sums)
 * starts learning again with every rate |E|/A at 0, rising only where the errors keep one sign: a weight that
 * was settled is not thrown about by noise. (Gathering E too gives rates of about 1/sqrt(warm-up visits), far
 * above those of the run that made the file: measured, its games fell from 36 % to 14 % reaching the 16384 —
 * docs/research/2026-11-28-training-across-machines.md.)
 */
import {
  SCORE_LEFT, SCORE_RIGHT, emptyMask, fillMoveTables, maxRank, movedLeft, movedRight, rowsScore, transpose,
} from "./bitboard";
import { FEATURES, SHAPE_4X4, SHAPE_4X6, evaluateF32, features, weightCount } from "./ntuple";

/** Moves of one game kept for its backward update; a longer game learns what it has and goes on. */
const PATH_CAP: u32 = 1 << 17;
/** A game of more moves than this is followed by a restart from its middle. */
const RESTART_MIN: u32 = 10;
/** Games of one train() call at most (their records). */
export const MAX_RESULTS: u32 = 4096;

// Thread block layout (bytes from its start).
const T_RNG: usize = 0; // u64
const T_RESTART: usize = 8; // u64: the board the next game starts from (0: a fresh board)
const T_LATE: usize = 16; // u32: late restarts left in the current chain
const T_FEATURES: usize = 64; // u32 x FEATURES
const T_RESULTS: usize = T_FEATURES + <usize>FEATURES * 4; // per finished episode: score u32, moves u32, max rank u32, u32 pad
const T_PATH_BOARDS: usize = T_RESULTS + <usize>MAX_RESULTS * 16; // u64 x PATH_CAP
const T_WINDOW: usize = T_PATH_BOARDS + <usize>PATH_CAP * 8; // 16 bytes x WINDOW_CAP
const THREAD_BLOCK: usize = (T_WINDOW + 16 * 16 + 63) & ~<usize>63;

/** A word the host sets (atomically) to stop every thread's train() after the game under way. */
const STOP: usize = memory.data(8, 8);

let shape: i32 = SHAPE_4X6;
let count: usize = 0;
let weights: usize = 0;
let errors: usize = 0;
let blocks: usize = 0;
let threads: u32 = 1;
let coherence = true;
let learning = true;
let restarts = true;
/** The step of one feature: the learning rate over the 32 features. */
let step: f32 = <f32>(1.0 / 32);
let lambda: f32 = 0.5;
let block: usize = 0;
let ready = false;
/** Sets of weights (1 or 2) and the largest rank from which the second one values a board. */
let stageCount: u32 = 1;
let lateRank: u32 = 0;
/** Games started from late afterstates after a fresh game reached the late stage. */
let lateRestarts: u32 = 0;
/** true: learn() gathers TC's sums and leaves the weights alone (the warm-up). */
let frozen = false;

/**
 * Two stages (`count` 2, the second from largest rank `rank` on) or one (`count` 1). Call it before setup()
 * in every instance, with the same arguments.
 */
export function setStages(count: u32, rank: u32): void {
  stageCount = count == 2 ? 2 : 1;
  lateRank = rank;
}

/** Late restarts per fresh game that reached the late stage (two stages only). */
export function setLateRestarts(n: u32): void {
  lateRestarts = n;
}

/** Warm-up on (the weights stay, TC's sums gather) or off. */
export function setFrozen(on: bool): void {
  frozen = on;
}

/** The stage that values board `b`: 0, or 1 when its largest rank has reached the late stage. */
@inline function stageOf(b: u64): usize {
  return stageCount > 1 && maxRank(b) >= lateRank ? 1 : 0;
}

function ensureMemory(end: usize): void {
  const have = <usize>memory.size() << 16;
  if (end > have) {
    const pages = <i32>((end - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) unreachable();
  }
}

/**
 * Lay out the memory for `threadCount` threads training a network of `shapeId` (with TC's sums or not).
 * Every instance calls it with the same arguments; the first (`owner`) also grows and fills the memory:
 * every weight `initial` / 32 (so every board is valued `initial`), the sums 0. Returns the weights' address.
 */
export function setup(shapeId: i32, threadCount: u32, tc: bool, initial: f32, owner: bool): usize {
  if (!ready) {
    fillMoveTables();
    ready = true;
  }
  shape = shapeId == SHAPE_4X4 ? SHAPE_4X4 : SHAPE_4X6;
  threads = threadCount;
  coherence = tc;
  count = weightCount(shape);
  const all = count * <usize>stageCount;
  weights = (__heap_base + 63) & ~<usize>63;
  errors = weights + (all << 2);
  blocks = tc ? errors + (all << 3) : errors;
  if (owner) {
    ensureMemory(blocks + <usize>threads * THREAD_BLOCK);
    const w = initial / <f32>FEATURES;
    for (let i: usize = 0; i < all; i++) store<f32>(weights + (i << 2), w);
    if (tc) memory.fill(errors, 0, all << 3);
    memory.fill(blocks, 0, <usize>threads * THREAD_BLOCK);
  }
  return weights;
}

/** The address of the stop word: non-zero makes train() return after the game under way. */
export function stopWord(): usize {
  return STOP;
}

/** Bytes of the weights of every stage (TC's sums, twice as many bytes, follow them). */
export function weightBytes(): usize {
  return (count * <usize>stageCount) << 2;
}

/** Address of thread `t`'s block. */
export function threadBlock(t: u32): usize {
  return blocks + <usize>t * THREAD_BLOCK;
}

/** Address of the finished games' records of thread `t` (score, moves, max rank, 0: u32 each). */
export function resultsOf(t: u32): usize {
  return threadBlock(t) + T_RESULTS;
}

/** Train (or, `learn` false, only play) in thread `t`'s block from now on. */
export function useThread(t: u32, seedLo: u32, seedHi: u32, reseed: bool): void {
  block = threadBlock(t);
  if (reseed) {
    let s = (<u64>seedHi << 32) | <u64>seedLo;
    s = s ^ 0x9e3779b97f4a7c15;
    store<u64>(block + T_RNG, s == 0 ? 1 : s);
    store<u64>(block + T_RESTART, 0);
    store<u32>(block + T_LATE, 0);
  }
}

/** The learning rate (alpha, over all 32 features), λ, and whether games restart from their middle. */
export function configure(alpha: f32, lam: f32, steps: u32, restart: bool, learn: bool): void {
  step = alpha / <f32>FEATURES;
  lambda = lam;
  window = steps < 1 ? 1 : steps > WINDOW_CAP - 1 ? WINDOW_CAP - 1 : steps;
  restarts = restart;
  learning = learn;
}

// ---- random numbers: xorshift64* in the thread's block ----

let rng: u64 = 1;

@inline function nextRandom(): u64 {
  let x = rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng = x;
  return x * 0x2545f4914f6cdd1d;
}

/** A 2 (0.9) or a 4 (0.1) in a uniformly chosen empty cell; the board must have one. */
@inline function spawn(b: u64): u64 {
  let mask = emptyMask(b);
  const r = nextRandom();
  const open = <u64>popcnt(mask);
  let k = ((r >> 32) * open) >> 32;
  while (k > 0) {
    mask &= mask - 1;
    k--;
  }
  const cell = mask & (~mask + 1);
  return b | ((r & 0xffffffff) < 429496730 ? cell << 1 : cell);
}

// ---- one move: the best afterstate ----

let chosenAfter: u64 = 0;
let chosenReward: u32 = 0;
let chosenValue: f32 = 0;

/** Choose the move of the highest reward + value; false when no move changes the board. */
@inline function choose(b: u64): bool {
  let found = false;
  let best: f32 = 0;
  const t = transpose(b);
  let m = movedLeft(t);
  if (m != t) {
    const r = rowsScore(t, SCORE_LEFT);
    const a = transpose(m);
    const value = evaluateF32(shape, a, weights + (stageOf(a) * count << 2));
    best = <f32>r + value;
    found = true;
    chosenAfter = a;
    chosenReward = r;
    chosenValue = value;
  }
  m = movedRight(t);
  if (m != t) {
    const r = rowsScore(t, SCORE_RIGHT);
    const a = transpose(m);
    const value = evaluateF32(shape, a, weights + (stageOf(a) * count << 2));
    const v = <f32>r + value;
    if (!found || v > best) {
      best = v;
      found = true;
      chosenAfter = a;
      chosenReward = r;
      chosenValue = value;
    }
  }
  m = movedLeft(b);
  if (m != b) {
    const r = rowsScore(b, SCORE_LEFT);
    const value = evaluateF32(shape, m, weights + (stageOf(m) * count << 2));
    const v = <f32>r + value;
    if (!found || v > best) {
      best = v;
      found = true;
      chosenAfter = m;
      chosenReward = r;
      chosenValue = value;
    }
  }
  m = movedRight(b);
  if (m != b) {
    const r = rowsScore(b, SCORE_RIGHT);
    const value = evaluateF32(shape, m, weights + (stageOf(m) * count << 2));
    if (!found || <f32>r + value > best) {
      found = true;
      chosenAfter = m;
      chosenReward = r;
      chosenValue = value;
    }
  }
  return found;
}

// ---- learning ----

/** Move the value of `b` towards `target` by the step (TC: each weight at its own rate). */
function learn(b: u64, target: f32): void {
  const out = block + T_FEATURES;
  features(shape, b, out);
  const stage = stageOf(b) * count;
  const w = weights + (stage << 2);
  // The value now, summed in the order evaluateF32 sums (its images, then its halves).
  let value: f32 = 0;
  for (let i: usize = 0; i < <usize>FEATURES; i++) value += load<f32>(w + (<usize>load<u32>(out + (i << 2)) << 2));
  const delta = step * (target - value);
  if (coherence) {
    const size = abs<f32>(delta);
    const e = errors + (stage << 3);
    for (let i: usize = 0; i < <usize>FEATURES; i++) {
      const index = <usize>load<u32>(out + (i << 2));
      const sums = e + (index << 3);
      const err = load<f32>(sums);
      const total = load<f32>(sums, 4);
      if (!frozen) {
        const rate: f32 = total > 0 ? abs<f32>(err) / total : 1;
        const at = w + (index << 2);
        store<f32>(at, load<f32>(at) + rate * delta);
        store<f32>(sums, err + delta);
      }
      store<f32>(sums, total + size, 4);
    }
  } else if (!frozen) {
    for (let i: usize = 0; i < <usize>FEATURES; i++) {
      const at = w + (<usize>load<u32>(out + (i << 2)) << 2);
      store<f32>(at, load<f32>(at) + delta);
    }
  }
}

// The window of afterstates waiting for their λ-return: board u64, the reward of the move after it f32, its
// value when it was chosen f32 (16 bytes each), oldest first from `pending`'s head (a ring of WINDOW_CAP).
const WINDOW_CAP: u32 = 16;
let window: u32 = 5;
let head: u32 = 0;
let pending: u32 = 0;

@inline function slot(i: u32): usize {
  return block + T_WINDOW + (<usize>((head + i) & (WINDOW_CAP - 1)) << 4);
}

/** The truncated λ-return of the oldest pending afterstate over the others, up to a last value `last`. */
function lambdaReturn(last: f32): f32 {
  let g = last;
  let next = last;
  for (let i = <i32>pending - 1; i >= 0; i--) {
    const at = slot(<u32>i);
    g = load<f32>(at, 8) + (1 - lambda) * next + lambda * g;
    next = load<f32>(at, 12);
  }
  return g;
}

/** Learn the oldest pending afterstate's λ-return (truncated at `last`, the newest value) and drop it. */
function learnOldest(last: f32): void {
  const g = lambdaReturn(last);
  learn(load<u64>(slot(0)), g);
  head = (head + 1) & (WINDOW_CAP - 1);
  pending--;
}

/** A move was chosen: afterstate `a` of value `v`, reached by a move of reward `r`. */
@inline function observe(a: u64, r: f32, v: f32): void {
  if (pending > 0) store<f32>(slot(pending - 1), r, 8);
  if (pending == window) learnOldest(v);
  const at = slot(pending);
  store<u64>(at, a);
  store<f32>(at, 0, 8);
  store<f32>(at, v, 12);
  pending++;
}

/** The game ended after the newest afterstate: every pending one learns its return, 0 after the last. */
function flush(): void {
  while (pending > 0) learnOldest(0);
  head = 0;
}

// ---- games ----

let moves: f64 = 0;

/**
 * Play `episodes` episodes in the current thread's block (learning unless configured not to). Each fresh
 * game's record (score, moves, max rank) goes to the thread's results; returns how many were written.
 */
export function train(episodes: u32): u32 {
  rng = load<u64>(block + T_RNG);
  let written: u32 = 0;
  const boards = block + T_PATH_BOARDS;
  const results = block + T_RESULTS;
  let done: u32 = 0;
  while (done < episodes && written < MAX_RESULTS && atomic.load<u32>(STOP) == 0) {
    const restart = load<u64>(block + T_RESTART);
    const fresh = restart == 0;
    let b = fresh ? spawn(spawn(0)) : spawn(restart);
    store<u64>(block + T_RESTART, 0);
    if (fresh) store<u32>(block + T_LATE, lateRestarts);
    let length: u32 = 0;
    let gameMoves: u32 = 0;
    let score: u64 = 0;
    // The first afterstate of the path in the late stage (-1: none yet).
    let firstLate: i32 = -1;
    while (choose(b)) {
      if (learning) observe(chosenAfter, <f32>chosenReward, chosenValue);
      // The path: afterstates only, for the restarts (a very long game keeps its last part).
      if (length == PATH_CAP) {
        length = 0;
        if (firstLate > 0) firstLate = 0;
      }
      store<u64>(boards + (<usize>length << 3), chosenAfter);
      if (firstLate < 0 && stageOf(chosenAfter) > 0) firstLate = <i32>length;
      length++;
      gameMoves++;
      score += chosenReward;
      b = spawn(chosenAfter);
    }
    moves += <f64>gameMoves;
    const lateLeft = load<u32>(block + T_LATE);
    if (firstLate >= 0 && lateLeft > 0) {
      // One of the late afterstates, uniformly: the stage where games are decided, again.
      const span = <u64>(length - <u32>firstLate);
      const k = <u32>firstLate + <u32>(((nextRandom() >> 32) * span) >> 32);
      store<u64>(block + T_RESTART, load<u64>(boards + (<usize>k << 3)));
      store<u32>(block + T_LATE, lateLeft - 1);
    } else if (restarts && gameMoves > RESTART_MIN) {
      // The afterstate in the middle of the path (of what is left of it after a cut).
      store<u64>(block + T_RESTART, load<u64>(boards + (<usize>(length >> 1) << 3)));
    }
    if (learning) flush();
    if (fresh) {
      const at = results + (<usize>written << 4);
      store<u32>(at, <u32>score);
      store<u32>(at, gameMoves, 4);
      store<u32>(at, maxRank(b), 8);
      store<u32>(at, 0, 12);
      written++;
      done++;
    }
  }
  store<u64>(block + T_RNG, rng);
  return written;
}

/** Moves played by this instance since it was made (all games, restarts included). */
export function movesPlayed(): f64 {
  return moves;
}

/** The value of a board (two u32 halves) under the trained weights. */
export function value(lo: u32, hi: u32): f32 {
  const b = <u64>lo | (<u64>hi << 32);
  return evaluateF32(shape, b, weights + (stageOf(b) * count << 2));
}
