/**
 * The pages held to what the sources define, in one file so that the TypeScript parser both scans use is
 * loaded once: docs/cli.md's options tables against every command's OPTIONS (./cli-options.ts), PRIVACY.md's
 * list of storage keys against every storage write in src/ (./storage-keys.ts). Each failure names the page
 * to update.
 */
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRepoFile } from './pages';
import { commandOptions, documentedPairs } from './cli-options';
import { files, listedKeys, writtenKeys } from './storage-keys';

describe("docs/cli.md's options tables", () => {
  const commands = commandOptions();

  it('reads the commands from the sources: play, solve, bench and train at least', () => {
    for (const command of ['play', 'solve', 'bench', 'train']) expect([...commands.keys()]).toContain(command);
    expect(commands.get('solve')).toEqual(expect.arrayContaining(['board', 'rows', 'cols', 'strategy', 'time-ms', 'json']));
  });

  it('name every option of every command, and no option a command does not take', () => {
    const inCode = new Set([...commands].flatMap(([command, options]) => options.map((option) => `--${option} in ${command}`)));
    const documented = documentedPairs();
    const undocumented = [...inCode].filter((pair) => !documented.has(pair)).sort();
    const stale = [...documented].filter((pair) => !inCode.has(pair)).sort();
    expect(undocumented, `options the commands take that docs/cli.md does not list (add them to its tables, "commands" column): ${undocumented.join('; ')}`).toEqual([]);
    expect(stale, `docs/cli.md lists options the commands do not take (src/cli/<command>.ts OPTIONS): ${stale.join('; ')}`).toEqual([]);
  });

  it('documents every command that has options under a heading of its own', () => {
    const cli = readRepoFile('docs/cli.md');
    const missing = [...commands.keys()].filter((command) => !new RegExp(`^## ${command}\\b`, 'm').test(cli));
    expect(missing, `docs/cli.md has no section "## <command>" for: ${missing.join(', ')}`).toEqual([]);
  });
});

describe("PRIVACY.md's list of what is kept", () => {
  const written = writtenKeys();

  it('the scan finds the writes it must (settings, the history, the run statuses)', () => {
    expect(written).toContain('storage.local settings');
    expect(written).toContain('storage.local games:<chunk>');
    expect(written).toContain('storage.session status:<tabId>');
    expect(written.size).toBeGreaterThanOrEqual(10);
  });

  it('names every key the code writes, in its storage area, and no key the code does not write', () => {
    const listed = listedKeys();
    const unlisted = [...written].filter((key) => !listed.has(key)).sort();
    const stale = [...listed].filter((key) => !written.has(key)).sort();
    expect(unlisted, `keys the extension writes that PRIVACY.md does not list (add an item to its "The storage keys" and say in plain words, in "What it keeps, and where", what it keeps): ${unlisted.join('; ')}`).toEqual([]);
    expect(stale, `PRIVACY.md lists keys the code no longer writes (remove them from PRIVACY.md): ${stale.join('; ')}`).toEqual([]);
  });

  it('nothing is kept outside the extension storage (no cookies, no IndexedDB, no web storage, no caches)', () => {
    const other = /\b(localStorage|sessionStorage)\.setItem\b|\bindexedDB\.open\b|\bdocument\.cookie\s*=|\bcaches\.open\b|\bstorage\.sync\b/;
    const found = files.filter(({ source }) => other.test(source.getFullText())).map(({ path }) => relative('.', path));
    expect(found, 'src/ keeps data somewhere PRIVACY.md says it does not: update PRIVACY.md ("Nothing else") or the code').toEqual([]);
  });
});
