// Compare evaluation weights of expectimax by self-play at a fixed depth, fast enough for hundreds of games:
// the WebAssembly core (src/engine/wasm/build/engine.wasm) searches every root move to --depth layers (the
// probability cut-off of the reference, the transposition table kept across moves, no clock), and the game
// spawns from its own seeded generator (game i of seed K is the same game for every weight set until the
// moves differ). Prints one JSON line: games reaching 2048..32768, mean and median score, moves, seconds.
//
//   node scripts/tune-weights.mjs [--games 600] [--seed 1] [--depth 2] [--jobs 2] [--target 65536]
//                                 [--weights lost,empty,merges,monotonicity,monotonicityPower,sum,sumPower]
//                                 [--four-cut P]   (a 4's spawn valued as the 2's below probability P; default 0:
//                                                   every 4 searched, as the figures in the README's tuning table)
//
// The shallow weights (src/engine/board.ts SHALLOW_WEIGHTS) were chosen with it; timed play then kept the
// reference's: README, "Tuning the evaluation".
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { WASM_FILE, buildWasm } from './build-wasm.mjs';

const REFERENCE = '200000,270,700,47,4,11,3.5';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function positiveInt(name, fallback) {
  const value = Number(option(name, fallback));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive integer`);
  return value;
}

/** mulberry32: a small seeded generator, the same in every worker. */
function generator(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One game on `core` to game over or `target`: { score, moves, max }. */
function playGame(core, seed, depth, target) {
  const random = generator(seed);
  let lo = 0;
  let hi = 0;
  const cell = (i) => ((i < 8 ? lo >>> (4 * i) : hi >>> (4 * (i - 8))) & 15);
  const spawn = () => {
    const empty = [];
    for (let i = 0; i < 16; i++) if (cell(i) === 0) empty.push(i);
    const at = empty[Math.floor(random() * empty.length)];
    const rank = random() < 0.9 ? 1 : 2;
    if (at < 8) lo = (lo | (rank << (4 * at))) >>> 0;
    else hi = (hi | (rank << (4 * (at - 8)))) >>> 0;
  };
  spawn();
  spawn();
  core.ttNewGeneration();
  let score = 0;
  let moves = 0;
  let max = 0;
  for (;;) {
    let best = -1;
    let bestValue = -1;
    for (let dir = 0; dir < 4; dir++) {
      const value = core.searchRoot(lo, hi, dir, depth, Infinity, false, 0);
      if (value > 0 && value > bestValue) {
        bestValue = value;
        best = dir;
      }
    }
    if (best < 0) break;
    score += core.move(lo, hi, best);
    lo = core.outLo() >>> 0;
    hi = core.outHi() >>> 0;
    moves++;
    for (let i = 0; i < 16; i++) max = Math.max(max, cell(i));
    if (2 ** max >= target) break;
    spawn();
  }
  return { score, moves, max: 2 ** max };
}

if (isMainThread) {
  const games = positiveInt('games', 600);
  const seed = positiveInt('seed', 1);
  const jobs = positiveInt('jobs', availableParallelism());
  const depth = positiveInt('depth', 2);
  const target = positiveInt('target', 65536);
  const weights = option('weights', REFERENCE).split(',').map(Number);
  const fourCut = Number(option('four-cut', '0'));
  if (!Number.isFinite(fourCut) || fourCut < 0 || fourCut > 1) throw new Error('--four-cut takes a probability from 0 to 1');
  if (weights.length !== 7 || weights.some((w) => !Number.isFinite(w) || w < 0)) throw new Error('--weights takes 7 numbers ≥ 0');
  await buildWasm({ quiet: true });
  const results = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(jobs, games) }, () => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { depth, target, weights, fourCut } });
      return new Promise((resolve, reject) => {
        const give = () => {
          if (next < games) worker.postMessage(seed * 100003 + next++);
          else void worker.terminate().then(resolve);
        };
        worker.on('message', (result) => {
          results.push(result);
          give();
        });
        worker.on('error', reject);
        give();
      });
    }),
  );
  const reach = {};
  for (const tile of [2048, 4096, 8192, 16384, 32768]) reach[tile] = results.filter((r) => r.max >= tile).length;
  const scores = results.map((r) => r.score).sort((a, b) => a - b);
  const summary = {
    weights: weights.join(','),
    fourCut,
    depth,
    games,
    reach,
    meanScore: Math.round(scores.reduce((a, b) => a + b, 0) / games),
    medianScore: scores[games >> 1],
    moves: results.reduce((a, r) => a + r.moves, 0),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} else {
  const imports = { env: { now: () => performance.now(), abort: () => { throw new Error('wasm core: abort'); } } };
  const { instance } = await WebAssembly.instantiate(readFileSync(WASM_FILE), imports);
  const core = instance.exports;
  core.init();
  core.setHeuristicWeights(...workerData.weights);
  core.setFourCut(workerData.fourCut);
  core.ttConfigure(20, false);
  parentPort.on('message', (gameSeed) => parentPort.postMessage(playGame(core, gameSeed, workerData.depth, workerData.target)));
}
