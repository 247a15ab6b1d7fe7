/**
 * Where a training run starts from, so that every run on whatever machine adds to the same network:
 * - a checkpoint (exact: f32 weights, TC's sums, each thread's random state and restart board, the counters);
 * - a network file (the committed models/4x6.ntn: 16-bit weights, no TC sums — those are re-derived by a
 *   warm-up that gathers the errors without moving the weights; the random state is new);
 * - nothing (every weight at its initial value).
 * Plain `npm run train` takes this machine's checkpoint when it is at least as far as the committed network,
 * else the committed network: a fresh clone goes on from what was committed, a machine that kept its
 * checkpoint goes on exactly (docs/cli.md, "train").
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeNetworkFile } from '../../engine/network/format';
import type { Network } from '../../engine/network/format';
import { UsageError } from '../args';
import { readCheckpointHeader } from './checkpoint';
import { decodeNetworkFile } from '../network';
import type { CheckpointHeader } from './checkpoint';

/**
 * Where plain runs keep their network and checkpoint: the user's cache (XDG_CACHE_HOME or ~/.cache), outside
 * the work tree, so a checkout laid anew on the same machine still finds the exact checkpoint.
 */
export function defaultTrainingDir(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), '2048-autopilot', 'train');
}

/** The committed network of a shape (models/SHAPE.ntn in the repository): where a fresh machine goes on from. */
export function committedNetworkFile(shape: string): string {
  return fileURLToPath(new URL(`../../../models/${shape}.ntn`, import.meta.url));
}

interface CheckpointSource {
  readonly kind: 'checkpoint';
  readonly file: string;
  readonly header: CheckpointHeader;
  readonly dataOffset: number;
  /** Why this one (printed). */
  readonly why: string;
}

interface NetworkSource {
  readonly kind: 'network';
  readonly file: string;
  readonly network: Network;
  /** Its stages' ranks (stage s values boards whose largest rank is at least stages[s]). */
  readonly stages: readonly number[];
  /** What its metadata say of the training behind it (0 and '' where they say nothing). */
  readonly episodes: number;
  readonly hours: number;
  readonly moves: number;
  /** Its earlier runs and the commands that trained it, as one text. */
  readonly earlier: string;
  readonly why: string;
}

export type TrainingSource = CheckpointSource | NetworkSource | { readonly kind: 'fresh' };

function readNetworkSource(file: string, why: string): NetworkSource {
  let network: Network;
  try {
    network = decodeNetworkFile(file);
  } catch (error) {
    throw new UsageError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const m = network.metadata;
  const numberOf = (key: string): number => (typeof m[key] === 'number' ? (m[key] as number) : 0);
  const earlier = [m.earlier, m.commands].filter((text) => typeof text === 'string' && text !== '').join('; ');
  return { kind: 'network', file, network, stages: network.stages, episodes: numberOf('episodes'), hours: numberOf('hours'), moves: numberOf('moves'), earlier, why };
}

function readCheckpointSource(file: string, why: string): CheckpointSource {
  const { header, dataOffset } = readCheckpointHeader(file);
  return { kind: 'checkpoint', file, header, dataOffset, why };
}

/** Episodes a network file says it was trained for (its header only; -1 when it cannot be read). */
function committedEpisodes(file: string): number {
  try {
    const episodes = describeNetworkFile(readFileSync(file)).metadata.episodes;
    return typeof episodes === 'number' ? episodes : -1;
  } catch {
    return -1;
  }
}

export interface SourceChoice {
  readonly resume: string | undefined;
  readonly from: string | undefined;
  readonly checkpoint: string;
  readonly shape: string;
  /** --fresh: start from initial weights whatever there is to go on from. */
  readonly fresh: boolean;
  /** The committed network to go on from when this machine has no checkpoint as far (committedNetworkFile). */
  readonly committed: string;
}

/** The source of a run: --resume, --from, else this machine's checkpoint or the committed network (the further one). */
export function chooseSource(choice: SourceChoice): TrainingSource {
  if (choice.resume !== undefined) return readCheckpointSource(choice.resume, '--resume');
  if (choice.from !== undefined) return readNetworkSource(choice.from, '--from');
  if (choice.fresh) return { kind: 'fresh' };
  const { committed } = choice;
  const hasCommitted = existsSync(committed);
  if (existsSync(choice.checkpoint)) {
    const checkpoint = readCheckpointSource(choice.checkpoint, 'this machine\'s checkpoint, at least as far as the committed network');
    const ahead = !hasCommitted || checkpoint.header.episodes >= committedEpisodes(committed);
    if (checkpoint.header.shape === choice.shape && ahead) return checkpoint;
    if (hasCommitted) return readNetworkSource(committed, `the committed network; this machine's checkpoint ${choice.checkpoint} is behind it`);
  }
  if (hasCommitted) return readNetworkSource(committed, 'the committed network; no checkpoint on this machine');
  return { kind: 'fresh' };
}

/** How far the training behind a source went: its counters, its runs, and the earlier history it carries. */
export function progressOf(source: TrainingSource): { episodes: number; moves: number; seconds: number; runs: CheckpointHeader['runs']; earlier: string } {
  if (source.kind === 'checkpoint') {
    const h = source.header;
    return { episodes: h.episodes, moves: h.moves, seconds: h.seconds, runs: h.runs, earlier: h.earlier ?? '' };
  }
  if (source.kind === 'network') return { episodes: source.episodes, moves: source.moves, seconds: source.hours * 3600, runs: [], earlier: source.earlier };
  return { episodes: 0, moves: 0, seconds: 0, runs: [], earlier: '' };
}
