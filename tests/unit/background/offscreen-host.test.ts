/**
 * Chrome's solver host (src/background/offscreen-host.ts): the offscreen document is looked for (a round trip
 * to the browser) before a first search and after a quiet spell, not before each move of a run; a search that
 * finds nobody looks for it again (creates it) and is sent once more.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onRawChannel } from '../../../src/platform/channel-transport';
import { OFFSCREEN_IDLE_CLOSE_MS } from '../../../src/solver/host';
import type { RequestOf } from '../../../src/shared/messages';

const REQUEST: RequestOf<'offscreen/solve'> = {
  requestId: 'r1',
  strategy: 'greedy',
  board: { rows: 4, cols: 4, cells: [2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
  options: {},
  channel: 'tab:1',
};
const CHOICE = { strategy: 'greedy', move: 'left', values: { left: 4 }, depth: 1, nodes: 4, ms: 0 } as const;

/** A fake chrome with a document that exists or not, and a listener on the document's channel when it does. */
function fakeChrome() {
  const state = { exists: false, looks: 0, creates: 0, served: 0, stop: null as null | (() => void) };
  const serve = (): void => {
    state.exists = true;
    state.stop = onRawChannel('offscreen', (_data, _sender, respond) => {
      state.served++;
      respond({ ok: true, choice: CHOICE });
      return true;
    });
  };
  const close = (): void => {
    state.exists = false;
    state.stop?.();
    state.stop = null;
  };
  vi.stubGlobal('chrome', {
    runtime: {
      id: 'ext',
      getURL: (path: string) => `chrome-extension://ext/${path}`,
      getContexts: () => {
        state.looks++;
        return Promise.resolve(state.exists ? [{ contextType: 'OFFSCREEN_DOCUMENT' }] : []);
      },
    },
    offscreen: {
      createDocument: () => {
        state.creates++;
        serve();
        return Promise.resolve();
      },
    },
  });
  return { state, close };
}

describe('the offscreen solver host', () => {
  let fake: ReturnType<typeof fakeChrome>;
  beforeEach(() => {
    vi.resetModules();
    fake = fakeChrome();
  });
  afterEach(() => {
    fake.close();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('looks for the document before the first search only, while the searches follow each other', async () => {
    const { offscreenSolverHost } = await import('../../../src/background/offscreen-host');
    for (let i = 0; i < 5; i++) expect((await offscreenSolverHost.solve({ ...REQUEST, requestId: `r${i}` })).choice.move).toBe('left');
    expect(fake.state).toMatchObject({ looks: 1, creates: 1, served: 5 });
  });

  it('looks again after a quiet spell of half the idle time, when the document may have closed itself', async () => {
    const { offscreenSolverHost } = await import('../../../src/background/offscreen-host');
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start);
    await offscreenSolverHost.solve(REQUEST);
    // It closed itself meanwhile (idle): the look finds nothing, so the document is made again.
    fake.close();
    vi.spyOn(Date, 'now').mockReturnValue(start + OFFSCREEN_IDLE_CLOSE_MS / 2 + 1);
    await offscreenSolverHost.solve(REQUEST);
    expect(fake.state).toMatchObject({ looks: 2, creates: 2, served: 2 });
  });

  it('a search that finds nobody (the document crashed) looks for it again and is sent once more', async () => {
    const { CHANNEL_TIMING } = await import('../../../src/platform/channel-transport');
    const ackMs = CHANNEL_TIMING.ackMs;
    CHANNEL_TIMING.ackMs = 50;
    try {
      const { offscreenSolverHost } = await import('../../../src/background/offscreen-host');
      await offscreenSolverHost.solve(REQUEST);
      fake.close();
      // No look first (it answered a moment ago): the request goes unanswered, then the document is made again.
      expect((await offscreenSolverHost.solve(REQUEST)).choice.move).toBe('left');
      expect(fake.state).toMatchObject({ looks: 2, creates: 2, served: 2 });
    } finally {
      CHANNEL_TIMING.ackMs = ackMs;
    }
  });
});
