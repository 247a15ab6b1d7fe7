import { describe, expect, it } from 'vitest';
import { formatNumber, formatPercent, formatTable } from '../../../src/cli/table';

describe('formatTable', () => {
  it('pads columns to their widest cell and aligns as asked', () => {
    const lines = formatTable(
      [{ header: 'name', align: 'left' }, { header: 'n' }],
      [
        ['a', '1'],
        ['longer', '12345'],
      ],
    );
    expect(lines).toEqual(['name        n', '------  -----', 'a           1', 'longer  12345']);
  });

  it('treats missing cells as empty', () => {
    expect(formatTable([{ header: 'a' }, { header: 'b' }], [['x']])).toEqual(['a  b', '-  -', 'x']);
  });
});

describe('number formats', () => {
  it('formats shares as percentages', () => {
    expect(formatPercent(0.5)).toBe('50.0%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatPercent(1 / 3)).toBe('33.3%');
  });

  it('groups thousands and keeps the sign and decimals', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(-1234.5, 1)).toBe('-1,234.5');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(0.25, 2)).toBe('0.25');
    expect(formatNumber(Number.NaN)).toBe('NaN');
  });
});
