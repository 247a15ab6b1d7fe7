/** The CLI's endgame-table cache: built once, read back, a corrupt or truncated file rebuilt; --tables. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError, parseCommandLine } from '../../../src/cli/args';
import { TABLES_OPTION_SPECS, installTables, loadOrBuildTables, tableChoice, tableFileName, tablesFrom } from '../../../src/cli/tables';
import type { TableSpec } from '../../../src/engine/tables/formation';
import { FORMATIONS } from '../../../src/engine/tables/formation';

const dir = mkdtempSync(join(tmpdir(), 'egt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const spec: TableSpec = { formation: 'tiny4', goal: 5, maxSum: 36 };

describe('endgame table cache', () => {
  it('builds, then reads back, and rebuilds a corrupt or truncated file', async () => {
    const first = await loadOrBuildTables([spec], dir);
    expect(first.reports[0]).toMatchObject({ source: 'built', reason: 'not cached yet' });
    expect(readdirSync(dir)).toEqual([tableFileName(spec)]);
    const second = await loadOrBuildTables([spec], dir);
    expect(second.reports[0]!.source).toBe('cache');
    expect(second.tables[0]!.entries).toEqual(first.tables[0]!.entries);

    const file = join(dir, tableFileName(spec));
    const bytes = readFileSync(file);
    bytes[bytes.length - 1]! ^= 0x3f;
    writeFileSync(file, bytes);
    const third = await loadOrBuildTables([spec], dir);
    expect(third.reports[0]).toMatchObject({ source: 'built' });
    expect(third.reports[0]!.reason).toMatch(/checksum/);
    expect(third.tables[0]!.entries).toEqual(first.tables[0]!.entries);

    writeFileSync(file, readFileSync(file).subarray(0, 50));
    const fourth = await loadOrBuildTables([spec], dir);
    expect(fourth.reports[0]!.reason).toMatch(/truncated/);
    expect((await loadOrBuildTables([spec], dir)).reports[0]!.source).toBe('cache');
  });

  it('plays the table move above the threshold only', async () => {
    const { tables } = await loadOrBuildTables([spec], dir);
    installTables(tables);
    try {
      // tiny4 (canonical): two 16s in row 2's free cells, one left move from the goal (32 next to the anchor).
      const cells = new Array<number>(16).fill(0);
      // The big tiles decrease along the snake to the anchor (32).
      const fixed = FORMATIONS.tiny4.fixed;
      fixed.forEach((cell, i) => (cells[cell] = 32 * 2 ** (fixed.length - 1 - i)));
      cells[10] = 16;
      cells[11] = 16;
      const choice = tableChoice({ rows: 4, cols: 4, cells }, 0.9);
      expect(choice?.move).toBe('left');
      expect(choice?.values.left).toBe(1);
      cells[11] = 2;
      cells[14] = 8;
      const weak = tableChoice({ rows: 4, cols: 4, cells }, 1);
      expect(weak).toBeNull();
    } finally {
      installTables([]);
    }
  });

  it('parses --tables and --table-threshold', () => {
    expect(tablesFrom(parseCommandLine([], TABLES_OPTION_SPECS))).toEqual({ on: false, threshold: 0.5 });
    expect(tablesFrom(parseCommandLine(['--tables', 'on', '--table-threshold', '0.8'], TABLES_OPTION_SPECS))).toEqual({ on: true, threshold: 0.8 });
    expect(() => tablesFrom(parseCommandLine(['--tables', 'yes'], TABLES_OPTION_SPECS))).toThrow(UsageError);
    expect(() => tablesFrom(parseCommandLine(['--table-threshold', '2'], TABLES_OPTION_SPECS))).toThrow(/probability/);
  });
});
