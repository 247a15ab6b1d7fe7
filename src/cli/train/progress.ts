/** The trainer's progress line: episodes, speed, the last games' mean score and tile rates, ETA. */
import { formatNumber } from '../table';

/** Largest ranks whose rates the line shows: 2048 (11) to 32768 (15). */
const RATE_RANKS = [11, 12, 13, 14, 15];

/** The last `capacity` games from fresh boards (score, moves, largest rank). */
export class RecentGames {
  private readonly scores: Float64Array;
  private readonly moves: Float64Array;
  private readonly ranks: Uint8Array;
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.moves = new Float64Array(capacity);
    this.ranks = new Uint8Array(capacity);
  }

  add(score: number, moves: number, rank: number): void {
    this.scores[this.next] = score;
    this.moves[this.next] = moves;
    this.ranks[this.next] = rank;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
  }

  get count(): number {
    return this.size;
  }

  meanScore(): number {
    let sum = 0;
    for (let i = 0; i < this.size; i++) sum += this.scores[i];
    return this.size > 0 ? sum / this.size : 0;
  }

  /** Share of the games whose largest rank reached `rank`. */
  rate(rank: number): number {
    let hits = 0;
    for (let i = 0; i < this.size; i++) if (this.ranks[i] >= rank) hits++;
    return this.size > 0 ? hits / this.size : 0;
  }

  /** Oldest first. */
  games(): [number, number, number][] {
    const out: [number, number, number][] = [];
    for (let k = 0; k < this.size; k++) {
      const i = (this.next - this.size + k + this.capacity) % this.capacity;
      out.push([this.scores[i], this.moves[i], this.ranks[i]]);
    }
    return out;
  }
}

export interface ProgressFigures {
  readonly episodes: number;
  /** Episodes to train to; undefined: until stopped (no share, no ETA). */
  readonly target: number | undefined;
  readonly episodesPerSecond: number;
  readonly movesPerSecond: number;
  readonly threads: number;
  readonly recent: RecentGames;
  /** Seconds trained in all (earlier runs of a resumed network included). */
  readonly seconds: number;
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${s} s`;
}

export function formatProgress(p: ProgressFigures): string {
  const rates = RATE_RANKS.map((rank) => `${2 ** rank} ${(p.recent.rate(rank) * 100).toFixed(1)}%`).join(' ');
  const { target } = p;
  const count =
    target === undefined
      ? `${formatNumber(p.episodes)} episodes`
      : `${formatNumber(p.episodes)}/${formatNumber(target)} episodes (${((target > 0 ? Math.min(1, p.episodes / target) : 1) * 100).toFixed(1)}%)`;
  const eta = target !== undefined && p.episodesPerSecond > 0 ? (target - p.episodes) / p.episodesPerSecond : Infinity;
  return [
    `[${formatDuration(p.seconds)}] ${count}`,
    `${formatNumber(p.episodesPerSecond, 1)} ep/s`,
    `${(p.movesPerSecond / 1e6).toFixed(2)} M moves/s (${(p.movesPerSecond / p.threads / 1e6).toFixed(2)} M/thread)`,
    `last ${formatNumber(p.recent.count)}: mean ${formatNumber(p.recent.meanScore())}, ${rates}`,
    ...(target === undefined ? ['until stopped (Ctrl-C)'] : [`ETA ${formatDuration(eta)}`]),
  ].join(' · ');
}
