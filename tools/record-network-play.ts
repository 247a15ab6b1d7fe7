/**
 * Records the shipped network's one-ply games for tests/unit/engine/network-stages.test.ts, which holds the
 * WebAssembly core and the TypeScript oracle to them move for move: run it when models/4x6.ntn changes (the
 * test names this command when the file's SHA-256 differs from the recording).
 *
 *   npx tsx tools/record-network-play.ts [--network models/4x6.ntn] [--seeds 1,2,3]
 *
 * Plays each seed with the oracle (src/engine/network/evaluate.ts), keeps the first 60 sampled afterstates with
 * their values, and writes tests/fixtures/network/shipped-play.json.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { inflateSync } from 'node:zlib';
import { decodeNetwork } from '../src/engine/network/format';
import { evaluateBoard } from '../src/engine/network/evaluate';
import { playOnePly } from '../tests/support/network-games';
import { SHIPPED_PLAY, type ShippedPlay } from '../tests/support/shipped-play';

const SAMPLES = 60;

function main(): void {
  const { values } = parseArgs({ options: { network: { type: 'string' }, seeds: { type: 'string' } } });
  const path = values.network ?? fileURLToPath(new URL('../models/4x6.ntn', import.meta.url));
  const seeds = (values.seeds ?? '1,2,3').split(',').map((s) => Number(s));
  if (seeds.some((s) => !Number.isInteger(s) || s < 0)) throw new Error(`--seeds: whole numbers separated by commas, not "${values.seeds}"`);
  const file = readFileSync(path);
  const network = decodeNetwork(file, (bytes) => inflateSync(bytes));
  const value = (lo: number, hi: number): number => evaluateBoard(network, lo, hi);
  const recording: ShippedPlay = {
    note: 'Written by `npx tsx tools/record-network-play.ts`: the shipped network’s one-ply games, played by the TypeScript oracle.',
    file: 'models/4x6.ntn',
    sha256: createHash('sha256').update(file).digest('hex'),
    stages: [...network.stages],
    games: seeds.map((seed) => {
      const game = playOnePly(value, seed, 100_000);
      process.stdout.write(`seed ${seed}: ${game.moves} moves, score ${game.score}\n`);
      return {
        seed,
        moves: game.moves,
        score: game.score,
        movesHash: game.movesHash,
        sample: game.sample.slice(0, SAMPLES).map(({ lo, hi }) => ({ lo, hi, value: value(lo, hi) })),
      };
    }),
  };
  writeFileSync(SHIPPED_PLAY, `${JSON.stringify(recording, null, 1)}\n`);
  process.stdout.write(`wrote ${fileURLToPath(SHIPPED_PLAY)}\n`);
}

main();
