/** tools/parallel.mjs (npm test's runner): jobs of npm scripts, side by side within a phase, phases in order; nothing else is run. */
import { describe, expect, it } from 'vitest';
import { parsePhases } from '../../../tools/parallel.mjs';

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
