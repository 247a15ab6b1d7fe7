/**
 * npm run train [-- --out FILE] [--network 4x6|4x4] [--episodes N] [--threads T] [--seed S] [--resume CKPT] ...
 *
 * Trains the n-tuple network by self-play on T worker threads sharing one set of weights (the hot loop is
 * WebAssembly: src/engine/wasm/assembly/train.ts). Plain, it goes on from this machine's checkpoint or from
 * the committed network, whichever is further (./train/source.ts), and says which. Prints a progress line
 * every few seconds, writes a checkpoint atomically every few minutes and on Ctrl-C, and the network file
 * beside it (docs: engine.md, "The learned evaluation"; docs/cli.md, "train").
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { deflateSync } from 'node:zlib';
import { encodeNetwork, quantise } from '../engine/network/format';
import type { Network, WeightEncoding } from '../engine/network/format';
import { SHAPE_NAMES, shapeId, weightCount } from '../engine/network/shapes';
import type { ShapeName } from '../engine/network/shapes';
import { UsageError, isEntryPoint, parseCommandLine, runCli } from './args';
import type { CliIo } from './args';
import { THREAD_STATE_BYTES, readIntoMemory, writeCheckpoint } from './train/checkpoint';
import { chooseSource, committedNetworkFile, defaultTrainingDir, progressOf } from './train/source';
import type { TrainingSource } from './train/source';
import type { CheckpointHeader } from './train/checkpoint';
import { instantiateTrainer } from './train/protocol';
import type { LearningSettings } from './train/protocol';
import { copyStageZero, loadCheckpoint, loadNetwork } from './train/memory';
import type { Layout } from './train/memory';
import { runPhase } from './train/phase';
import { RecentGames, formatProgress } from './train/progress';
import { formatNumber } from './table';
import { TRAIN_WASM_FILE, readWasm } from './wasm-files';
import asconfig from '../engine/wasm/asconfig.json';

const USAGE = `Usage: npm run train [-- --out FILE] [--network 4x6|4x4] [--episodes N] [--threads T] [--seed S]
                       [--resume CKPT | --from NETWORK | --fresh] [--stages RANK] [--late-restarts N] [--warmup N]
                       [--checkpoint CKPT] [--checkpoint-minutes M] [--encoding i16|f32] [--bits B]
                       [--rate tc|fixed] [--alpha A] [--lambda L] [--steps N] [--init V] [--restarts on|off]

Trains the n-tuple network by self-play; Ctrl-C stops, checkpoints and writes the network. Plain, it goes on
from this machine's checkpoint (FILE.ckpt) or from the committed network (models/SHAPE.ntn), whichever is
further, and says which.

Options:
  --out FILE            the network file to write at every checkpoint and at the end (default
                        ~/.cache/2048-autopilot/train/SHAPE.ntn: outside the checkout, kept by the machine)
  --network SHAPE       4x6 (default: four 6-cell tuples, 256 MiB of f32 a stage) | 4x4 (a tiny network, for tests)
  --episodes N          train until N episodes in all, those trained before included (default: 100000 from
                        scratch; going on, until stopped)
  --threads T           worker threads sharing the weights (default: the machine's cores)
  --seed S              seed of the self-play, 0..4294967295 (default: from the clock, printed)
  --resume CKPT         go on exactly from a checkpoint (its shape, rates and stages)
  --from NETWORK        go on from a network file (its weights; TC's rates re-derived by the warm-up)
  --fresh               start from initial weights even where there is something to go on from
  --stages RANK         two stages, the second for boards whose largest rank is at least RANK (14: the 16384);
                        0: one stage (default: the source's stages, else one; a split from a network file
                        measured worse so far: docs/research/2026-11-28-training-across-machines.md)
  --late-restarts N     with two stages: games restarted from a late board after each fresh game that got
                        there (default 3)
  --warmup N            episodes that gather TC's rates before a network file learns again (default 10000)
  --checkpoint CKPT     where checkpoints go (default FILE.ckpt)
  --checkpoint-minutes M  minutes between checkpoints (default 5)
  --encoding E          the network file's weights: i16 (default, quantised) | f32
  --bits B              i16: the largest weight's bits, 4..16 (default 15: a two-stage file that fits a 64 MiB
                        package, measured level with 16 bits; fewer: a smaller file, coarser weights)
  --rate R              tc (default: temporal coherence, a rate per weight) | fixed
  --alpha A             learning rate over the 32 features (default 1 with tc, 0.1 with fixed)
  --lambda L            TD(λ)'s λ (default 0.5)          --steps N   λ-return truncated after N moves (default 5)
  --init V              initial value of every board (default 0; a large one explores: optimistic TD)
  --restarts on|off     follow each long game with one from its middle (default on)
  --progress-seconds S  seconds between progress lines (default 10)`;

/**
 * i16 files' default precision: 15 bits, so that a two-stage network fits the 64 MiB release package (at 417 340
 * episodes 59.8 MB against 66.8 MB at 16 bits; one-ply over the same 1 000 games 16384 35.8 % against 36.5 %,
 * within noise: docs/research/2026-11-28-training-across-machines.md, 2026-12-07 evening).
 */
const DEFAULT_BITS = 15;

const OPTIONS = {
  out: { type: 'string' },
  from: { type: 'string' },
  fresh: { type: 'boolean' },
  stages: { type: 'string' },
  'late-restarts': { type: 'string' },
  warmup: { type: 'string' },
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

const MAX_EPISODES = 1e9;
const DEFAULT_LATE_RESTARTS = 3;
const DEFAULT_WARMUP = 10000;

interface TrainOptions {
  readonly out: string;
  readonly shape: ShapeName;
  readonly episodes: number | undefined;
  readonly seed: number;
  readonly source: TrainingSource;
  readonly checkpoint: string;
  readonly checkpointMs: number;
  readonly progressMs: number;
  readonly encoding: WeightEncoding;
  /** i16: the bits of the largest weight's integer (15 by default: it maps to 16 383). */
  readonly bits: number;
  /** Stage ranks of the network trained ([0] or [0, late rank]). */
  readonly stages: readonly number[];
  readonly lateRestarts: number;
  readonly warmup: number;
  readonly settings: LearningSettings;
}

function sourceStages(source: TrainingSource): readonly number[] | undefined {
  if (source.kind === 'checkpoint') return source.header.stages ?? [0];
  if (source.kind === 'network') return source.stages;
  return undefined;
}

function parseOptions(argv: readonly string[]): TrainOptions {
  const args = parseCommandLine(argv, OPTIONS);
  const given = [args.has('resume'), args.has('from'), args.flag('fresh')].filter(Boolean).length;
  if (given > 1) throw new UsageError('give one of --resume, --from and --fresh');
  let shape = args.choice<ShapeName>('network', SHAPE_NAMES, '4x6');
  const out = args.string('out') ?? join(defaultTrainingDir(), `${shape}.ntn`);
  const checkpoint = args.string('checkpoint') ?? `${out}.ckpt`;
  const source = chooseSource({ resume: args.string('resume'), from: args.string('from'), checkpoint, shape, fresh: args.flag('fresh'), committed: committedNetworkFile(shape) });
  let coherence = args.choice('rate', ['tc', 'fixed'], 'tc') === 'tc';
  if (source.kind === 'checkpoint') {
    const { header } = source;
    if (args.has('network') && header.shape !== shape) throw new UsageError(`--network ${shape} but the checkpoint holds a ${header.shape} network`);
    if (args.has('rate') && header.coherence !== coherence) throw new UsageError(`--rate does not match the checkpoint's (${header.coherence ? 'tc' : 'fixed'})`);
    shape = header.shape as ShapeName;
    coherence = header.coherence;
  } else if (source.kind === 'network') {
    if (args.has('network') && source.network.shape !== shape) throw new UsageError(`--network ${shape} but ${source.file} holds a ${source.network.shape} network`);
    shape = source.network.shape;
  }
  const had = sourceStages(source);
  const lateRank = args.int('stages', { min: 0, max: 15 }, had !== undefined && had.length > 1 ? had[1] : 0) ?? 0;
  if (had !== undefined && had.length > 1 && lateRank !== had[1]) throw new UsageError(`--stages ${lateRank} but the source's late stage starts at rank ${had[1]}`);
  const stages = lateRank > 0 ? [0, lateRank] : [0];
  if (had !== undefined && had.length > stages.length) throw new UsageError('--stages 0 but the source has two stages');
  const seed = args.int('seed', { min: 0, max: 0xffffffff }) ?? (Date.now() >>> 0);
  const lateRestarts = stages.length > 1 ? (args.int('late-restarts', { min: 0, max: 100 }, DEFAULT_LATE_RESTARTS) ?? DEFAULT_LATE_RESTARTS) : 0;
  return {
    out,
    shape,
    episodes: args.int('episodes', { min: 0, max: MAX_EPISODES }),
    seed,
    source,
    checkpoint,
    checkpointMs: (args.number('checkpoint-minutes', { min: 0.05, max: 1440 }, 5) ?? 5) * 60000,
    progressMs: (args.number('progress-seconds', { min: 0.1, max: 3600 }, 10) ?? 10) * 1000,
    encoding: args.choice<WeightEncoding>('encoding', ['i16', 'f32'], 'i16'),
    bits: args.int('bits', { min: 4, max: 16 }, DEFAULT_BITS) ?? DEFAULT_BITS,
    stages,
    lateRestarts,
    warmup: args.int('warmup', { min: 0, max: MAX_EPISODES }, DEFAULT_WARMUP) ?? DEFAULT_WARMUP,
    settings: {
      shapeId: shapeId(shape),
      threads: args.int('threads', { min: 1, max: 64 }, availableParallelism()) ?? 1,
      coherence,
      initial: args.number('init', { min: 0, max: 1e7 }, 0) ?? 0,
      alpha: args.number('alpha', { min: 1e-6, max: 10 }, coherence ? 1 : 0.1) ?? 1,
      lambda: args.number('lambda', { min: 0, max: 1 }, 0.5) ?? 0.5,
      steps: args.int('steps', { min: 1, max: 15 }, 5) ?? 5,
      restarts: args.choice('restarts', ['on', 'off'], 'on') === 'on',
      stageCount: stages.length,
      lateRank: stages[stages.length - 1],
      lateRestarts,
      frozen: false,
    },
  };
}

function loadModule(): WebAssembly.Module {
  return new WebAssembly.Module(new Uint8Array(readWasm(TRAIN_WASM_FILE)));
}

/** The trained weights as a network (f32, or quantised to i16), every stage. */
function networkOf(weights: Float32Array, options: TrainOptions, metadata: Network['metadata']): Network {
  const { shape, encoding, stages } = options;
  if (encoding === 'f32') return { shape, encoding, scale: 1, stages, weights: weights.slice(), metadata };
  const q = quantise(weights, options.bits);
  return { shape, encoding, scale: q.scale, stages, weights: q.weights, metadata };
}

async function train(options: TrainOptions, command: string): Promise<void> {
  const { settings, source } = options;
  const module = loadModule();
  const memory = new WebAssembly.Memory({ initial: 64, maximum: asconfig.targets.train.maximumMemory, shared: true });
  const trainer = instantiateTrainer(module, memory);
  trainer.setStages(settings.stageCount, settings.lateRank);
  const weightsAt = trainer.setup(settings.shapeId, settings.threads, settings.coherence ? 1 : 0, settings.initial, 1);
    const count = weightCount(options.shape);
  const regionBytes = trainer.weightBytes() * (settings.coherence ? 3 : 1);
  const layout: Layout = { memory, weightsAt, count, stageCount: options.stages.length, coherence: settings.coherence };
  const recent = new RecentGames(1000);
  const before = progressOf(source);
  let { episodes, moves } = before;
  let savedThreads = 0;
  mkdirSync(dirname(options.out), { recursive: true });
  mkdirSync(dirname(options.checkpoint), { recursive: true });

  const split = (from: number): string => (options.stages.length > from ? `, split into two stages (the late one from the ${2 ** options.stages[1]} on)` : '');
  if (source.kind === 'checkpoint') {
    loadCheckpoint(layout, source);
    const from = source.header.stages?.length ?? 1;
    if (from < options.stages.length) copyStageZero(layout);
    // Each thread's random state and restart board: exact when the stages are unchanged.
    savedThreads = from === options.stages.length ? Math.min(source.header.threads, settings.threads) : 0;
    for (let t = 0; t < savedThreads; t++) {
      readIntoMemory(source.file, source.dataOffset + source.header.regionBytes + t * THREAD_STATE_BYTES, { memory, offset: trainer.threadBlock(t), bytes: THREAD_STATE_BYTES });
    }
    for (const game of source.header.recent) recent.add(game[0], game[1], game[2]);
    process.stdout.write(`train: resumed ${source.file} (${source.why}) at ${formatNumber(episodes)} episodes, ${(before.seconds / 3600).toFixed(2)} h (exact${split(from)})\n`);
  } else if (source.kind === 'network') {
    loadNetwork(layout, source.network, source.stages.length);
    if (source.stages.length < options.stages.length) copyStageZero(layout);
    process.stdout.write(`train: going on from ${source.file} (${source.why}) at ${formatNumber(episodes)} episodes, ${source.hours.toFixed(2)} h${split(source.stages.length)}; a network file keeps no learning-rate state: ${settings.coherence && options.warmup > 0 ? `TC's rates re-derived by a warm-up of ${formatNumber(options.warmup)} episodes` : 'rates start afresh'}\n`);
  } else process.stdout.write(`train: a new ${options.shape} network from initial weights\n`);

  const target = options.episodes ?? (source.kind === 'fresh' ? 100000 : MAX_EPISODES);
  const runStart = performance.now();
  const runs = before.runs;
  const checkpointHeader = (): CheckpointHeader => ({
    shape: options.shape,
    coherence: settings.coherence,
    threads: settings.threads,
    episodes,
    moves,
    seconds: before.seconds + (performance.now() - runStart) / 1000,
    regionBytes,
    recent: recent.games(),
    runs: [...runs, { command, seed: options.seed, until: episodes }],
    stages: options.stages,
    lateRestarts: options.lateRestarts,
    earlier: before.earlier,
  });
  const save = (withCheckpoint = true): void => {
    const header = checkpointHeader();
    if (withCheckpoint) writeCheckpoint(options.checkpoint, header, { memory, offset: weightsAt, bytes: regionBytes }, Array.from({ length: settings.threads }, (_, t) => ({ memory, offset: trainer.threadBlock(t), bytes: THREAD_STATE_BYTES })));
    const weights = new Float32Array(count * options.stages.length);
    weights.set(new Float32Array(memory.buffer, weightsAt, weights.length));
    const thisRuns = header.runs.map((run) => `${run.command} (seed ${run.seed}, until ${run.until})`).join('; ');
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
      ...(options.stages.length > 1 ? { stages: options.stages.join(','), lateRestarts: options.lateRestarts } : {}),
      ...(options.encoding === 'i16' ? { bits: options.bits } : {}),
      commands: [header.earlier, thisRuns].filter((text) => text !== '').join('; '),
      written: new Date().toISOString(),
    };
    try {
      writeFileSync(`${options.out}.tmp`, encodeNetwork(networkOf(weights, options, metadata), (bytes) => deflateSync(bytes, { level: 6 })));
      // A rename over the old file: a reader sees the old network or the new one, never half of one.
      renameSync(`${options.out}.tmp`, options.out);
    } catch (error) {
      process.stdout.write(`train: the network file was not written (${error instanceof Error ? error.message : String(error)}); the checkpoint holds the run\n`);
    }
  };

  if (source.kind === 'network' && settings.coherence && options.warmup > 0 && target > episodes) {
    let warmed = 0;
    let last = performance.now();
    const stopped = await runPhase({ module, memory, stopWord: trainer.stopWord(), settings, seed: options.seed, frozen: true, episodes: options.warmup, reseedFrom: 0 }, (report) => {
      warmed += report.records.length / 4;
      if (performance.now() - last >= options.progressMs) {
        process.stdout.write(`train: warm-up ${formatNumber(warmed)} of ${formatNumber(options.warmup)} episodes (weights unchanged, TC's rates gathering)\n`);
        last = performance.now();
      }
    });
    process.stdout.write(`train: warm-up done (${formatNumber(warmed)} episodes)\n`);
    if (stopped) {
      process.stdout.write('train: stopped during the warm-up: nothing written\n');
      return;
    }
    // The warm-up's games chose the restarts: fresh games from here on, with new random states.
    savedThreads = 0;
  }

  const remaining = Math.max(0, target - episodes);
  const stageText = options.stages.length > 1 ? `two stages (late from the ${2 ** options.stages[1]} on, ${options.lateRestarts} late restarts)` : 'one stage';
  if (remaining > 0) process.stdout.write(`train: ${options.shape} network, ${stageText}, ${settings.coherence ? 'TC' : 'fixed rate'} alpha ${settings.alpha}, λ ${settings.lambda} over ${settings.steps} moves, restarts ${settings.restarts ? 'on' : 'off'}, init ${settings.initial}; ${settings.threads} thread${settings.threads === 1 ? '' : 's'}, seed ${options.seed}; ${target >= MAX_EPISODES ? 'until stopped (Ctrl-C)' : `${formatNumber(remaining)} episodes to go`}; checkpoint ${options.checkpoint}, network ${options.out}\n`);
  let lastProgress = performance.now();
  let lastCheckpoint = performance.now();
  let windowEpisodes = 0;
  let windowMoves = 0;
  await runPhase({ module, memory, stopWord: trainer.stopWord(), settings, seed: options.seed, frozen: false, episodes: remaining, reseedFrom: savedThreads }, (report) => {
    const n = report.records.length / 4;
    for (let i = 0; i < n; i++) recent.add(report.records[i * 4], report.records[i * 4 + 1], report.records[i * 4 + 2]);
    episodes += n;
    moves += report.moves;
    windowEpisodes += n;
    windowMoves += report.moves;
    const now = performance.now();
    if (now - lastProgress >= options.progressMs) {
      const elapsed = (now - lastProgress) / 1000;
      process.stdout.write(`${formatProgress({ episodes, target: target >= MAX_EPISODES ? undefined : target, episodesPerSecond: windowEpisodes / elapsed, movesPerSecond: windowMoves / elapsed, threads: settings.threads, recent, seconds: before.seconds + (now - runStart) / 1000 })}\n`);
      lastProgress = now;
      windowEpisodes = 0;
      windowMoves = 0;
    }
    if (now - lastCheckpoint >= options.checkpointMs) {
      save();
      lastCheckpoint = performance.now();
    }
  });
  // A run that played nothing (a resumed checkpoint exported again, e.g. with other --bits) writes the
  // network only: the checkpoint it read is unchanged.
  const played = remaining > 0;
  save(played);
  process.stdout.write(`train: ${formatNumber(episodes)} episodes, ${formatNumber(moves)} moves; ${played ? `checkpoint ${options.checkpoint}, ` : ''}network ${options.out}\n`);
}

/** `npm run train -- ARGS`: its exit status, its usage and errors through `io` (the training writes to the process). */
export function cli(argv: readonly string[], io?: CliIo): Promise<number> {
  return runCli(USAGE, () => train(parseOptions(argv), `npm run train${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`), io);
}

if (isEntryPoint(import.meta.url)) await cli(process.argv.slice(2));
