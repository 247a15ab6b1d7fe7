import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { temporaryDir } from './run-cli';
import {
  HelpRequested,
  UsageError,
  isEntryPoint,
  oneLine,
  parseCommandLine,
  parseIntegerOption,
  parseStrategyName,
  runCli,
} from '../../../src/cli/args';
import type { CliIo } from '../../../src/cli/args';
import { SEARCH_OPTION_SPECS, searchOptionsFrom, strategyChoices } from '../../../src/cli/search-options';

const SPECS = { games: { type: 'string' }, json: { type: 'boolean' }, strategy: { type: 'string' } } as const;

function captureIo(): CliIo & { out: string; err: string; code: number | null } {
  const io = {
    out: '',
    err: '',
    code: null as number | null,
    stdout: (text: string) => {
      io.out += text;
    },
    stderr: (text: string) => {
      io.err += text;
    },
    exit: (code: number) => {
      io.code = code;
    },
  };
  return io;
}

describe('parseCommandLine', () => {
  it('reads known options', () => {
    const args = parseCommandLine(['--games', '12', '--json', '--strategy', 'greedy'], SPECS);
    expect(args.int('games', { min: 1, max: 100 })).toBe(12);
    expect(args.flag('json')).toBe(true);
    expect(args.strategy()).toBe('greedy');
    expect(args.has('games')).toBe(true);
  });

  it('falls back to defaults for absent options', () => {
    const args = parseCommandLine([], SPECS);
    expect(args.int('games', { min: 1, max: 100 }, 7)).toBe(7);
    expect(args.flag('json')).toBe(false);
    expect(args.strategy()).toBe('expectimax');
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--games'], /argument missing/],
    [['stray'], /Unexpected argument 'stray'/],
    [['--json=yes'], /does not take an argument/],
    [['--games', '1', '--games', '2'], /--games given more than once/],
  ])('rejects %j with a UsageError', (argv, message) => {
    expect(() => parseCommandLine(argv, SPECS)).toThrow(UsageError);
    expect(() => parseCommandLine(argv, SPECS)).toThrow(message);
  });

  it('turns --help and -h into HelpRequested', () => {
    expect(() => parseCommandLine(['--help'], SPECS)).toThrow(HelpRequested);
    expect(() => parseCommandLine(['-h'], SPECS)).toThrow(HelpRequested);
  });
});

describe('value parsers', () => {
  it('accepts integers in range only', () => {
    expect(parseIntegerOption('--n', '42', { min: 0, max: 100 })).toBe(42);
    expect(parseIntegerOption('--n', ' 7 ', { min: 0, max: 100 })).toBe(7);
    expect(() => parseIntegerOption('--n', '4.5', { min: 0, max: 100 })).toThrow('--n must be an integer, got "4.5"');
    expect(() => parseIntegerOption('--n', 'ten', { min: 0, max: 100 })).toThrow(UsageError);
    expect(() => parseIntegerOption('--n', '', { min: 0, max: 100 })).toThrow(UsageError);
    expect(() => parseIntegerOption('--n', '101', { min: 0, max: 100 })).toThrow('--n must be between 0 and 100, got 101');
    expect(() => parseIntegerOption('--n', '-1', { min: 0, max: 100 })).toThrow(UsageError);
  });

  it('accepts the six strategy names only', () => {
    expect(parseStrategyName('montecarlo')).toBe('montecarlo');
    expect(() => parseStrategyName('alphazero')).toThrow(/unknown strategy "alphazero".*expectimax/);
  });

  it('collapses messages to one line', () => {
    expect(oneLine('a\n  b\tc \n')).toBe('a b c');
  });
});

describe('runCli', () => {
  it('exits 0 after a successful main', async () => {
    const io = captureIo();
    expect(await runCli('usage', async () => undefined, io)).toBe(0);
    expect(io.code).toBe(0);
    expect(io.err).toBe('');
  });

  it('prints usage on stdout for --help and exits 0', async () => {
    const io = captureIo();
    await runCli('Usage: x', async () => {
      parseCommandLine(['--help'], SPECS);
    }, io);
    expect(io.out).toBe('Usage: x\n');
    expect(io.code).toBe(0);
  });

  it('prints one error line and exits 2 for bad input', async () => {
    const io = captureIo();
    await runCli('usage', async () => {
      throw new UsageError('bad\ninput');
    }, io);
    expect(io.err).toBe('error: bad input\n');
    expect(io.code).toBe(2);
  });

  it('exits 1 for other failures', async () => {
    const io = captureIo();
    await runCli('usage', async () => {
      throw new Error('boom');
    }, io);
    expect(io.err).toBe('error: boom\n');
    expect(io.code).toBe(1);
  });
});

describe('search options read from the strategy descriptors', () => {
  const parse = (argv: string[]) => parseCommandLine(argv, SEARCH_OPTION_SPECS);

  it('takes the options a strategy takes', () => {
    expect(searchOptionsFrom(parse(['--depth', '3', '--time-ms', '50']), 'expectimax')).toEqual({ depth: 3, timeMs: 50 });
    expect(searchOptionsFrom(parse(['--playouts', '40', '--time-ms', '50']), 'montecarlo')).toEqual({ playouts: 40, timeMs: 50 });
  });

  it('refuses an option the strategy does not take, naming what it takes', () => {
    expect(() => searchOptionsFrom(parse(['--depth', '3']), 'montecarlo')).toThrow(/--depth does not apply to the montecarlo strategy \(it takes --playouts, --time-ms\)/);
    expect(() => searchOptionsFrom(parse(['--time-ms', '3']), 'random')).toThrow(/it takes no search option/);
    expect(() => searchOptionsFrom(parse(['--playouts', '3']), 'expectimax')).toThrow(UsageError);
  });

  it('reads --eval for expectimax, and refuses it elsewhere, with --reference, or misspelt', () => {
    expect(searchOptionsFrom(parse(['--eval', 'heuristic', '--time-ms', '20']), 'expectimax')).toEqual({ evaluation: 'heuristic', timeMs: 20 });
    expect(searchOptionsFrom(parse(['--eval', 'network']), 'expectimax')).toEqual({ evaluation: 'network' });
    expect(() => searchOptionsFrom(parse(['--eval', 'network']), 'greedy')).toThrow(/--eval does not apply to the greedy strategy/);
    expect(() => searchOptionsFrom(parse(['--eval', 'network', '--reference']), 'expectimax')).toThrow(/--reference searches with the heuristic/);
    expect(() => searchOptionsFrom(parse(['--eval', 'nn']), 'expectimax')).toThrow(/--eval must be one of network, heuristic/);
  });

  it('lists every strategy with its options in the usage', () => {
    const text = strategyChoices();
    expect(text).toContain('expectimax (--time-ms, --depth, --reference, --eval, --easy)');
    expect(text).toContain('| network |');
    expect(text).toContain('montecarlo (--playouts, --time-ms)');
    expect(text).toMatch(/\| random$/);
  });
});

describe('isEntryPoint', () => {
  const bench = fileURLToPath(new URL('../../../src/cli/bench.ts', import.meta.url));
  const url = pathToFileURL(bench).href;
  const tmp = temporaryDir();

  it('is true for the file node was started with, also through a symbolic link', () => {
    expect(isEntryPoint(url, bench)).toBe(true);
    const link = join(tmp, 'bench.ts');
    symlinkSync(bench, link);
    expect(isEntryPoint(url, link)).toBe(true);
  });

  it('is false for a module imported by another, and without a script (node -e)', () => {
    expect(isEntryPoint(url, fileURLToPath(new URL('../../../src/cli/play.ts', import.meta.url)))).toBe(false);
    expect(isEntryPoint(url, undefined)).toBe(false);
    expect(isEntryPoint(url, '[eval]')).toBe(false);
  });
});
