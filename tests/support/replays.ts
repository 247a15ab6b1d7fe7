/** Seeded random games recorded as replays, for the history's tests. */
import { applyMove, createRng, legalMoves, newGame, spawnRandomTile } from '../../src/engine/index';
import { ReplayRecorder } from '../../src/shared/history';
import type { Replay } from '../../src/shared/history';

/**
 * The replay of a game of up to `n` random legal moves from seed `seed` (fewer when it ends first), move i
 * thought for `thinkMs(i)`, recorded with `settings`.
 */
export function randomReplay(n: number, seed: number, settings: NonNullable<Replay['settings']>, thinkMs: (i: number) => number = (i) => i): Replay {
  const rng = createRng(seed);
  let board = newGame(rng);
  const recorder = new ReplayRecorder();
  for (let i = 0; i < n; i++) {
    const moves = legalMoves(board);
    if (moves.length === 0) break;
    const move = moves[Math.floor(rng.next() * moves.length)];
    const after = spawnRandomTile(applyMove(board, move).grid, rng);
    recorder.add({ before: board, move, after, thinkMs: thinkMs(i) });
    board = after;
  }
  const replay = recorder.finish(settings);
  if (!replay) throw new Error('randomReplay: no move was recorded');
  return replay;
}
