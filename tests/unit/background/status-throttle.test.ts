import { describe, expect, it } from 'vitest';
import { STATUS_WRITE_INTERVAL_MS, StatusThrottle } from '../../../src/background/status-throttle';
import { addStatus, emptySeries } from '../../../src/ui/panel/live-series';
import { STATUS_RECENT_CAP, RunStatusSchema, initialStatus } from '../../../src/shared/messages';
import type { RunStatus } from '../../../src/shared/messages';

function playing(moves: number, patch: Partial<RunStatus> = {}): RunStatus {
  return {
    ...initialStatus('expectimax', moves),
    state: 'thinking',
    running: true,
    moves,
    lastMove: moves > 0 ? 'left' : null,
    score: moves * 4,
    bestTile: moves > 100 ? 512 : 256,
    depth: 5,
    thinkMs: moves % 7,
    ...patch,
  };
}

describe('status throttle (the background stores a fast run at most every interval)', () => {
  it('stores the first status at once, holds the next ones and hands out the newest when due', () => {
    const throttle = new StatusThrottle();
    expect(throttle.offer(1, playing(1), 0)).toEqual({ write: { ...playing(1), recent: [{ moves: 1, score: 4, thinkMs: 1, depth: 5, bestTile: 256 }] } });
    const held = throttle.offer(1, playing(2), 30);
    expect(held).toEqual({ holdMs: STATUS_WRITE_INTERVAL_MS - 30 });
    throttle.offer(1, playing(3), 60);
    const due = throttle.due(1, 100);
    expect(due?.moves).toBe(3);
    expect(due?.recent?.map((p) => p.moves)).toEqual([2, 3]);
    expect(throttle.due(1, 110)).toBeNull(); // nothing held any more
  });

  it('stores at once what is not a running run: stop, pause, win, game over, an error', () => {
    const throttle = new StatusThrottle();
    throttle.offer(1, playing(1), 0);
    throttle.offer(1, playing(2), 10);
    const stopped = throttle.offer(1, playing(3, { state: 'idle', running: false }), 20);
    expect('write' in stopped && stopped.write.recent?.map((p) => p.moves)).toEqual([2, 3]);
    expect(throttle.due(1, 200)).toBeNull(); // the held one was superseded
    for (const state of ['paused', 'won', 'over', 'error'] as const) {
      expect('write' in throttle.offer(1, playing(4, { state, running: state === 'won' }), 21)).toBe(true);
    }
  });

  it('keeps tabs apart, forgets a tab whose page ended, and validates against the protocol', () => {
    const throttle = new StatusThrottle();
    throttle.offer(1, playing(1), 0);
    expect('write' in throttle.offer(2, playing(1), 10)).toBe(true);
    throttle.offer(1, playing(2), 20);
    throttle.forget(1);
    expect(throttle.due(1, 200)).toBeNull();
    for (let m = 1; m <= STATUS_RECENT_CAP + 50; m++) throttle.offer(3, playing(m), 1);
    const due = throttle.due(3, 500);
    expect(due?.recent).toHaveLength(STATUS_RECENT_CAP);
    expect(RunStatusSchema.safeParse(due).success).toBe(true);
  });

  it('the panel still gets every move: the series of the stored statuses equals the series of all statuses', () => {
    const throttle = new StatusThrottle();
    const all = emptySeries();
    const stored = emptySeries();
    let now = 0;
    let writes = 0;
    for (let m = 1; m <= 400; m++) {
      for (const status of [playing(m - 1), playing(m, { state: 'moving' })]) {
        now += 3; // ~170 moves a second
        addStatus(all, status);
        const offer = throttle.offer(1, status, now);
        if ('write' in offer) {
          addStatus(stored, offer.write);
          writes++;
        } else if (now % 100 < 3) {
          const due = throttle.due(1, now);
          if (due) addStatus(stored, due);
          if (due) writes++;
        }
      }
    }
    const last = throttle.offer(1, playing(400, { state: 'idle', running: false }), now + 1);
    if ('write' in last) addStatus(stored, last.write);
    expect(stored).toEqual(all);
    expect(all.moves).toHaveLength(400);
    expect(writes).toBeLessThan(60); // 800 statuses in 2.4 s: about 25 stored
  });
});
