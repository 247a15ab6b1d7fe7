/**
 * Following the game log (src/ui/log-follower.ts): the stored log is taken from each change, at once for the
 * first one; a burst of changes is taken at most every interval, the last state always; other keys and other
 * areas are ignored.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASIDE_STORAGE_KEY, GAMES_STORAGE_KEY } from '../../../src/shared/game-log';
import { followLog } from '../../../src/ui/log-follower';
import type { StoredLog } from '../../../src/ui/log-follower';

type Listener = (changes: Record<string, { oldValue?: unknown; newValue?: unknown }>, area: string) => void;

function fakeStorage(): { emit: Listener } {
  const listeners: Listener[] = [];
  vi.stubGlobal('chrome', { storage: { onChanged: { addListener: (listener: Listener) => listeners.push(listener) } } });
  return { emit: (changes, area) => listeners.forEach((listener) => listener(changes, area)) };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('followLog', () => {
  it('takes the log from the change, the first at once; a burst at most every interval, ending on the last state', () => {
    vi.useFakeTimers();
    const storage = fakeStorage();
    const taken: StoredLog[] = [];
    followLog({ games: ['a'], aside: ['x'] }, (log) => taken.push(log), 500);
    expect(taken).toEqual([]);

    storage.emit({ [GAMES_STORAGE_KEY]: { newValue: ['a', 'b'] } }, 'local');
    expect(taken).toEqual([{ games: ['a', 'b'], aside: ['x'] }]);

    for (let n = 3; n <= 10; n++) storage.emit({ [GAMES_STORAGE_KEY]: { newValue: Array.from({ length: n }, String) } }, 'local');
    storage.emit({ [ASIDE_STORAGE_KEY]: { newValue: [] } }, 'local');
    expect(taken).toHaveLength(1);
    vi.advanceTimersByTime(499);
    expect(taken).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(taken).toHaveLength(2);
    expect(taken[1]).toEqual({ games: Array.from({ length: 10 }, String), aside: [] });

    // Quiet for an interval: nothing more is taken, and the next change is taken at once again.
    vi.advanceTimersByTime(2_000);
    expect(taken).toHaveLength(2);
    storage.emit({ [GAMES_STORAGE_KEY]: { oldValue: ['0'] } }, 'local');
    expect(taken).toHaveLength(3);
    expect(taken[2]).toEqual({ games: undefined, aside: [] });
  });

  it('ignores other keys and other storage areas', () => {
    vi.useFakeTimers();
    const storage = fakeStorage();
    const taken: StoredLog[] = [];
    followLog({ games: [], aside: [] }, (log) => taken.push(log), 500);
    storage.emit({ settings: { newValue: {} } }, 'local');
    storage.emit({ [GAMES_STORAGE_KEY]: { newValue: ['session'] } }, 'session');
    vi.advanceTimersByTime(1_000);
    expect(taken).toEqual([]);
  });
});
