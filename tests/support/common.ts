/**
 * What both browser tiers share (tests/e2e: Chromium over playwright-core; tests/e2e-firefox: Firefox
 * over WebDriver BiDi): the repository root, the fast settings, polling, and reading moves out of text.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import type { Settings } from '../../src/shared/settings';
import type { RunStatus } from '../../src/shared/messages';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Fast settings for tests: expectimax with a short think time reaches 256 in a few seconds of thinking. */
export const FAST_SETTINGS: Settings = { ...DEFAULT_SETTINGS, strategy: 'expectimax', thinkMs: 20, pauseMs: 0, depth: null };

export interface WaitOptions {
  readonly timeoutMs?: number;
  /** Describes what is awaited, for the failure message. */
  readonly what?: string;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** Poll `probe` until `accept` holds; throws with the last value seen when the time runs out. */
export async function waitFor<T>(probe: () => Promise<T>, accept: (value: T) => boolean, options: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last: T | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await probe();
      if (accept(last)) return last;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const seen = last === undefined ? `error: ${String(lastError)}` : JSON.stringify(last).slice(0, 600);
      throw new Error(`Timed out after ${options.timeoutMs ?? 30_000} ms waiting for ${options.what ?? 'a condition'}; last seen ${seen}`);
    }
    await sleep(100);
  }
}

const DIRECTION_WORD = /\b(up|down|left|right)\b|[←↑→↓]/gi;

/** How many times a text names a move (a word or an arrow). */
export function directionMentions(text: string): number {
  return text.match(DIRECTION_WORD)?.length ?? 0;
}

/** Wait until the status `read` returns satisfies `accept`. */
export async function waitForStatus(read: () => Promise<RunStatus | null>, accept: (status: RunStatus) => boolean, options: WaitOptions = {}): Promise<RunStatus> {
  const status = await waitFor(read, (s) => s !== null && accept(s), options);
  return status as RunStatus;
}

/**
 * Wait until the run is at rest: not running, not thinking or moving, and the move count unchanged
 * over `stableMs` (a move under way when Stop arrived may still land and be reported). The first reading
 * is taken at once, each later one `stableMs` after the one before.
 */
export async function waitForRest(read: () => Promise<RunStatus | null>, options: WaitOptions & { stableMs?: number } = {}): Promise<RunStatus> {
  let previous: RunStatus | null = null;
  let first = true;
  const atRest = (s: RunStatus | null): boolean => s !== null && !s.running && s.state !== 'thinking' && s.state !== 'moving';
  return (await waitFor(
    async () => {
      if (!first) await sleep(options.stableMs ?? 400);
      first = false;
      const now = await read();
      const stable = previous !== null && now !== null && now.moves === previous.moves && atRest(previous) && atRest(now);
      previous = now;
      return stable ? now : null;
    },
    (s) => s !== null,
    { what: 'the run to come to rest', timeoutMs: 15_000, ...options },
  )) as RunStatus;
}
