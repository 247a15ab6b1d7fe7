/**
 * The strategies as the pages name them, held to the registry (STRATEGY_NAMES, in the popup's order) and to
 * the popup's own words (`strategy_<name>` in public/_locales/en): adding, renaming or removing a strategy
 * fails here until README.md, docs/guide.md and docs/cli.md say so.
 */
import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../../src/engine/types';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { codeSpans, fold, localeMessages, readRepoFile, section, tables } from './pages';

const messages = localeMessages();
const labels = STRATEGY_NAMES.map((name) => messages[`strategy_${name}`]);
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** "Six strategies", "7 strategies": every count of strategies a page states. */
function statedCounts(text: string): string[] {
  return [...fold(text).matchAll(/\b(\w+) strategies\b/gi)]
    .map((match) => match[1].toLowerCase())
    .filter((word) => NUMBER_WORDS.includes(word) || /^\d+$/.test(word));
}

function countWord(n: number): string[] {
  return [NUMBER_WORDS[n], String(n)];
}

describe('the strategies the pages name', () => {
  it('the registry and the locale agree (a label for every strategy)', () => {
    for (const [i, name] of STRATEGY_NAMES.entries()) expect(labels[i], `public/_locales/en/messages.json: strategy_${name}`).toBeTruthy();
  });

  it('README.md names every strategy of the registry by its command-line name, and counts them right', () => {
    const readme = readRepoFile('README.md');
    const named = new Set(codeSpans(readme));
    const missing = STRATEGY_NAMES.filter((name) => !named.has(name));
    expect(missing, `README.md does not name the strategies ${missing.join(', ')}: update README.md ("The command line")`).toEqual([]);
    for (const count of statedCounts(readme)) {
      expect(countWord(STRATEGY_NAMES.length), `README.md says "${count} strategies", the registry has ${STRATEGY_NAMES.length}: update README.md`).toContain(count);
    }
  });

  it("docs/guide.md lists every strategy under the popup's own name, in the popup's order, the default marked", () => {
    const guide = readRepoFile('docs/guide.md');
    const table = tables(section('docs/guide.md', guide, 'Strategies')).find((t) => t.header[0].toLowerCase() === 'strategy');
    expect(table, 'docs/guide.md, "Strategies": a table whose first column is "strategy"').toBeDefined();
    const listed = (table?.rows ?? []).map((row) => row[0].replace(/\*\*/g, '').replace(/\s*\(default\)$/, ''));
    expect(listed, 'docs/guide.md, "Strategies": the first column must be the popup\'s labels (strategy_<name> in public/_locales/en), in the registry\'s order: update docs/guide.md').toEqual(labels);
    const marked = (table?.rows ?? []).filter((row) => /\(default\)/.test(row[0])).map((row) => row[0]);
    expect(marked, 'docs/guide.md, "Strategies": mark the default strategy (DEFAULT_SETTINGS) with "(default)"').toEqual([`**${messages[`strategy_${DEFAULT_SETTINGS.strategy}`]}** (default)`]);
    for (const count of statedCounts(guide)) {
      expect(countWord(STRATEGY_NAMES.length), `docs/guide.md says "${count} strategies": update docs/guide.md`).toContain(count);
    }
  });

  it("docs/cli.md's --strategy row lists every strategy, and the page counts them right", () => {
    const cli = readRepoFile('docs/cli.md');
    const row = tables(cli)
      .flatMap((t) => t.rows)
      .find((r) => r[0] === '`--strategy S`');
    expect(row, 'docs/cli.md: an options row for `--strategy S`').toBeDefined();
    const named = new Set(codeSpans(row?.join(' ') ?? ''));
    const missing = STRATEGY_NAMES.filter((name) => !named.has(name));
    expect(missing, `docs/cli.md's --strategy row leaves out ${missing.join(', ')}: update docs/cli.md`).toEqual([]);
    for (const count of statedCounts(cli)) {
      expect(countWord(STRATEGY_NAMES.length), `docs/cli.md says "${count} strategies": update docs/cli.md`).toContain(count);
    }
  });
});
