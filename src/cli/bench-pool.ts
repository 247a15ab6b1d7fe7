/**
 * Plays the games of a bench on worker threads. Games are handed out one at a time to whichever worker is
 * free and collected by index, so the results depend on the seed only, not on the number of threads.
 */
import { Worker } from 'node:worker_threads';
import type { PlayGameRequest, WorkerReply } from './bench-protocol';
import type { Grid } from '../engine/index';
import type { GameSettings } from './game';
import { gameSeeds } from './seeds';
import type { GameResult } from './stats';

export interface BenchProgress {
  readonly done: number;
  readonly total: number;
  /** Games under way: index → moves so far and best tile. */
  readonly running: ReadonlyMap<number, { moves: number; maxTile: number }>;
  readonly finished: readonly GameResult[];
}

export interface RunGamesOptions {
  readonly games: number;
  /** The index of the first game (default 0): games first..first+games-1 of a longer bench, numbered, seeded
   *  and started as there (the bench's --first-game). */
  readonly first?: number;
  readonly seed: number;
  readonly jobs: number;
  readonly settings: GameSettings;
  /** Boards to start from: game i starts from starts[i % starts.length] (the bench's --start). */
  readonly starts?: readonly Grid[];
  readonly onProgress?: (progress: BenchProgress) => void;
}

const WORKER_ENTRY = new URL('./bench-worker-entry.mjs', import.meta.url);

/** The settings game `index` (of the whole bench) is played with: the bench's, from its board when there are starts. */
export function settingsOfGame(options: Pick<RunGamesOptions, 'settings' | 'starts'>, index: number): GameSettings {
  const { settings, starts } = options;
  return starts && starts.length > 0 ? { ...settings, start: starts[index % starts.length] } : settings;
}

export function runGamesInWorkers(options: RunGamesOptions): Promise<GameResult[]> {
  const first = options.first ?? 0;
  const seeds = gameSeeds(options.seed, options.games, first);
  const results: GameResult[] = new Array<GameResult>(options.games);
  const finished: GameResult[] = [];
  const running = new Map<number, { moves: number; maxTile: number }>();
  const workerCount = Math.max(1, Math.min(options.jobs, options.games));
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;

  return new Promise<GameResult[]>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      if (error) reject(error);
      else resolve(results);
    };
    const report = (): void => options.onProgress?.({ done, total: options.games, running, finished });
    const handOut = (worker: Worker): void => {
      if (next >= options.games) return;
      const slot = next++;
      const index = first + slot;
      running.set(index, { moves: 0, maxTile: 0 });
      const request: PlayGameRequest = { type: 'play', index, seed: seeds[slot], settings: settingsOfGame(options, index) };
      worker.postMessage(request);
    };
    if (options.games === 0) {
      resolve(results);
      return;
    }
    for (let i = 0; i < workerCount; i++) {
      const worker = new Worker(WORKER_ENTRY);
      workers.push(worker);
      worker.on('message', (message: WorkerReply) => {
        if (message.type === 'progress') {
          running.set(message.index, { moves: message.moves, maxTile: message.maxTile });
          report();
        } else if (message.type === 'result') {
          results[message.result.index - first] = message.result;
          finished.push(message.result);
          running.delete(message.result.index);
          done++;
          report();
          if (done === options.games) finish();
          else handOut(worker);
        } else {
          finish(new Error(`game ${message.index + 1}: ${message.message}`));
        }
      });
      worker.on('error', (error) => finish(error));
      worker.on('exit', (code) => {
        if (!settled) finish(new Error(`a bench worker exited early (code ${code})`));
      });
      handOut(worker);
    }
  });
}
