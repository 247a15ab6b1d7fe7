/**
 * npm run train -- --out FILE [--network 4x6|4x4] [--episodes N] [--threads T] [--seed S] [--resume CKPT] ...
 *
 * Trains the n-tuple network by self-play on T worker threads sharing one set of weights (the hot loop is
 * WebAssembly: src/engine/wasm/assembly/train.ts). Prints a progress line every few seconds, writes a
 * checkpoint atomically every few minutes and on Ctrl-C, and the network file at the end (docs: engine.md,
 * "The learned evaluation"; docs/cli.md, "train").
 */
import { renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { deflateSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';
import { encodeNetwork, quantise } from '../engine/network/format';
import type { Network, WeightEncoding } from '../engine/network/format';
import { SHAPE_NAMES, shapeId, weightCount } from '../engine/network/shapes';
import type { ShapeName } from '../engine/network/shapes';
import { UsageError, parseCommandLine, runCli } from './args';
import { THREAD_STATE_BYTES, readCheckpointHeader, readIntoMemory, writeCheckpoint } from './train/checkpoint';
import type { CheckpointHeader } from './train/checkpoint';
import { CONTROL_REMAINING, CONTROL_STOP, instantiateTrainer } from './train/protocol';
import type { LearningSettings, TrainWorkerData, TrainWorkerReport } from './train/protocol';
import { RecentGames, formatProgress } from './train/progress';
import { formatNumber } from './table';
import { TRAIN_WASM_FILE, readWasm } from './wasm-files';
import asconfig from '../engine/wasm/asconfig.json';

const USAGE = `Usage: npm run train -- --out FILE [--network 4x6|4x4] [--episodes N] [--threads T] [--seed S]
                       [--resume CKPT] [--checkpoint CKPT] [--checkpoint-minutes M] [--encoding i16|f32] [--bits B]
                       [--rate tc|fixed] [--alpha A] [--lambda L] [--steps N] [--init V] [--restarts on|off]

Trains the n-tuple network by self-play; Ctrl-C stops, checkpoints and writes the network.

Options:
  --out FILE            the network file to write (at the end, and at every checkpoint)
  --network SHAPE       4x6 (default: four 6-cell tuples, 256 MiB of f32) | 4x4 (a tiny network, for tests)
  --episodes N          train until N episodes in all, those of a resumed checkpoint included (default 100000)
  --threads T           worker threads sharing the weights (default: the machine's cores)
  --seed S              seed of the self-play, 0..4294967295 (default: from the clock, printed)
  --resume CKPT         continue from a checkpoint (its shape and learning-rate mode)
  --checkpoint CKPT     where checkpoints go (default FILE.ckpt)
  --checkpoint-minutes M  minutes between checkpoints (default 5)
  --encoding E          the network file's weights: i16 (default, quantised) | f32
  --bits B              i16: the largest weight's bits, 4..16 (default 16; fewer: a smaller file, coarser weights)
  --rate R              tc (default: temporal coherence, a rate per weight) | fixed
  --alpha A             learning rate over the 32 features (default 1 with tc, 0.1 with fixed)
  --lambda L            TD(λ)'s λ (default 0.5)          --steps N   λ-return truncated after N moves (default 5)
  --init V              initial value of every board (default 0; a large one explores: optimistic TD)
  --restarts on|off     follow each long game with one from its middle (default on)
  --progress-seconds S  seconds between progress lines (default 10)`;

const OPTIONS = {
  out: { type: 'string' },
  network: { type: 'string' },
  episodes: { type: 'string' },
  threads: { type: 'string' },
  seed: { type: 'string' },
  resume: { type: 'string' },
  checkpoint: { type: 'string' },
  'checkpoint-minutes': { type: 'string' },
  encoding: { type: 'string' },
  bits: { type: 'string' },
  rate: { type: 'string' },
  alpha: { type: 'string' },
  lambda: { type: 'string' },
  steps: { type: 'string' },
  init: { type: 'string' },
  restarts: { type: 'string' },
  'progress-seconds': { type: 'string' },
} as const;

const WORKER_ENTRY = new URL('./train/worker-entry.mjs', import.meta.url);
const MAX_EPISODES = 1e9;

interface TrainOptions {
  readonly out: string;
  readonly shape: ShapeName;
  readonly episodes: number;
  readonly seed: number;
  readonly resume: string | undefined;
  readonly checkpoint: string;
  readonly checkpointMs: number;
  readonly progressMs: number;
  readonly encoding: WeightEncoding;
  /** i16: the bits of the largest weight's integer (16: it maps to 32 767). */
  readonly bits: number;
  readonly settings: LearningSettings;
}

function parseOptions(argv: readonly string[]): TrainOptions {
  const args = parseCommandLine(argv, OPTIONS);
  const out = args.string('out');
  if (out === undefined) throw new UsageError('--out FILE is required (the network file to write)');
  const resume = args.string('resume');
  let shape = args.choice<ShapeName>('network', SHAPE_NAMES, '4x6');
  let coherence = args.choice('rate', ['tc', 'fixed'], 'tc') === 'tc';
  if (resume !== undefined) {
    const { header } = readCheckpointHeader(resume);
    if (args.has('network') && header.shape !== shape) throw new UsageError(`--network ${shape} but the checkpoint holds a ${header.shape} network`);
    if (args.has('rate') && header.coherence !== coherence) throw new UsageError(`--rate does not match the checkpoint's (${header.coherence ? 'tc' : 'fixed'})`);
    shape = header.shape as ShapeName;
    coherence = header.coherence;
  }
  const seed = args.int('seed', { min: 0, max: 0xffffffff }) ?? (Date.now() >>> 0);
  return {
    out,
    shape,
    episodes: args.int('episodes', { min: 0, max: MAX_EPISODES }, 100000) ?? 100000,
    seed,
    resume,
    checkpoint: args.string('checkpoint') ?? `${out}.ckpt`,
    checkpointMs: (args.number('checkpoint-minutes', { min: 0.05, max: 1440 }, 5) ?? 5) * 60000,
    progressMs: (args.number('progress-seconds', { min: 0.1, max: 3600 }, 10) ?? 10) * 1000,
    encoding: args.choice<WeightEncoding>('encoding', ['i16', 'f32'], 'i16'),
    bits: args.int('bits', { min: 4, max: 16 }, 16) ?? 16,
    settings: {
      shapeId: shapeId(shape),
      threads: args.int('threads', { min: 1, max: 64 }, availableParallelism()) ?? 1,
      coherence,
      initial: args.number('init', { min: 0, max: 1e7 }, 0) ?? 0,
      alpha: args.number('alpha', { min: 1e-6, max: 10 }, coherence ? 1 : 0.1) ?? 1,
      lambda: args.number('lambda', { min: 0, max: 1 }, 0.5) ?? 0.5,
      steps: args.int('steps', { min: 1, max: 15 }, 5) ?? 5,
      restarts: args.choice('restarts', ['on', 'off'], 'on') === 'on',
    },
  };
}

function loadModule(): WebAssembly.Module {
  return new WebAssembly.Module(new Uint8Array(readWasm(TRAIN_WASM_FILE)));
}

/** The trained weights as a network (f32, or quantised to i16). */
function networkOf(weights: Float32Array, shape: ShapeName, encoding: WeightEncoding, bits: number, metadata: Network['metadata']): Network {
  if (encoding === 'f32') return { shape, encoding, scale: 1, stages: [0], weights: weights.slice(), metadata };
  const q = quantise(weights, bits);
  return { shape, encoding, scale: q.scale, stages: [0], weights: q.weights, metadata };
}

async function train(options: TrainOptions, command: string): Promise<void> {
  const { settings } = options;
  const module = loadModule();
  const memory = new WebAssembly.Memory({ initial: 64, maximum: asconfig.targets.train.maximumMemory, shared: true });
  const trainer = instantiateTrainer(module, memory);
  const weightsAt = trainer.setup(settings.shapeId, settings.threads, settings.coherence ? 1 : 0, settings.initial, 1);
  const regionBytes = trainer.weightBytes() * (settings.coherence ? 3 : 1);
  const count = weightCount(options.shape);
  const recent = new RecentGames(1000);
  let episodes = 0;
  let moves = 0;
  let seconds = 0;
  let runs: CheckpointHeader['runs'] = [];
  let savedThreads = 0;

  if (options.resume !== undefined) {
    const { header, dataOffset } = readCheckpointHeader(options.resume);
    if (header.regionBytes !== regionBytes) throw new Error(`${options.resume}: its weights take ${header.regionBytes} bytes, a ${options.shape} network ${regionBytes}`);
    readIntoMemory(options.resume, dataOffset, { memory, offset: weightsAt, bytes: regionBytes });
    savedThreads = Math.min(header.threads, settings.threads);
    for (let t = 0; t < savedThreads; t++) {
      readIntoMemory(options.resume, dataOffset + regionBytes + t * THREAD_STATE_BYTES, { memory, offset: trainer.threadBlock(t), bytes: THREAD_STATE_BYTES });
    }
    episodes = header.episodes;
    moves = header.moves;
    seconds = header.seconds;
    runs = header.runs;
    for (const game of header.recent) recent.add(game[0], game[1], game[2]);
    process.stdout.write(`train: resumed ${options.resume} at ${formatNumber(episodes)} episodes\n`);
  }

  const runStart = performance.now();
  const checkpointHeader = (): CheckpointHeader => ({
    shape: options.shape,
    coherence: settings.coherence,
    threads: settings.threads,
    episodes,
    moves,
    seconds: seconds + (performance.now() - runStart) / 1000,
    regionBytes,
    recent: recent.games(),
    runs: [...runs, { command, seed: options.seed, until: episodes }],
  });
  const save = (withCheckpoint = true): void => {
    const header = checkpointHeader();
    if (withCheckpoint) writeCheckpoint(options.checkpoint, header, { memory, offset: weightsAt, bytes: regionBytes }, Array.from({ length: settings.threads }, (_, t) => ({ memory, offset: trainer.threadBlock(t), bytes: THREAD_STATE_BYTES })));
    const weights = new Float32Array(count);
    weights.set(new Float32Array(memory.buffer, weightsAt, count));
    const metadata = {
      shape: options.shape,
      episodes: header.episodes,
      moves: header.moves,
      hours: Math.round((header.seconds / 3600) * 100) / 100,
      rate: settings.coherence ? 'tc' : 'fixed',
      alpha: settings.alpha,
      lambda: settings.lambda,
      steps: settings.steps,
      restarts: settings.restarts ? 'on' : 'off',
      ...(options.encoding === 'i16' ? { bits: options.bits } : {}),
      commands: header.runs.map((run) => `${run.command} (seed ${run.seed}, until ${run.until})`).join('; '),
      written: new Date().toISOString(),
    };
    writeFileSync(`${options.out}.tmp`, encodeNetwork(networkOf(weights, options.shape, options.encoding, options.bits, metadata), (bytes) => deflateSync(bytes, { level: 6 })));
    // A rename over the old file: a reader sees the old network or the new one, never half of one.
    renameSync(`${options.out}.tmp`, options.out);
  };

  const remaining = Math.max(0, options.episodes - episodes);
  process.stdout.write(`train: ${options.shape} network, ${settings.coherence ? 'TC' : 'fixed rate'} alpha ${settings.alpha}, λ ${settings.lambda} over ${settings.steps} moves, restarts ${settings.restarts ? 'on' : 'off'}, init ${settings.initial}; ${settings.threads} thread${settings.threads === 1 ? '' : 's'}, seed ${options.seed}; ${formatNumber(remaining)} episodes to go\n`);
  const control = new Int32Array(new SharedArrayBuffer(8));
  control[CONTROL_REMAINING] = Math.min(remaining, 0x7fffffff);
  const workers: Worker[] = [];
  let live = settings.threads;
  let lastProgress = performance.now();
  let lastCheckpoint = performance.now();
  let windowEpisodes = 0;
  let windowMoves = 0;
  let stopping = false;

  await new Promise<void>((resolve, reject) => {
    const onSignal = (): void => {
      if (stopping) return;
      stopping = true;
      process.stdout.write('\ntrain: stopping (finishing the current chunks, then a checkpoint)\n');
      Atomics.store(control, CONTROL_STOP, 1);
      Atomics.store(new Int32Array(memory.buffer), trainer.stopWord() >> 2, 1);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const finish = (error?: Error): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (error) {
        Atomics.store(control, CONTROL_STOP, 1);
        for (const worker of workers) void worker.terminate();
        reject(error);
      } else resolve();
    };
    if (remaining === 0) {
      finish();
      return;
    }
    for (let thread = 0; thread < settings.threads; thread++) {
      const data: TrainWorkerData = { module, memory, control: control.buffer as SharedArrayBuffer, thread, seed: (options.seed + thread * 0x9e3779b9) >>> 0, reseed: thread >= savedThreads, settings };
      const worker = new Worker(WORKER_ENTRY, { workerData: data });
      workers.push(worker);
      worker.on('message', (report: TrainWorkerReport) => {
        if (report.type === 'done') {
          live--;
          if (live === 0) finish();
          return;
        }
        const n = report.records.length / 4;
        for (let i = 0; i < n; i++) recent.add(report.records[i * 4], report.records[i * 4 + 1], report.records[i * 4 + 2]);
        episodes += n;
        moves += report.moves;
        windowEpisodes += n;
        windowMoves += report.moves;
        const now = performance.now();
        if (now - lastProgress >= options.progressMs) {
          const elapsed = (now - lastProgress) / 1000;
          process.stdout.write(`${formatProgress({ episodes, target: options.episodes, episodesPerSecond: windowEpisodes / elapsed, movesPerSecond: windowMoves / elapsed, threads: settings.threads, recent, seconds: seconds + (now - runStart) / 1000 })}\n`);
          lastProgress = now;
          windowEpisodes = 0;
          windowMoves = 0;
        }
        if (now - lastCheckpoint >= options.checkpointMs) {
          save();
          lastCheckpoint = performance.now();
        }
      });
      worker.on('error', (error) => finish(error));
      worker.on('exit', (code) => {
        if (code !== 0) finish(new Error(`a trainer thread exited with code ${code}`));
      });
    }
  });
  // A run that played nothing (a resumed checkpoint exported again, e.g. with other --bits) writes the
  // network only: the checkpoint it read is unchanged.
  const played = remaining > 0;
  save(played);
  process.stdout.write(`train: ${formatNumber(episodes)} episodes, ${formatNumber(moves)} moves; ${played ? `checkpoint ${options.checkpoint}, ` : ''}network ${options.out}\n`);
}

const argv = process.argv.slice(2);
await runCli(USAGE, () => train(parseOptions(argv), `npm run train -- ${argv.join(' ')}`));
