/**
 * Following the game log (src/ui/log-follower.ts): the stored log is taken from each change, at once for the
 * first one; a burst of changes is taken at most every interval, the last state always; other keys and other
 * areas are ignored.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASIDE_STORAGE_KEY, GAMES_STORAGE_KEY } from '../../../src/shared/game-log';
import { gamesChunkKey } from '../../../src/shared/game-log-parts';
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
    const [zero, seven] = [gamesChunkKey(0), gamesChunkKey(7)];
    followLog({ [zero]: ['a'], [seven]: ['s'], [ASIDE_STORAGE_KEY]: ['x'] }, (log) => taken.push(log), 500);
    expect(taken).toEqual([]);

    // A change carries the parts it changed: the others are kept.
    storage.emit({ [zero]: { newValue: ['a', 'b'] } }, 'local');
    expect(taken).toEqual([{ [zero]: ['a', 'b'], [seven]: ['s'], [ASIDE_STORAGE_KEY]: ['x'] }]);

    for (let n = 3; n <= 10; n++) storage.emit({ [zero]: { newValue: Array.from({ length: n }, String) } }, 'local');
    storage.emit({ [ASIDE_STORAGE_KEY]: { newValue: [] } }, 'local');
    expect(taken).toHaveLength(1);
    vi.advanceTimersByTime(499);
    expect(taken).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(taken).toHaveLength(2);
    expect(taken[1]).toEqual({ [zero]: Array.from({ length: 10 }, String), [seven]: ['s'], [ASIDE_STORAGE_KEY]: [] });

    // Quiet for an interval: nothing more is taken, and the next change is taken at once again (a part
    // removed, an earlier version's whole log written).
    vi.advanceTimersByTime(2_000);
    expect(taken).toHaveLength(2);
    storage.emit({ [seven]: { oldValue: ['s'] }, [GAMES_STORAGE_KEY]: { newValue: ['old'] } }, 'local');
    expect(taken).toHaveLength(3);
    expect(taken[2]).toEqual({ [zero]: Array.from({ length: 10 }, String), [seven]: undefined, [GAMES_STORAGE_KEY]: ['old'], [ASIDE_STORAGE_KEY]: [] });
  });

  it('ignores other keys and other storage areas', () => {
    vi.useFakeTimers();
    const storage = fakeStorage();
    const taken: StoredLog[] = [];
    followLog({}, (log) => taken.push(log), 500);
    storage.emit({ settings: { newValue: {} } }, 'local');
    storage.emit({ [gamesChunkKey(0)]: { newValue: ['session'] } }, 'session');
    vi.advanceTimersByTime(1_000);
    expect(taken).toEqual([]);
  });
});
