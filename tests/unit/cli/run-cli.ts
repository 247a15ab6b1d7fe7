/**
 * The command line as a user runs it, for the tests of its commands (commands.test.ts, usage.test.ts): `npm run
 * <command> -- <args>` is node with tsx's loader (`node --import tsx`, what the `tsx` command starts after a node
 * process of its own, saved here), in a child process (`run`); or the command's `cli` in the test's own process
 * (`runHere`), for bad input, which the command rejects before it does any work.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { CliIo } from '../../../src/cli/args';

export const ROOT = resolve(__dirname, '../../..');
/** The most one start of the command line may take. */
export const TIMEOUT_MS = 120_000;
export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `npm run <command> -- <args>`: its exit status and its output. */
export function run(command: Command, args: readonly string[]): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, `src/cli/${command}.ts`), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      // NO_COLOR for plain text; FORCE_COLOR (set by npm test's runner for its own output) left out, or node
      // warns on stderr that the two disagree.
      env: withoutColor(),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}

export type Command = 'play' | 'solve' | 'bench' | 'train';
const COMMANDS = {
  bench: () => import('../../../src/cli/bench'),
  play: () => import('../../../src/cli/play'),
  solve: () => import('../../../src/cli/solve'),
  train: () => import('../../../src/cli/train'),
} as const satisfies Record<Command, () => Promise<{ cli(argv: readonly string[], io?: CliIo): Promise<number> }>>;

/** `npm run <command> -- <args>` in this process: its exit status and what it printed through its io. */
export async function runHere(command: Command, args: readonly string[]): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  let status: number | null = null;
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    exit: (code) => (status = code),
  };
  const returned = await (await COMMANDS[command]()).cli(args, io);
  expect(returned).toBe(status);
  return { status, stdout, stderr };
}

function withoutColor(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  return env;
}

export function lastLine(text: string): string {
  const lines = text.trimEnd().split('\n');
  return lines[lines.length - 1];
}

/** The bench's line for each finished game ("game N (seed S): …"), from stderr between its progress lines. */
export function gameLines(stderr: string): string[] {
  return stderr.split(/[\r\n]+/).filter((line) => /^game \d+ /.test(line));
}

/** A temporary directory for the calling test file, removed after its tests. */
export function temporaryDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function expectUsageError(result: RunResult, message: RegExp): void {
  expect(result.status).toBe(2);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
}
