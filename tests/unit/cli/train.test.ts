/**
 * The trainer: its WebAssembly hot loop learns (a tiny network trained for a few hundred games plays far
 * better than the same network untrained, on the same seeds), and the command writes a network that reads
 * back, checkpoints, resumes, stops cleanly on SIGTERM and refuses bad input with one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decodeNetwork } from '../../../src/engine/network/format';
import { instantiateTrainer } from '../../../src/cli/train/protocol';
import { readCheckpointHeader } from '../../../src/cli/train/checkpoint';
import { TRAIN_WASM_FILE } from '../../../src/cli/wasm-files';
import { runHere } from './run-cli';

const ROOT = resolve(__dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const tmp = mkdtempSync(join(tmpdir(), 'train-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// Each test starts the command line (tsx) a few times: on a busy 2-core machine that alone takes seconds.
vi.setConfig({ testTimeout: 120_000 });

/** `npm run train -- <args>` as tsx runs it: node with tsx's loader (one node process; the tsx command starts two). */
function train(args: readonly string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/train.ts'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 110_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the trainer learns', () => {
  it('a tiny network trained for 600 games scores far above the same network untrained, on the same seeds', () => {
    const memory = new WebAssembly.Memory({ initial: 64, maximum: 65536, shared: true });
    const trainer = instantiateTrainer(new WebAssembly.Module(readFileSync(TRAIN_WASM_FILE)), memory);
    trainer.setup(1, 1, 1, 0, 1);
    const evaluate = (): { mean: number; reached1024: number } => {
      trainer.useThread(0, 99, 0, 1);
      trainer.configure(1, 0.5, 5, 0, 0);
      const games = trainer.train(200);
      const records = new Uint32Array(memory.buffer, trainer.resultsOf(0), games * 4);
      let sum = 0;
      let reached = 0;
      for (let i = 0; i < games; i++) {
        sum += records[i * 4];
        if (records[i * 4 + 2] >= 10) reached++;
      }
      return { mean: sum / games, reached1024: reached / games };
    };
    const untrained = evaluate();
    trainer.useThread(0, 1, 0, 1);
    trainer.configure(1, 0.5, 5, 1, 1);
    expect(trainer.train(600)).toBe(600);
    const trained = evaluate();
    expect(untrained.mean).toBeGreaterThan(1000);
    expect(trained.mean).toBeGreaterThan(4 * untrained.mean);
    expect(trained.reached1024).toBeGreaterThan(0.5);
    expect(untrained.reached1024).toBeLessThan(0.05);
  });
});

describe('the trainer across machines', () => {
  const trainerOn = (memory: WebAssembly.Memory, stages: number, lateRank: number) => {
    const trainer = instantiateTrainer(new WebAssembly.Module(readFileSync(TRAIN_WASM_FILE)), memory);
    trainer.setStages(stages, lateRank);
    return trainer;
  };

  it('the warm-up gathers the errors\' sizes and leaves every weight and signed sum as it was', () => {
    const memory = new WebAssembly.Memory({ initial: 64, maximum: 65536, shared: true });
    const trainer = trainerOn(memory, 1, 0);
    const at = trainer.setup(1, 1, 1, 0, 1);
    const count = trainer.weightBytes() / 4;
    trainer.useThread(0, 3, 0, 1);
    trainer.configure(1, 0.5, 5, 1, 1);
    trainer.train(100);
    const weights = new Float32Array(memory.buffer, at, count).slice();
    // Sums cleared, as when a network file is read.
    new Float32Array(memory.buffer, at + count * 4, count * 2).fill(0);
    trainer.setFrozen(1);
    trainer.train(50);
    expect(Array.from(new Float32Array(memory.buffer, at, count))).toEqual(Array.from(weights));
    const sums = new Float32Array(memory.buffer, at + count * 4, count * 2);
    // The sizes A gather; the signed sums E stay 0 (every rate |E|/A starts at 0).
    expect(sums.some((v, i) => i % 2 === 1 && v > 0)).toBe(true);
    expect(sums.every((v, i) => i % 2 === 1 || v === 0)).toBe(true);
    trainer.setFrozen(0);
    trainer.train(10);
    expect(Array.from(new Float32Array(memory.buffer, at, count)).some((w, i) => w !== weights[i])).toBe(true);
  });

  it('with two stages, boards below the late rank are valued and taught by stage 0 only, late boards by stage 1', () => {
    const memory = new WebAssembly.Memory({ initial: 64, maximum: 65536, shared: true });
    // Late stage from rank 9 (the 512): a 4x4 network trained briefly reaches it in most games.
    const trainer = trainerOn(memory, 2, 9);
    const at = trainer.setup(1, 1, 1, 0, 1);
    const count = trainer.weightBytes() / 8;
    trainer.setLateRestarts(3);
    trainer.useThread(0, 7, 0, 1);
    trainer.configure(1, 0.5, 5, 1, 1);
    trainer.train(400);
    const stage0 = new Float32Array(memory.buffer, at, count);
    const stage1 = new Float32Array(memory.buffer, at + count * 4, count);
    // Both stages start at 0: weights away from 0 were taught. A late board's value is read from stage 1 only.
    expect(stage1.some((w) => w !== 0)).toBe(true);
    expect(stage0.some((w) => w !== 0)).toBe(true);
    // A board with a 512 (rank 9) in a corner and a 2 beside it: its value is the sum of stage 1's weights.
    const late = 9n | (1n << 4n);
    const early = 8n | (1n << 4n);
    const value = (b: bigint): number => trainer.value(Number(b & 0xffffffffn), Number(b >> 32n));
    stage1.fill(0);
    expect(value(late)).toBe(0);
    expect(value(early)).not.toBe(0);
    stage0.fill(0);
    expect(value(early)).toBe(0);
  });
});

describe('npm run train', () => {
  const out = join(tmp, 'tiny.ntn');

  it('trains, writes a network that reads back and a checkpoint, and resumes from it', () => {
    const first = train(['--network', '4x4', '--episodes', '300', '--threads', '2', '--seed', '5', '--out', out, '--encoding', 'f32']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/300 episodes/);
    const network = decodeNetwork(readFileSync(out));
    expect(network.shape).toBe('4x4');
    expect(network.encoding).toBe('f32');
    expect(network.metadata.episodes).toBe(300);
    expect(Array.from(network.weights).some((w) => w !== 0)).toBe(true);
    expect(readCheckpointHeader(`${out}.ckpt`).header.episodes).toBe(300);

    const second = train(['--resume', `${out}.ckpt`, '--episodes', '500', '--threads', '1', '--seed', '6', '--out', out]);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/resumed .* at 300 episodes/);
    const resumed = decodeNetwork(readFileSync(out));
    expect(resumed.encoding).toBe('i16');
    expect(resumed.metadata.episodes).toBe(500);
    expect(String(resumed.metadata.commands)).toMatch(/seed 5, until 300.*seed 6, until 500/);

    // Exported again with fewer bits: the network only, the checkpoint untouched.
    const before = readFileSync(`${out}.ckpt`);
    const exported = train(['--resume', `${out}.ckpt`, '--episodes', '500', '--out', join(tmp, 'tiny-12.ntn'), '--bits', '12']);
    expect(exported.status).toBe(0);
    expect(exported.stdout).not.toMatch(/checkpoint/);
    const coarse = decodeNetwork(readFileSync(join(tmp, 'tiny-12.ntn')));
    expect(coarse.metadata.bits).toBe(12);
    expect((coarse.weights as Int16Array).reduce((m, w) => Math.max(m, Math.abs(w)), 0)).toBe(2047);
    expect(readFileSync(`${out}.ckpt`).equals(before)).toBe(true);
  });

  it('goes on from a network file in two stages (a warm-up first), then exactly from its own checkpoint', () => {
    const from = join(tmp, 'base.ntn');
    expect(train(['--network', '4x4', '--episodes', '200', '--threads', '1', '--seed', '8', '--out', from]).status).toBe(0);
    const staged = join(tmp, 'staged.ntn');
    const run = train(['--from', from, '--stages', '10', '--warmup', '50', '--episodes', '320', '--threads', '1', '--seed', '9', '--out', staged]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/going on from .*base\.ntn \(--from\) at 200 episodes.*split into two stages \(the late one from the 1024 on\).*warm-up of 50 episodes/);
    expect(run.stdout).toMatch(/warm-up done/);
    const header = readCheckpointHeader(`${staged}.ckpt`).header;
    expect(header.stages).toEqual([0, 10]);
    expect(header.episodes).toBe(320);
    expect(header.earlier).toMatch(/seed 8, until 200/);
    // Plain again with the same --out: this machine's checkpoint, exactly.
    const again = train(['--network', '4x4', '--episodes', '400', '--threads', '1', '--out', staged]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/resumed .*staged\.ntn\.ckpt \(this machine's checkpoint.*\) at 320 episodes, [0-9.]+ h \(exact\)/);
    expect(readCheckpointHeader(`${staged}.ckpt`).header.episodes).toBe(400);
  });

  it('stops on SIGTERM with a checkpoint of the games it played', async () => {
    const file = join(tmp, 'stopped.ntn');
    const child = spawn(TSX, [join(ROOT, 'src/cli/train.ts'), '--network', '4x4', '--episodes', '100000000', '--threads', '2', '--out', file, '--progress-seconds', '0.2'], { cwd: ROOT });
    let stdout = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!killed && /episodes \(/.test(stdout)) {
        killed = true;
        child.kill('SIGTERM');
      }
    });
    const started = performance.now();
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(0);
    // Within a game or so of the signal, not at the end of a long chunk (loose: the machine may be busy).
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(stdout).toMatch(/stopping/);
    expect(existsSync(`${file}.ckpt`)).toBe(true);
    expect(readCheckpointHeader(`${file}.ckpt`).header.episodes).toBeGreaterThan(0);
    expect(existsSync(`${file}.ckpt.tmp`)).toBe(false);
  });

  it('refuses bad input with one line', async () => {
    // As a user runs it (a process: its stderr, its exit status), then in this process (no start of node each).
    const two = train(['--resume', 'a.ckpt', '--from', 'b.ntn']);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/^error: give one of --resume, --from and --fresh/);
    const badFrom = await runHere('train', ['--from', join(tmp, 'missing.ntn'), '--out', join(tmp, 'z.ntn')]);
    expect(badFrom.status).toBe(2);
    expect(badFrom.stderr.trim().split('\n')).toHaveLength(1);
    expect(badFrom.stderr).toMatch(/missing\.ntn/);
    const shape = await runHere('train', ['--network', '9x9', '--out', join(tmp, 'x.ntn')]);
    expect(shape.status).toBe(2);
    expect(shape.stderr).toMatch(/^error: --network must be one of 4x6, 4x4/);
    const notCheckpoint = join(tmp, 'not.ckpt');
    writeFileSync(notCheckpoint, 'hello');
    const resume = await runHere('train', ['--resume', notCheckpoint, '--out', join(tmp, 'y.ntn')]);
    expect(resume.status).toBe(1);
    expect(resume.stderr.trim().split('\n')).toHaveLength(1);
    expect(resume.stderr).toMatch(/not a trainer checkpoint/);
  });
});
