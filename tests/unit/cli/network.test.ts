/**
 * The CLI with a learned network: the "network" strategy plays a bench with a network file (a tiny one
 * trained here in a second), expectimax says which evaluation it searched with, and a missing, absent or
 * corrupt network is refused with one line; a command whose strategy never reads the network does not load it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeNetwork, quantise } from '../../../src/engine/network/format';
import { weightCount } from '../../../src/engine/network/shapes';
import { instantiateTrainer } from '../../../src/cli/train/protocol';
import { TRAIN_WASM_FILE } from '../../../src/cli/wasm-files';
import { networkInUse } from '../../../src/cli/network';

const ROOT = resolve(__dirname, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'network-cli-'));
const file = join(tmp, 'tiny.ntn');
/** The tiny network in two stages: the second (from the 256) its weights doubled. */
const twoStages = join(tmp, 'tiny-two-stages.ntn');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

beforeAll(() => {
  const memory = new WebAssembly.Memory({ initial: 64, maximum: 65536, shared: true });
  const trainer = instantiateTrainer(new WebAssembly.Module(readFileSync(TRAIN_WASM_FILE)), memory);
  const at = trainer.setup(1, 1, 1, 0, 1);
  trainer.useThread(0, 3, 0, 1);
  trainer.configure(1, 0.5, 5, 1, 1);
  trainer.train(500);
  const q = quantise(new Float32Array(memory.buffer, at, weightCount('4x4')).slice());
  writeFileSync(file, encodeNetwork({ shape: '4x4', encoding: 'i16', scale: q.scale, stages: [0], weights: q.weights, metadata: { test: 'tiny' } }));
  const doubled = q.weights.map((w) => Math.max(-32767, Math.min(32767, 2 * w)));
  const weights = Int16Array.from([...q.weights, ...doubled]);
  writeFileSync(twoStages, encodeNetwork({ shape: '4x4', encoding: 'i16', scale: q.scale, stages: [0, 8], weights, metadata: { test: 'tiny, two stages' } }, (bytes) => deflateSync(bytes)));
}, 60_000);

/** `npm run <command> -- <args>` as tsx runs it: node with tsx's loader (one node process; the tsx command starts two). */
function run(command: 'bench' | 'solve', args: readonly string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, `src/cli/${command}.ts`), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the CLI with a network', () => {
  it('benches the network strategy with a network file', () => {
    const result = run('bench', ['--strategy', 'network', '--network', file, '--games', '6', '--seed', '1', '--jobs', '2', '--json']);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as { games: number; network: string; score: { mean: number } };
    expect(summary.games).toBe(6);
    expect(summary.network).toBe(file);
    // The tiny network after 500 games reaches 1024 in most games; random play scores under 1 000.
    expect(summary.score.mean).toBeGreaterThan(5000);
  }, 120_000);

  it('plays with a network of two stages: the second values the boards that hold a 256 or more', () => {
    // Every afterstate of a board holding a 1024 is valued by the second stage: other values than the first's.
    const board = ['--board', '0,0,0,4,0,2,4,8,2,0,16,256,2,4,128,1024', '--strategy', 'network', '--json'];
    const valuesWith = (network: string): Record<string, number> =>
      (JSON.parse(run('solve', [...board, '--network', network]).stdout.trim().split('\n').at(-1) ?? '{}') as { values: Record<string, number> }).values;
    const one = valuesWith(file);
    const two = valuesWith(twoStages);
    expect(Object.keys(two)).toEqual(Object.keys(one));
    for (const move of Object.keys(one)) expect(two[move]).not.toBe(one[move]);
  }, 120_000);

  it('says which evaluation expectimax searched with', () => {
    const board = ['--board', '0,0,0,4,0,2,4,8,2,0,16,256,2,4,128,1024', '--depth', '2'];
    expect(run('solve', [...board, '--network', file]).stdout).toMatch(/network evaluation/);
    expect(run('solve', [...board, '--network', file, '--eval', 'heuristic']).stdout).toMatch(/heuristic evaluation/);
    expect(run('solve', [...board, '--network', 'none']).stdout).toMatch(/heuristic evaluation/);
  }, 120_000);

  it('refuses a missing network, no network for the network strategy, and a corrupt file', () => {
    const missing = run('bench', ['--strategy', 'network', '--network', join(tmp, 'nope.ntn'), '--games', '1']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^error: --network: no such file/);
    const none = run('bench', ['--strategy', 'network', '--network', 'none', '--games', '1']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^error: the network strategy needs a network/);
    const corrupt = join(tmp, 'corrupt.ntn');
    const bytes = readFileSync(file);
    bytes[bytes.length - 10] ^= 0xff;
    writeFileSync(corrupt, bytes);
    const bad = run('solve', ['--board', '0,0,0,4,0,2,4,8,2,0,16,256,2,4,128,1024', '--network', corrupt]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/cannot use the network .*corrupt/);
  }, 120_000);
});

describe('the network a command loads', () => {
  it('is the file for what evaluates with it (expectimax, network, the chance meter), none for the rest', () => {
    expect(networkInUse(file, 'expectimax', {})).toBe(file);
    expect(networkInUse(file, 'expectimax', { evaluation: 'network' })).toBe(file);
    expect(networkInUse(file, 'network', {})).toBe(file);
    expect(networkInUse(file, 'expectimax', { evaluation: 'heuristic' })).toBeNull();
    expect(networkInUse(file, 'expectimax', { reference: true })).toBeNull();
    for (const strategy of ['montecarlo', 'minimax', 'greedy', 'priority', 'random'] as const) {
      expect(networkInUse(file, strategy, {})).toBeNull();
      expect(networkInUse(file, strategy, {}, true)).toBe(file);
    }
    expect(networkInUse(null, 'network', {})).toBeNull();
  });
});
