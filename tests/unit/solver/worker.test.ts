import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkerRequest, WorkerResponse } from '../../../src/solver/protocol';

/** The worker module runs against a stand-in for its global scope (`self`). */
const posted: WorkerResponse[] = [];
const scope: { onmessage: ((event: { data: unknown }) => void) | null; postMessage(message: WorkerResponse): void } = {
  onmessage: null,
  postMessage: (message) => posted.push(message),
};

beforeAll(async () => {
  (globalThis as { self?: unknown }).self = scope;
  await import('../../../src/solver/worker');
});

function send(request: WorkerRequest | unknown): void {
  scope.onmessage?.({ data: request });
}

async function answerTo(id: number): Promise<WorkerResponse> {
  for (let i = 0; i < 2_000; i++) {
    const found = posted.find((m) => m.id === id);
    if (found) return found;
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`no answer to ${id}`);
}

const BOARD = { rows: 4, cols: 4, cells: [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] };

describe('solver worker', () => {
  it('runs the named strategy on the given root moves', async () => {
    send({ type: 'start', id: 1, strategy: 'priority', board: BOARD, options: {} });
    const answer = await answerTo(1);
    expect(answer).toMatchObject({ type: 'result', id: 1, choice: { strategy: 'priority', move: 'down' } });
    send({ type: 'start', id: 2, strategy: 'expectimax', board: BOARD, options: { depth: 2, rootMoves: ['right'] } });
    const part = await answerTo(2);
    expect(part.type).toBe('result');
    if (part.type === 'result') expect(Object.keys(part.choice.values)).toEqual(['right']);
  });

  it('stops a search on cancel and says it was aborted', async () => {
    // Cancelled right after it started: the search sees the abort at its first check.
    send({ type: 'start', id: 3, strategy: 'expectimax', board: BOARD, options: { timeMs: 30_000 } });
    send({ type: 'cancel', id: 3 });
    const answer = await answerTo(3);
    expect(answer).toMatchObject({ type: 'error', id: 3, aborted: true });
  });

  it('ignores messages that are not requests', async () => {
    const before = posted.length;
    send({ type: 'start', id: 4, strategy: 'nope', board: BOARD, options: {} });
    send('hello');
    send({ type: 'cancel', id: 999 });
    await new Promise((done) => setTimeout(done, 30));
    expect(posted.length).toBe(before);
  });
});
