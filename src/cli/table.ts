/** Plain-text tables for the terminal. */

export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
}

/** Rows of cells under headers, columns padded to their widest cell, two spaces apart. */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        return column.align === 'left' ? cell.padEnd(widths[index]) : cell.padStart(widths[index]);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
}

/** A share as a percentage with one decimal: 0.5 → "50.0%". */
export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** A number with a fixed count of decimals and thousands separators (plain ASCII commas). */
export function formatNumber(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return String(value);
  const [whole, fraction] = Math.abs(value).toFixed(decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}
