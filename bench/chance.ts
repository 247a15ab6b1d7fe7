/**
 * The chance meter's curves and their check (src/engine/chance.ts).
 *
 *   npx tsx bench/chance.ts fit [--games 4000] [--seed 41000] [--jobs J] [--network F]
 *       plays one-ply network games (the "network" strategy), each position's feature against whether its
 *       game reached the milestone, fits the curves and writes them into src/engine/chance-curve.ts with the
 *       network file's SHA-256 (a unit test holds the two together: run this whenever models/4x6.ntn changes).
 *   npx tsx bench/chance.ts measure [--games 1000] [--seed 43000] [--jobs J] [--plot docs/chance-reliability.png]
 *       plays games the fit never saw (other seeds) and prints the reliability table: per tenth of the
 *       estimate, the mean estimate against the share of positions whose game reached the milestone; --plot
 *       draws it (headless Chromium) as a PNG.
 *   --save FILE.json (fit, measure): also writes each game's raw records (every position's feature at 1/64 of a
 *       unit per curve key, for the next milestone and the one after, with the game's best tile) for refitting
 *       offline (bench/chance-offline.ts).
 *   --from FILE.json (fit, repeatable): fits the curves from games a --save wrote (same network) instead of playing;
 *       several runs (other seeds) fit together, none twice.
 *   npx tsx bench/chance.ts cost [--moves 3000] [--time-ms 100]
 *       what the meter adds to a move of the autopilot: one one-ply game's positions, each estimated (CPU
 *       time per estimate) and, for every 100th, searched by expectimax at the budget (the workers' order:
 *       search, then estimate), so the share the meter takes of a move is printed.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runGamesInWorkers } from '../src/cli/bench-pool';
import { RAW_BINS_PER_UNIT, curveSource, fitCurves, formatReliability, reliability } from '../src/cli/chance-samples';
import type { ChanceGame, ChanceMode, ChanceRecord, Reliability } from '../src/cli/chance-samples';
import { endProgress, progress } from '../src/cli/progress-line';
import { estimateChance, getStrategy } from '../src/engine/index';
import type { Grid } from '../src/engine/index';
import { playGame } from '../src/cli/game';
import { useEngine } from '../src/cli/engine';
import { useNetwork } from '../src/cli/network';

const NETWORK = fileURLToPath(new URL('../models/4x6.ntn', import.meta.url));
const CURVE_FILE = fileURLToPath(new URL('../src/engine/chance-curve.ts', import.meta.url));

/** The SHA-256 (hex) of a network file: the identity the curves are fitted for. */
export function networkIdentity(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

async function play(mode: ChanceMode, games: number, seed: number, jobs: number, network: string, raw: boolean): Promise<Awaited<ReturnType<typeof runGamesInWorkers>>> {
  const started = performance.now();
  const results = await runGamesInWorkers({
    games,
    seed,
    jobs,
    settings: { strategy: 'network', options: {}, network, chance: mode, ...(raw ? { chanceRaw: true } : {}) },
    onProgress: (p) => progress(`${mode}: ${p.done}/${p.total} games, ${((performance.now() - started) / 1000).toFixed(0)} s`),
  });
  endProgress();
  process.stdout.write(`${mode}: ${games} one-ply games (seed ${seed}, ${jobs} threads) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return results;
}

/**
 * --save FILE.json: each game's seed, best tile and raw records (ChanceRecord.raw: every position's feature at
 * RAW_BINS_PER_UNIT per curve key, for the next milestone and the one after), so that fitting methods can be
 * fitted on the fit games and judged on the measure games without playing again.
 */
function save(file: string, mode: ChanceMode, seed: number, network: string, results: Awaited<ReturnType<typeof runGamesInWorkers>>): void {
  const games = results.map((r) => ({ seed: r.seed, maxTile: r.maxTile, raw: r.chance?.raw ?? [] }));
  writeFileSync(file, JSON.stringify({ mode, seed, network: networkIdentity(network), binsPerUnit: RAW_BINS_PER_UNIT, games }));
  process.stdout.write(`save: ${games.length} games' raw records written to ${file}\n`);
}

interface SavedGames {
  readonly seed: number;
  readonly network: string;
  readonly games: readonly { seed: number; maxTile: number; raw: NonNullable<ChanceRecord['raw']> }[];
}

/** --from FILE.json (fit): the games a --save wrote, for the same network, instead of playing them again. */
function loadSaved(file: string, network: string): ChanceGame[] {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as SavedGames;
  if (saved.network !== networkIdentity(network)) throw new Error(`${file} was played with another network than ${network}`);
  return saved.games.map((g) => ({ maxTile: g.maxTile, chance: { raw: g.raw } }));
}

function plotHtml(result: Reliability): string {
  const size = 360;
  const pad = 48;
  const px = (v: number): number => pad + v * size;
  const py = (v: number): number => pad + (1 - v) * size;
  const series = [
    { rows: result.next, colour: '#1f6feb', name: 'next milestone' },
    { rows: result.after, colour: '#d1242f', name: 'the milestone after' },
  ];
  const marks = series
    .map(({ rows, colour }) => {
      const line = rows.map((r) => `${px(r.predicted).toFixed(1)},${py(r.observed).toFixed(1)}`).join(' ');
      const dots = rows.map((r) => `<circle cx="${px(r.predicted).toFixed(1)}" cy="${py(r.observed).toFixed(1)}" r="${(2 + Math.sqrt(r.games) / 4).toFixed(1)}" fill="${colour}" fill-opacity="0.7"/>`).join('');
      return `<polyline points="${line}" fill="none" stroke="${colour}" stroke-width="2"/>${dots}`;
    })
    .join('');
  const ticks = Array.from({ length: 11 }, (_, i) => i / 10)
    .map((t) => `<line x1="${px(t)}" y1="${py(0)}" x2="${px(t)}" y2="${py(1)}" stroke="#ddd"/><line x1="${px(0)}" y1="${py(t)}" x2="${px(1)}" y2="${py(t)}" stroke="#ddd"/><text x="${px(t)}" y="${py(0) + 16}" text-anchor="middle">${t * 100}</text><text x="${px(0) - 6}" y="${py(t) + 4}" text-anchor="end">${t * 100}</text>`)
    .join('');
  const legend = series.map((s, i) => `<text x="${px(0) + 10}" y="${py(1) + 18 + 16 * i}" fill="${s.colour}">● ${s.name}</text>`).join('');
  return `<!doctype html><html><body style="margin:0;overflow:hidden;background:#fff;font:12px sans-serif"><svg xmlns="http://www.w3.org/2000/svg" style="display:block" width="${size + 2 * pad}" height="${size + 2 * pad}">${ticks}<line x1="${px(0)}" y1="${py(0)}" x2="${px(1)}" y2="${py(1)}" stroke="#888" stroke-dasharray="4 4"/>${marks}${legend}<text x="${px(0.5)}" y="${py(0) + 34}" text-anchor="middle">estimated chance (%)</text><text transform="translate(14 ${py(0.5)}) rotate(-90)" text-anchor="middle">reached (%)</text></svg></body></html>`;
}

/** The reliability drawn as a PNG by headless Chromium (also chance-offline.ts judge --plot). */
export function plot(result: Reliability, file: string): void {
  const html = join(tmpdir(), `chance-reliability-${process.pid}.html`);
  writeFileSync(html, plotHtml(result));
  execFileSync('/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', `--screenshot=${file}`, '--window-size=456,456', `file://${html}`], { stdio: 'ignore' });
  process.stdout.write(`plot: ${file}\n`);
}

async function cost(network: string, moves: number, timeMs: number): Promise<void> {
  await useEngine('wasm');
  useNetwork(network);
  const boards: Grid[] = [];
  await playGame(0, 7, { strategy: 'network', options: {}, target: 16384 }, { onState: (s) => void (boards.length < moves && boards.push(s.grid)) });
  const cpu = (): number => process.cpuUsage().user / 1000;
  let started = cpu();
  for (const board of boards) estimateChance(board);
  const estimateMs = (cpu() - started) / boards.length;
  const searched = boards.filter((_, i) => i % 100 === 0);
  started = cpu();
  for (const board of searched) await getStrategy('expectimax').chooseMove(board, { timeMs });
  const searchMs = (cpu() - started) / searched.length;
  process.stdout.write(
    `cost: ${boards.length} positions: the estimate ${(estimateMs * 1000).toFixed(1)} µs of CPU each; expectimax at ${timeMs} ms: ${searchMs.toFixed(1)} ms of CPU a move (${searched.length} positions); the meter adds ${((100 * estimateMs) / searchMs).toFixed(3)} % to a move\n`,
  );
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      games: { type: 'string' },
      seed: { type: 'string' },
      jobs: { type: 'string' },
      network: { type: 'string' },
      plot: { type: 'string' },
      save: { type: 'string' },
      from: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      moves: { type: 'string' },
      'time-ms': { type: 'string' },
    },
  });
  const command = positionals[0];
  if (command !== 'fit' && command !== 'measure' && command !== 'cost') throw new Error('usage: npx tsx bench/chance.ts fit|measure|cost [--games N] [--seed K] [--jobs J] [--network F] [--plot FILE.png] [--save FILE.json] [--from FILE.json] [--json] [--moves N] [--time-ms T]');
  const network = values.network ?? NETWORK;
  if (command === 'cost') {
    await cost(network, Number(values.moves ?? 3000), Number(values['time-ms'] ?? 100));
    return;
  }
  const jobs = Number(values.jobs ?? availableParallelism());
  if (command === 'fit') {
    let results: ChanceGame[];
    let fittedOn: string;
    if (values.from) {
      // Several saved runs (other seeds) fit together; a game in two of them is refused.
      const runs = values.from.map((file) => ({ file, saved: JSON.parse(readFileSync(file, 'utf8')) as SavedGames }));
      const seen = new Set<number>();
      for (const { file, saved } of runs) {
        for (const game of saved.games) {
          if (seen.has(game.seed)) throw new Error(`game seed ${game.seed} (${file}) is in two of the runs given`);
          seen.add(game.seed);
        }
      }
      results = runs.flatMap(({ file }) => loadSaved(file, network));
      fittedOn = `${results.length} one-ply network games, seeds ${runs.map(({ saved }) => `${saved.seed} (${saved.games.length})`).join(', ')}`;
    } else {
      const games = Number(values.games ?? 4000);
      const seed = Number(values.seed ?? 41000);
      const played = await play('fit', games, seed, jobs, network, values.save !== undefined);
      if (values.save) save(values.save, 'fit', seed, network, played);
      results = played;
      fittedOn = `${games} one-ply network games, seed ${seed}`;
    }
    const curves = fitCurves(results);
    const identity = networkIdentity(network);
    writeFileSync(CURVE_FILE, curveSource({ network: identity, fittedOn, curves }));
    process.stdout.write(`fit: ${Object.keys(curves).length} curves (${Object.keys(curves).join(', ')}) for network ${identity.slice(0, 12)}… written to src/engine/chance-curve.ts\n`);
    return;
  }
  const games = Number(values.games ?? 1000);
  const seed = Number(values.seed ?? 43000);
  const results = await play('measure', games, seed, jobs, network, values.save !== undefined);
  if (values.save) save(values.save, 'measure', seed, network, results);
  const table = reliability(results);
  process.stdout.write(`${formatReliability(table).join('\n')}\n`);
  if (values.plot) plot(table, values.plot);
  if (values.json) process.stdout.write(`${JSON.stringify(table)}\n`);
}

// The unit tests import networkIdentity; only a run from the command line plays.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}

export { CURVE_FILE, NETWORK };
