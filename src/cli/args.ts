/**
 * Command-line parsing shared by play, solve and bench (node:util parseArgs, strict).
 *
 * Every bad input becomes a UsageError; `runCli` prints it as ONE line `error: ...` on stderr and exits
 * with status 2. `--help` prints the command's usage on stdout and exits 0.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { STRATEGY_NAMES } from '../engine/types';
import type { StrategyName } from '../engine/types';

/** Bad input from the user: reported as one line and exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `--help` was given: the usage goes to stdout and the command exits 0. */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
}

interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
}
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

const EXIT_USAGE = 2;
const EXIT_FAILURE = 1;

/** Collapse any message to one line (parseArgs and RangeError messages are already one line, mostly). */
export function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim();
}

/** Parsed options with typed, validating accessors (each throws a UsageError naming the option). */
export class ParsedArgs {
  constructor(private readonly values: Readonly<Record<string, string | boolean | undefined>>) {}

  flag(name: string): boolean {
    return this.values[name] === true;
  }

  string(name: string): string | undefined {
    const value = this.values[name];
    return typeof value === 'string' ? value : undefined;
  }

  has(name: string): boolean {
    return this.values[name] !== undefined;
  }

  /** An integer option in [min, max]; `fallback` when absent. */
  int(name: string, range: { min: number; max: number }, fallback?: number): number | undefined {
    const text = this.string(name);
    if (text === undefined) return fallback;
    return parseIntegerOption(`--${name}`, text, range);
  }

  /** A finite number option in [min, max]; `fallback` when absent. */
  number(name: string, range: { min: number; max: number }, fallback?: number): number | undefined {
    const text = this.string(name);
    if (text === undefined) return fallback;
    const value = text.trim() === '' ? NaN : Number(text.trim());
    if (!Number.isFinite(value) || value < range.min || value > range.max) {
      throw new UsageError(`--${name} must be a number between ${range.min} and ${range.max}, got "${text}"`);
    }
    return value;
  }

  /** One of `choices`; `fallback` when absent. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const text = this.string(name);
    if (text === undefined) return fallback;
    const found = choices.find((choice) => choice === text);
    if (found === undefined) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got "${text}"`);
    return found;
  }

  strategy(name = 'strategy', fallback: StrategyName = 'expectimax'): StrategyName {
    const text = this.string(name);
    return text === undefined ? fallback : parseStrategyName(text);
  }
}

export function parseIntegerOption(label: string, text: string, range: { min: number; max: number }): number {
  if (!/^[+-]?\d+$/.test(text.trim())) throw new UsageError(`${label} must be an integer, got "${text}"`);
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw new UsageError(`${label} must be between ${range.min} and ${range.max}, got ${text.trim()}`);
  }
  return value;
}

export function parseStrategyName(text: string): StrategyName {
  const found = STRATEGY_NAMES.find((name) => name === text);
  if (!found) throw new UsageError(`unknown strategy "${text}" (expected one of: ${STRATEGY_NAMES.join(', ')})`);
  return found;
}

/**
 * Parse argv strictly against `specs` (plus --help/-h). Unknown flags, missing values, positionals and
 * repeated options are UsageErrors.
 */
export function parseCommandLine(argv: readonly string[], specs: OptionSpecs): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, spec] of Object.entries(specs)) options[name] = { ...spec };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    throw new UsageError(oneLine(error instanceof Error ? error.message : String(error)));
  }
  if (parsed.values.help === true) throw new HelpRequested('help');
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} given more than once`);
    seen.add(token.name);
  }
  const flat: Record<string, string | boolean | undefined> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) throw new UsageError(`--${name} given more than once`);
    flat[name] = value;
  }
  return new ParsedArgs(flat);
}

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly exit: (code: number) => void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  exit: (code) => {
    process.exit(code);
  },
};

/**
 * Run a command's main: --help → usage on stdout, exit 0; UsageError → `error: ...` on stderr, exit 2;
 * any other failure → `error: ...`, exit 1. Returns the exit status it set.
 */
export async function runCli(usage: string, main: () => Promise<void>, io: CliIo = processIo): Promise<number> {
  let code = 0;
  try {
    await main();
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.stdout(usage.endsWith('\n') ? usage : `${usage}\n`);
      code = 0;
    } else {
      const message = error instanceof Error ? error.message : String(error);
      io.stderr(`error: ${oneLine(message)}\n`);
      code = error instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
    }
  }
  io.exit(code);
  return code;
}

/**
 * Whether the module at `moduleUrl` (its `import.meta.url`) is the command node was started with (`tsx
 * src/cli/bench.ts`), not a module imported by another (the unit tests run a command's `cli` in their own
 * process: its bad input costs no start of node).
 */
export function isEntryPoint(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (argv1 === undefined) return false;
  let path = argv1;
  try {
    path = realpathSync(argv1);
  } catch {
    // Not a file (node -e, a REPL): compared as given.
  }
  return pathToFileURL(path).href === moduleUrl;
}

