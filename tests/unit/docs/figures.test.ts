/**
 * The README's figures, each tied to the docs/benchmarks.md row it comes from: every README table with a
 * "measured" column names, in that column, a row of docs/benchmarks.md (a link whose text is a phrase of
 * the row and whose anchor is the row's section); the row must be there, once, and hold every number the
 * README's figure states. The README states no figure outside such tables. Beside them: the minimum
 * browser versions the README states are the builds' own, the package limit every page states is the one
 * tests/e2e/package.test.ts holds the packages to, and every `npm run` a page shows exists.
 */
import { describe, expect, it } from 'vitest';
import { FIREFOX_MIN_VERSION, firefoxManifest } from '../../../build/firefox-manifest';
import type { ManifestLike } from '../../../build/firefox-manifest';
import { codeSpans, fold, prose, readRepoFile, tables } from './pages';

const readme = readRepoFile('README.md');
const benchmarks = readRepoFile('docs/benchmarks.md');

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

/** The "rows" of each section of docs/benchmarks.md: its table rows and its paragraphs and list items. */
function benchmarkRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  let current: string[] = [];
  let block: string[] = [];
  const flush = (): void => {
    if (block.length > 0) current.push(fold(block.join(' ')));
    block = [];
  };
  for (const line of benchmarks.split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      flush();
      current = [];
      rows.set(slug(heading[1]), current);
    } else if (line.trim() === '' || line.startsWith('|') || /^\s*- /.test(line)) {
      flush();
      if (line.startsWith('|') && !/^\|\s*:?-{3}/.test(line)) current.push(fold(line));
      else if (/^\s*- /.test(line)) block.push(line);
    } else {
      block.push(line);
    }
  }
  flush();
  return rows;
}

/** The numbers a text states, thousands' separators (spaces, thin spaces, commas) taken out: "1 998" → "1998". */
function numbers(text: string): string[] {
  return [...text.replace(/\*\*/g, '').matchAll(/\d+(?:[ \u202f\u2009,]\d{3})*(?:\.\d+)?/g)].map((match) => match[0].replace(/[ \u202f\u2009,]/g, ''));
}

/** A link to a row of docs/benchmarks.md: [`a phrase of the row`](docs/benchmarks.md#section). */
const SOURCE = /\[`([^`]+)`\]\(docs\/benchmarks\.md#([\w-]+)\)/;

/** A figure: a number with a unit, "N of M", "N/M" or a percentage. */
const FIGURE = /\d(?:[\d \u202f,.–-]*\d)?\s?(ms|s|MiB|MB|GiB|KiB|%|x)(?![\w+])|\b\d+ of \d+\b|\b\d+\/\d+\b/;

describe("the README's figures", () => {
  const rows = benchmarkRows();
  const figureTables = tables(readme).filter((t) => t.header.some((h) => h.startsWith('measured')));

  it('are in tables that name where each was measured', () => {
    expect(figureTables.length, 'README.md: the figures in tables with a "measured" column').toBeGreaterThanOrEqual(2);
    const outside = prose(readme)
      .split('\n')
      .filter((line) => !line.trim().startsWith('|') && FIGURE.test(line.replace(/Alt\+Shift\+\S+/g, '')));
    expect(outside, 'README.md states figures outside its "measured" tables: move them into one, with the docs/benchmarks.md row they come from').toEqual([]);
  });

  it('each name a docs/benchmarks.md row that is there and holds the figure', () => {
    for (const table of figureTables) {
      const figure = table.header.indexOf('figure');
      const measured = table.header.findIndex((h) => h.startsWith('measured'));
      expect(figure, 'README.md: a figures table needs a "figure" column').toBeGreaterThanOrEqual(0);
      for (const row of table.rows) {
        const source = SOURCE.exec(row[measured]);
        expect(source, `README.md, the figure "${row[figure]}": its "measured" cell must link a row of docs/benchmarks.md as [\`phrase of the row\`](docs/benchmarks.md#section)`).not.toBeNull();
        if (!source) continue;
        const [, phrase, anchor] = source;
        const section = rows.get(anchor);
        expect(section, `README.md links docs/benchmarks.md#${anchor}: that section is gone from docs/benchmarks.md (update README.md)`).toBeDefined();
        const matching = (section ?? []).filter((text) => text.includes(phrase));
        expect(matching.length, `README.md's figure "${row[figure]}" comes from the docs/benchmarks.md row with "${phrase}" in #${anchor}: ${matching.length === 0 ? 'that row is gone' : 'more than one row has it'} (update README.md)`).toBe(1);
        const stated = new Set(numbers(matching[0] ?? ''));
        const missing = numbers(row[figure]).filter((n) => !stated.has(n));
        expect(missing, `README.md's figure "${row[figure]}" states numbers its docs/benchmarks.md row ("${phrase}") does not: update README.md`).toEqual([]);
      }
    }
  });
});

describe('what the pages state of the builds', () => {
  const pages = ['README.md', 'CONTRIBUTING.md', 'PRIVACY.md', 'docs/guide.md', 'docs/cli.md', 'docs/engine.md', 'docs/architecture.md', 'docs/permissions.md', 'docs/network-in-the-extension.md', 'docs/sites.md', 'docs/benchmarks.md'];

  it("README.md states the oldest Chrome and Firefox the builds run on (the manifests')", () => {
    const manifest = JSON.parse(readRepoFile('manifest.json')) as { minimum_chrome_version: string };
    const text = fold(readme);
    expect(text, `README.md must say "Chrome ${manifest.minimum_chrome_version} or newer" (manifest.json minimum_chrome_version)`).toContain(`Chrome ${manifest.minimum_chrome_version} or newer`);
    const firefox = FIREFOX_MIN_VERSION.replace(/\.0$/, '');
    expect(text, `README.md must say "Firefox ${firefox} or newer" (build/firefox-manifest.ts FIREFOX_MIN_VERSION)`).toContain(`Firefox ${firefox} or newer`);
  });

  it('docs/permissions.md names the permissions the Firefox build leaves out (build/firefox-manifest.ts)', () => {
    const manifest = JSON.parse(readRepoFile('manifest.json')) as ManifestLike;
    const kept = new Set(firefoxManifest(manifest).permissions);
    const dropped = (manifest.permissions ?? []).filter((permission) => !kept.has(permission));
    const sentence = /The Firefox build asks for the same minus ([^.]*?)(?:, the Chrome-only|\.)/.exec(fold(readRepoFile('docs/permissions.md')))?.[1] ?? '';
    expect(codeSpans(sentence).sort(), `docs/permissions.md must say "The Firefox build asks for the same minus ${dropped.map((p) => `\`${p}\``).join(' and ')}"`).toEqual(dropped.sort());
  });

  it('the package limit a page states is the one the packages are held to (tests/e2e/package.test.ts)', () => {
    const limit = /MAX_ZIP_BYTES = (\d+) \* 2 \*\* 20/.exec(readRepoFile('tests/e2e/package.test.ts'))?.[1];
    expect(limit, 'tests/e2e/package.test.ts: MAX_ZIP_BYTES = N * 2 ** 20').toBeDefined();
    const stated = pages.flatMap((page) =>
      fold(prose(readRepoFile(page)))
        .split(/(?<=[.;:])\s/)
        .filter((sentence) => /\blimit\b/i.test(sentence) && /package|zip/i.test(sentence))
        .flatMap((sentence) => [...sentence.matchAll(/(\d+) MiB limit|limit(?: kept)?[:,]? (?:of )?(\d+) MiB/gi)].map((m) => `${page}: ${m[1] ?? m[2]}`)),
    );
    expect(stated.length, 'CONTRIBUTING.md states the package limit').toBeGreaterThan(0);
    const wrong = stated.filter((entry) => !entry.endsWith(`: ${limit}`));
    expect(wrong, `pages state a package limit other than ${limit} MiB (tests/e2e/package.test.ts): update them`).toEqual([]);
  });

  it('every `npm run` a page shows is a script of package.json', () => {
    const scripts = Object.keys((JSON.parse(readRepoFile('package.json')) as { scripts: Record<string, string> }).scripts);
    const unknown = pages.flatMap((page) =>
      [...readRepoFile(page).matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]).filter((name) => !scripts.includes(name)).map((name) => `${page}: npm run ${name}`),
    );
    expect(unknown, 'pages show npm scripts package.json does not have: update them').toEqual([]);
  });
});
