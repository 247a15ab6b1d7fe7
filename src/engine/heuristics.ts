/**
 * Board evaluations on rank arrays (any size) for minimax and greedy. The expectimax heuristic lives
 * with the bitboard tables (board.ts: lineHeuristicAt), computed in float32 as the reference does.
 */

/** Minimax weights (one published set: 0.1 smoothness + 1.0 monotonicity + 2.7 ln(empty) + 1.0 max rank). */
const MINIMAX_WEIGHTS = { smoothness: 0.1, monotonicity: 1.0, empty: 2.7, maxRank: 1.0 } as const;

/**
 * Minimax evaluation: smoothness (minus the rank differences between neighbouring tiles along rows
 * and columns, empty cells skipped), monotonicity (per axis, the better direction's sum of rank
 * drops, ≤ 0), ln of the empty cells, and the largest rank.
 */
export function minimaxEvaluation(rows: number, cols: number, ranks: Uint8Array): number {
  let smooth = 0;
  let empty = 0;
  let maxRank = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i];
    if (r === 0) empty++;
    else if (r > maxRank) maxRank = r;
  }
  // Rows: left-to-right pairs of consecutive non-empty tiles.
  let incH = 0;
  let decH = 0;
  for (let r = 0; r < rows; r++) {
    let prev = -1;
    for (let c = 0; c < cols; c++) {
      const v = ranks[r * cols + c];
      if (v === 0) continue;
      if (prev >= 0) {
        smooth -= Math.abs(v - prev);
        if (v > prev) incH += prev - v;
        else decH += v - prev;
      }
      prev = v;
    }
  }
  let incV = 0;
  let decV = 0;
  for (let c = 0; c < cols; c++) {
    let prev = -1;
    for (let r = 0; r < rows; r++) {
      const v = ranks[r * cols + c];
      if (v === 0) continue;
      if (prev >= 0) {
        smooth -= Math.abs(v - prev);
        if (v > prev) incV += prev - v;
        else decV += v - prev;
      }
      prev = v;
    }
  }
  const mono = Math.max(incH, decH) + Math.max(incV, decV);
  const w = MINIMAX_WEIGHTS;
  // ln(0) would be -Infinity: a full board gets a fixed, large penalty instead.
  const emptyTerm = empty > 0 ? Math.log(empty) : -3;
  return w.smoothness * smooth + w.monotonicity * mono + w.empty * emptyTerm + w.maxRank * maxRank;
}

/** Smoothness alone (≤ 0): minus the rank differences between neighbouring tiles, empty cells skipped. */
export function smoothness(rows: number, cols: number, ranks: Uint8Array): number {
  let smooth = 0;
  for (let r = 0; r < rows; r++) {
    let prev = -1;
    for (let c = 0; c < cols; c++) {
      const v = ranks[r * cols + c];
      if (v === 0) continue;
      if (prev >= 0) smooth -= Math.abs(v - prev);
      prev = v;
    }
  }
  for (let c = 0; c < cols; c++) {
    let prev = -1;
    for (let r = 0; r < rows; r++) {
      const v = ranks[r * cols + c];
      if (v === 0) continue;
      if (prev >= 0) smooth -= Math.abs(v - prev);
      prev = v;
    }
  }
  return smooth;
}

/** Islands: groups of orthogonally connected tiles of equal rank (more islands = a more scattered board). */
export function islands(rows: number, cols: number, ranks: Uint8Array): number {
  const seen = new Uint8Array(ranks.length);
  const stack: number[] = [];
  let count = 0;
  for (let start = 0; start < ranks.length; start++) {
    if (ranks[start] === 0 || seen[start]) continue;
    count++;
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const r = Math.floor(i / cols);
      const c = i - r * cols;
      const v = ranks[i];
      if (c > 0 && !seen[i - 1] && ranks[i - 1] === v) { seen[i - 1] = 1; stack.push(i - 1); }
      if (c + 1 < cols && !seen[i + 1] && ranks[i + 1] === v) { seen[i + 1] = 1; stack.push(i + 1); }
      if (r > 0 && !seen[i - cols] && ranks[i - cols] === v) { seen[i - cols] = 1; stack.push(i - cols); }
      if (r + 1 < rows && !seen[i + cols] && ranks[i + cols] === v) { seen[i + cols] = 1; stack.push(i + cols); }
    }
  }
  return count;
}

/** The published corner-gradient template for 4x4 (row-major; the big tiles belong top-left). */
const GRADIENT_4X4 = [
  0.135, 0.121, 0.102, 0.0999, 0.0997, 0.088, 0.076, 0.0724, 0.0606, 0.0562, 0.0371, 0.0161, 0.0125, 0.0099, 0.0057, 0.0033,
];

const templates = new Map<string, Float64Array>();

/**
 * The greedy template for a board shape: the 4x4 table above, or for other shapes weights decreasing
 * geometrically along a snake path from the top-left corner (row 0 left to right, row 1 right to left, ...).
 */
export function gradientTemplate(rows: number, cols: number): Float64Array {
  const key = `${rows}x${cols}`;
  let t = templates.get(key);
  if (t) return t;
  t = new Float64Array(rows * cols);
  if (rows === 4 && cols === 4) {
    t.set(GRADIENT_4X4);
  } else {
    const n = rows * cols;
    for (let k = 0; k < n; k++) {
      const r = Math.floor(k / cols);
      const c = r % 2 === 0 ? k % cols : cols - 1 - (k % cols);
      t[r * cols + c] = 0.135 * Math.pow(0.7, (k * 15) / Math.max(1, n - 1) / 2);
    }
  }
  templates.set(key, t);
  return t;
}

/** Template × tile values. */
export function gradientScore(template: Float64Array, ranks: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < ranks.length; i++) if (ranks[i] !== 0) s += template[i] * 2 ** ranks[i];
  return s;
}
