/**
 * The chance meter's fitting methods compared on saved games, without playing again
 * (docs/benchmarks.md, "The chance meter").
 *
 *   npx tsx bench/chance.ts fit --save fit.json ...; npx tsx bench/chance.ts measure --save measure.json ...
 *   npx tsx bench/chance-offline.ts cv --fit fit.json [--folds 4]
 *       each method (bins per unit × games per point × scale) fitted on all folds of the fit games but one and
 *       judged on that one: the reliability over all held-out games and the worst tenth of each fold.
 *   npx tsx bench/chance-offline.ts judge --fit fit.json --measure measure.json --method 8,30,linear [--method …]
 *       the methods fitted on all fit games, each judged once on the measure games (the reliability table);
 *       `--method shipped` judges the curves in src/engine/chance-curve.ts; --bootstrap N adds how much each
 *       tenth's difference moves over N redraws of the measure games (the noise any method is judged through);
 *       --plot FILE.png draws the (last) method's reliability as bench/chance.ts measure --plot does. --measure
 *       may be given again: the games of several measure runs (other seeds) judged together, none twice; so may
 *       --fit: the curves fitted on several runs together, none of their games judged.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fitCurves, formatReliability, reliability } from '../src/cli/chance-samples';
import type { ChanceGame, FitMethod, Reliability } from '../src/cli/chance-samples';
import { readCurve } from '../src/engine/chance';
import { CHANCE_CURVES } from '../src/engine/chance-curve';
import { plot } from './chance';
import type { ChanceCurve } from '../src/engine/chance';

interface Saved {
  readonly games: readonly { seed: number; maxTile: number; raw: readonly (readonly [number, string, number, number, number])[] }[];
}

/** The games of several saved runs together; a game (seed) in two of them, or in the fit games, is refused. */
function loadAll(files: readonly string[], notIn: ReadonlySet<number> = new Set()): ChanceGame[] {
  const seen = new Set<number>();
  return files.flatMap((file) =>
    (JSON.parse(readFileSync(file, 'utf8')) as Saved).games.map((g) => {
      if (seen.has(g.seed) || notIn.has(g.seed)) throw new Error(`game seed ${g.seed} (${file}) is in two of the runs given: judge on games the fit never saw, each once`);
      seen.add(g.seed);
      return { maxTile: g.maxTile, chance: { raw: g.raw } };
    }),
  );
}

function seedsOf(file: string): Set<number> {
  return new Set((JSON.parse(readFileSync(file, 'utf8')) as Saved).games.map((g) => g.seed));
}

/** Each game's positions estimated by the curves, as the measure mode records them. */
function estimated(curves: Readonly<Record<string, ChanceCurve>>, games: readonly ChanceGame[]): ChanceGame[] {
  return games.map((game) => {
    const rows = new Map<string, [number, number, number, number, number]>();
    for (const [which, key, bin, n, target] of game.chance?.raw ?? []) {
      const curve = curves[key];
      if (!curve || curve.x.length === 0) continue;
      const p = readCurve(curve, bin / 64).p;
      const tenth = Math.min(9, Math.floor(p * 10));
      const id = `${which}/${tenth}/${target}`;
      const row = rows.get(id) ?? [which, tenth, target, 0, 0];
      row[3] += n;
      row[4] += n * p;
      rows.set(id, row);
    }
    return { maxTile: game.maxTile, chance: { measure: [...rows.values()] } };
  });
}

function worst(table: Reliability): { next: number; after: number } {
  const max = (rows: Reliability['next']): number => Math.max(...rows.map((r) => Math.abs(r.predicted - r.observed) * 100));
  return { next: max(table.next), after: max(table.after) };
}

function diffs(table: Reliability): string {
  const row = (rows: Reliability['next']): string =>
    Array.from({ length: 10 }, (_, t) => rows.find((r) => r.tenth === t))
      .map((r) => (r ? (100 * (r.predicted - r.observed)).toFixed(1).padStart(5) : '    -'))
      .join(' ');
  return `next [${row(table.next)}]  after [${row(table.after)}]`;
}

/**
 * How much each tenth's difference moves when the same number of games is drawn again (resampling games with
 * replacement): its standard deviation in points, a floor for what any curve can be judged to.
 */
function noise(games: readonly ChanceGame[], draws: number): string {
  let seed = 1;
  const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const sums = [0, 1].map(() => Array.from({ length: 10 }, () => ({ s: 0, s2: 0, k: 0 })));
  for (let d = 0; d < draws; d++) {
    const drawn = Array.from({ length: games.length }, () => games[Math.floor(random() * games.length)]);
    const table = reliability(drawn);
    for (const [which, rows] of [table.next, table.after].entries()) {
      for (const r of rows) {
        const v = 100 * (r.predicted - r.observed);
        const cell = sums[which][r.tenth];
        cell.s += v;
        cell.s2 += v * v;
        cell.k += 1;
      }
    }
  }
  const sd = (cells: (typeof sums)[number]): string => cells.map((c) => (c.k > 1 ? Math.sqrt(Math.max(0, c.s2 / c.k - (c.s / c.k) ** 2)).toFixed(1).padStart(5) : '    -')).join(' ');
  return `bootstrap SD of the difference per tenth (${draws} draws of ${games.length} games): next [${sd(sums[0])}]  after [${sd(sums[1])}]`;
}

function parseMethod(text: string): { minGames: number; method: FitMethod } {
  const [bins, minGames, scale, effective] = text.split(',');
  return { minGames: Number(minGames), method: { binsPerUnit: Number(bins), scale: scale === 'logit' || scale === 'step' ? scale : 'linear', effective: effective === 'effective' } };
}

const METHODS = [8, 16, 32, 64].flatMap((bins) => [15, 30, 60, 120].flatMap((minGames) => ['linear', 'logit'].map((scale) => `${bins},${minGames},${scale}`)));

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { fit: { type: 'string', multiple: true }, measure: { type: 'string', multiple: true }, folds: { type: 'string' }, method: { type: 'string', multiple: true }, bootstrap: { type: 'string' }, plot: { type: 'string' } },
  });
  if (!values.fit) throw new Error('--fit FILE.json is needed');
  const fitGames = loadAll(values.fit);
  const methods = values.method ?? METHODS;
  if (positionals[0] === 'cv') {
    const k = Number(values.folds ?? 4);
    for (const text of methods) {
      const { minGames, method } = parseMethod(text);
      const held: ChanceGame[] = [];
      const perFold: { next: number; after: number }[] = [];
      for (let fold = 0; fold < k; fold++) {
        const curves = fitCurves(
          fitGames.filter((_, i) => i % k !== fold),
          minGames,
          method,
        );
        const out = estimated(
          curves,
          fitGames.filter((_, i) => i % k === fold),
        );
        perFold.push(worst(reliability(out)));
        held.push(...out);
      }
      const table = reliability(held);
      const all = worst(table);
      const folds = perFold.map((w) => `${w.next.toFixed(1)}/${w.after.toFixed(1)}`).join(' ');
      const pass = perFold.filter((w) => w.next <= 5 && w.after <= 5).length;
      process.stdout.write(`${text.padEnd(16)} pooled worst next ${all.next.toFixed(1)} after ${all.after.toFixed(1)}; folds (next/after) ${folds}; folds within 5: ${pass}/${k}\n    ${diffs(table)}\n`);
    }
    return;
  }
  if (positionals[0] === 'judge') {
    if (!values.measure) throw new Error('--measure FILE.json is needed');
    const measureGames = loadAll(values.measure, new Set(values.fit.flatMap((file) => [...seedsOf(file)])));
    process.stdout.write(`judged on ${measureGames.length} games of ${values.measure.join(', ')}\n`);
    for (const text of methods) {
      const { minGames, method } = parseMethod(text);
      const curves = text === 'shipped' ? CHANCE_CURVES.curves : fitCurves(fitGames, minGames, method);
      const games = estimated(curves, measureGames);
      const table = reliability(games);
      const w = worst(table);
      process.stdout.write(`${text}: worst next ${w.next.toFixed(1)} after ${w.after.toFixed(1)} pts\n${formatReliability(table).join('\n')}\n`);
      if (values.bootstrap) process.stdout.write(`${noise(games, Number(values.bootstrap))}\n`);
      if (values.plot) plot(table, values.plot); // one --method: the plot is that method's
    }
    return;
  }
  throw new Error('usage: npx tsx bench/chance-offline.ts cv|judge --fit FILE.json [--measure FILE.json …] [--folds K] [--method BINS,GAMES,linear|logit …] [--bootstrap N] [--plot FILE.png]');
}

main();
