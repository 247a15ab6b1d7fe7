/** tools/parallel.mjs (npm test's runner): jobs of npm scripts, side by side within a phase, phases in order; nothing else is run. */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePhases } from '../../../tools/parallel.mjs';
import { CHROMIUM_LANES } from '../../../vitest.shared';

const ROOT = resolve(__dirname, '../../..');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The arguments of a command line: words, or "quoted" runs (as a shell splits npm test's). */
function argumentsOf(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]);
}

describe('tools/parallel.mjs', () => {
  it('reads jobs (steps separated by ;, each scripts joined by &&) and phases (--then)', () => {
    expect(parsePhases(['typecheck', 'lint', 'build && build:e2e', '--then', 'test:unit', '--then', 'test:e2e', 'test:e2e:firefox ; test:unit'])).toEqual([
      [[['typecheck']], [['lint']], [['build', 'build:e2e']]],
      [[['test:unit']]],
      [[['test:e2e']], [['test:e2e:firefox'], ['test:unit']]],
    ]);
  });

  it('takes npm script names only, and no empty phase', () => {
    expect(() => parsePhases(['lint; rm -rf /'])).toThrow(/not a list of npm scripts/);
    expect(() => parsePhases(['lint && $(reboot)'])).toThrow(/not a list of npm scripts/);
    expect(() => parsePhases(['lint', '--then'])).toThrow(/every phase/);
    expect(() => parsePhases([])).toThrow(/every phase/);
  });
});

describe('npm test', () => {
  const [node, runner, ...args] = argumentsOf(scripts.test);
  const phases = parsePhases(args);
  const run = phases.flat(3);

  it('runs every tier once: type-check, lint, the builds, then each lane of the Chromium tier, Firefox and the unit tests', () => {
    expect([node, runner]).toEqual(['node', 'tools/parallel.mjs']);
    const lanes = ['main', ...Object.keys(CHROMIUM_LANES)].map((lane) => `test:e2e:${lane}`);
    expect([...run].sort()).toEqual(['typecheck', 'lint', 'build:e2e', 'test:e2e:firefox', 'test:unit', ...lanes].sort());
    // The builds (the store builds, then the test builds made from them) come before every browser tier.
    expect(phases[0].flat(2)).toContain('build:e2e');
    expect(scripts['build:e2e']).toMatch(/^npm run build && /);
    for (const script of run) expect(scripts[script], `package.json has no script ${script}`).toBeDefined();
  });

  it('each Chromium lane is its project of the tier, and the files the lanes name exist (main takes the rest)', () => {
    for (const lane of ['main', ...Object.keys(CHROMIUM_LANES)]) {
      expect(scripts[`test:e2e:${lane}`]).toBe(`vitest run --config vitest.e2e.config.ts --project ${lane}`);
    }
    for (const file of Object.values(CHROMIUM_LANES).flat()) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });
});
