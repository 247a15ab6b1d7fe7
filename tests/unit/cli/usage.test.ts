/**
 * The three commands given bad input: one `error:` line on stderr and exit status 2; and their usage. play and
 * bench check every option before they load the core and the network.
 *
 * Each case runs the command's `cli` in this process (what `npm run <command>` runs after node has started:
 * the same parsing, the same error line, the same status), so the table costs no start of node each; the
 * process itself (its stderr, its exit status) is checked by starting each command as a user does (tsx in a
 * child process: run-cli.ts) with one bad input and with --help. The commands that work: commands.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { TIMEOUT_MS, expectUsageError, run, runHere, temporaryDir } from './run-cli';

vi.setConfig({ testTimeout: 3 * TIMEOUT_MS });
const tmp = temporaryDir();

describe('bad input: one error line, exit status 2', () => {
  it.each([
    ['solve', ['--board', '0,2,2,4,0,0,0,0,0,0,0,0,0,0,0,3'], /--board: .*power of two|--board: .*3/],
    ['solve', ['--board', '0,2,2,4,0,0,0,0,0,0,0,0,0,0,0'], /15 values/],
    ['solve', ['--board', '0,2,2,4,0,0,0,0,0,0,0,0,0,0,0,2', '--strategy', 'deep-blue'], /unknown strategy "deep-blue"/],
    ['solve', ['--frobnicate'], /Unknown option '--frobnicate'/],
    ['play', ['--seed', 'abc'], /--seed must be an integer/],
    ['play', ['--strategy'], /argument missing/],
    ['bench', ['--games', '2.5'], /--games must be an integer/],
    ['bench', ['--strategy', 'random', '--games', '4', '--target', '1000'], /--target must be a power of two/],
    ['bench', ['--positions', join(tmp, 'missing.tsv')], /cannot read .*missing\.tsv: no such file/],
    ['bench', ['--positions', 'tests/fixtures/reference/expectimax-positions.tsv', '--threads', '17'], /--threads must be .*16/],
    ['bench', ['--strategy', 'random', '--reference'], /--reference does not apply to the random strategy/],
    ['bench', ['--split', 'roots'], /--split applies with --threads 2 or more/],
    ['bench', ['--threads', '2', '--split', 'leaves'], /--split must be one of/],
    ['play', ['--threads', '17'], /--threads must be .*16/],
    ['play', ['--strategy', 'greedy', '--reference'], /--reference does not apply to the greedy strategy/],
    ['solve', ['--board', '0,2,2,4,0,0,0,0,0,0,0,0,0,0,0,2', '--strategy', 'minimax', '--reference'], /--reference does not apply to the minimax strategy/],
    ['bench', ['--positions', 'tests/fixtures/reference/expectimax-positions.tsv', '--reference'], /--reference does not apply with --positions/],
    ['bench', ['--bank', '0.5'], /--bank takes .* from 1 to 16, not "0.5"/],
    ['play', ['--bank', 'lots'], /--bank takes .* from 1 to 16, not "lots"/],
    ['bench', ['--strategy', 'greedy', '--bank', '4'], /--bank applies to expectimax only, not to greedy/],
    ['play', ['--bank', '4', '--depth', '3'], /--bank needs a time budget: leave out --depth and --reference/],
    ['bench', ['--bank', '4', '--reference'], /--bank needs a time budget/],
    ['bench', ['--bank', '4', '--engine', 'ts'], /--bank needs the WebAssembly core/],
    ['play', ['--bank', '4', '--size', '5'], /--bank applies to 4x4 boards/],
    ['bench', ['--positions', 'tests/fixtures/reference/expectimax-positions.tsv', '--bank', '4'], /--bank does not apply with --positions/],
    ['bench', ['--strategy', 'random', '--first-game', '3'], /--first-game needs --games/],
    ['bench', ['--strategy', 'random', '--games', '2', '--first-game', '0'], /--first-game must be .*1/],
    ['bench', ['--positions', 'tests/fixtures/reference/expectimax-positions.tsv', '--first-game', '2'], /--first-game does not apply with --positions/],
  ] as const)('%s %j', async (command, args, message) => {
    expectUsageError(await runHere(command, args), message);
  });

  it('bench --positions names the line of a malformed file', async () => {
    const file = join(tmp, 'bad.tsv');
    writeFileSync(
      file,
      '# comment\nboard\tup\tdown\tleft\tright\tup_execs\tdown_execs\tleft_execs\tright_execs\tbest\n0,2\t1\t1\t1\t1\t1\t1\t1\t1\tup\n',
    );
    expectUsageError(await runHere('bench', ['--positions', file]), /bad\.tsv: line 3: board has 2 values/);
  });
});

describe('as a user runs them (a process each): the error line on its stderr, exit status 2', () => {
  it.each([
    ['solve', ['--board', '0,2,2,4,0,0,0,0,0,0,0,0,0,0,0'], /15 values/],
    ['play', ['--seed', 'abc'], /--seed must be an integer/],
    ['bench', ['--games', '2.5'], /--games must be an integer/],
  ] as const)('%s %j', async (command, args, message) => {
    expectUsageError(await run(command, args), message);
  });
});

describe('help', () => {
  it.each(['play', 'solve', 'bench'] as const)('%s --help prints usage and exits 0', async (command) => {
    const result = await run(command, ['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage:/);
    expect(result.stderr).toBe('');
  });
});
