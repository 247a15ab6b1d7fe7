/** Merge the partial results of one search split over workers (by rootMoves, or by playouts). */
import type { MoveChoice, MoveValues } from './types';
import { DIRECTIONS } from './types';
import { bestOf } from './strategies/common';

function mergeValues(parts: readonly { values: MoveValues; weight: number }[]): MoveValues {
  const values: MoveValues = {};
  for (const d of DIRECTIONS) {
    let sum = 0;
    let weight = 0;
    let any = false;
    for (const p of parts) {
      const v = p.values[d];
      if (v === undefined) continue;
      any = true;
      sum += v * p.weight;
      weight += p.weight;
    }
    if (any) values[d] = weight > 0 ? sum / weight : 0;
  }
  return values;
}

function engineOf(parts: readonly MoveChoice[]): Pick<MoveChoice, 'engine'> {
  const engines = parts.map((p) => p.engine).filter((e) => e !== undefined);
  if (engines.length === 0) return {};
  return { engine: engines.length === parts.length && engines.every((e) => e === 'wasm') ? 'wasm' : 'ts' };
}

/** What valued the parts' positions: the network only when every part says so (the parts of one search are
 *  valued one way; a part that says heuristic makes it the heuristic). */
function evaluationOf(parts: readonly MoveChoice[]): Pick<MoveChoice, 'evaluation'> {
  const evaluations = parts.map((p) => p.evaluation).filter((e) => e !== undefined);
  if (evaluations.length === 0) return {};
  return { evaluation: evaluations.length === parts.length && evaluations.every((e) => e === 'network') ? 'network' : 'heuristic' };
}

function chanceOf(parts: readonly MoveChoice[]): Pick<MoveChoice, 'chance'> {
  const chance = parts.find((p) => p.chance !== undefined)?.chance;
  return chance ? { chance } : {};
}

/**
 * One MoveChoice from several: each move's value from the part(s) that searched it (Monte-Carlo means
 * weighted by `samples`), depth the shallowest part's, nodes summed, ms the longest part's, and the
 * engine that searched (`wasm` only when every part ran on the WebAssembly core, `ts` when one did not),
 * the evaluation (`network` only when every part valued with it), and `extended` when a part took extra
 * time (SearchOptions.extraMs).
 */
export function mergeChoices(parts: readonly MoveChoice[]): MoveChoice {
  if (parts.length === 0) throw new RangeError('mergeChoices: no parts to merge');
  const strategy = parts[0].strategy;
  for (const p of parts) {
    if (p.strategy !== strategy) throw new RangeError(`mergeChoices: parts of different strategies (${strategy}, ${p.strategy})`);
  }
  const weighted = parts.map((p) => ({ values: p.values, weight: p.samples ?? 1 }));
  const values = mergeValues(weighted);
  const withMoves = parts.filter((p) => Object.keys(p.values).length > 0);
  const depth = withMoves.length > 0 ? Math.min(...withMoves.map((p) => p.depth)) : Math.min(...parts.map((p) => p.depth));
  let valuesByDepth: MoveValues[] | undefined;
  if (parts.some((p) => p.valuesByDepth)) {
    const levels = Math.max(...parts.map((p) => p.valuesByDepth?.length ?? 0));
    valuesByDepth = [];
    for (let i = 0; i < levels; i++) {
      valuesByDepth.push(mergeValues(parts.map((p) => ({ values: p.valuesByDepth?.[i] ?? {}, weight: p.samples ?? 1 }))));
    }
  }
  // samples = playouts per move: a move searched by several parts has the sum of their playouts.
  let samples: number | undefined;
  if (parts.some((p) => p.samples !== undefined)) {
    const perMove = DIRECTIONS.filter((d) => values[d] !== undefined).map((d) =>
      parts.reduce((s, p) => s + (p.values[d] !== undefined ? (p.samples ?? 0) : 0), 0),
    );
    samples = perMove.length > 0 ? Math.min(...perMove) : 0;
  }
  return {
    strategy,
    move: bestOf(values),
    values,
    depth,
    nodes: parts.reduce((s, p) => s + p.nodes, 0),
    ms: Math.max(...parts.map((p) => p.ms)),
    ...(valuesByDepth ? { valuesByDepth } : {}),
    ...(samples !== undefined ? { samples } : {}),
    ...engineOf(parts),
    ...evaluationOf(parts),
    ...(parts.some((p) => p.extended) ? { extended: true } : {}),
    // Every part estimates the chance of the whole board (all its legal moves): the first one's serves.
    ...chanceOf(parts),
  };
}
