/**
 * A naive, obviously-correct implementation of the 2048 rules on 2-D arrays of tile values: the oracle
 * the engine's fast paths are tested against. Used only by tests.
 */
export type NaiveDirection = 'up' | 'down' | 'left' | 'right';

/** Slide one line towards its start: tiles move over empty cells, equal neighbours merge once. */
export function naiveSlide(line: readonly number[]): { line: number[]; score: number } {
  const tiles = line.filter((v) => v !== 0);
  const out: number[] = [];
  let score = 0;
  let i = 0;
  while (i < tiles.length) {
    if (i + 1 < tiles.length && tiles[i] === tiles[i + 1]) {
      out.push(tiles[i] * 2);
      score += tiles[i] * 2;
      i += 2;
    } else {
      out.push(tiles[i]);
      i += 1;
    }
  }
  while (out.length < line.length) out.push(0);
  return { line: out, score };
}

export function toMatrix(rows: number, cols: number, cells: readonly number[]): number[][] {
  const m: number[][] = [];
  for (let r = 0; r < rows; r++) m.push(cells.slice(r * cols, (r + 1) * cols));
  return m;
}

export function naiveMove(m: readonly (readonly number[])[], dir: NaiveDirection): { board: number[][]; score: number; moved: boolean } {
  const rows = m.length;
  const cols = m[0].length;
  const out = m.map((row) => [...row]);
  let score = 0;
  if (dir === 'left' || dir === 'right') {
    for (let r = 0; r < rows; r++) {
      const line = dir === 'left' ? [...m[r]] : [...m[r]].reverse();
      const slid = naiveSlide(line);
      score += slid.score;
      out[r] = dir === 'left' ? slid.line : slid.line.reverse();
    }
  } else {
    for (let c = 0; c < cols; c++) {
      const column = m.map((row) => row[c]);
      const line = dir === 'up' ? column : column.reverse();
      const slid = naiveSlide(line);
      score += slid.score;
      const back = dir === 'up' ? slid.line : slid.line.reverse();
      for (let r = 0; r < rows; r++) out[r][c] = back[r];
    }
  }
  const moved = out.some((row, r) => row.some((v, c) => v !== m[r][c]));
  return { board: out, score, moved };
}

export function naiveGameOver(m: readonly (readonly number[])[]): boolean {
  return (['up', 'down', 'left', 'right'] as const).every((d) => !naiveMove(m, d).moved);
}
