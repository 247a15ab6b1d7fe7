/**
 * A game's time bank: each move is given `budgetMs`; what a move leaves unspent is banked, and a move the
 * search finds hard may take `factor` times the budget in all once the bank holds the difference
 * (SearchOptions.extraMs).
 * So a game's mean think time stays within its budget while its hard moves get more than their share.
 * Pure: the CLI's game loop keeps one per game.
 */
export class TimeBank {
  private banked = 0;

  /** budgetMs: the time per move (options.timeMs); factor: the most a move may take, in budgets (≥ 1). */
  constructor(
    readonly budgetMs: number,
    readonly factor: number,
  ) {
    if (!(budgetMs > 0) || !Number.isFinite(budgetMs)) throw new RangeError(`TimeBank: the budget must be a positive number of ms, not ${budgetMs}`);
    if (!(factor >= 1) || !Number.isFinite(factor)) throw new RangeError(`TimeBank: the factor must be a number ≥ 1, not ${factor}`);
  }

  /** The time saved so far, ms. */
  get balanceMs(): number {
    return this.banked;
  }

  /**
   * What the next move may take beyond its budget: (factor − 1) budgets once the bank holds them, nothing
   * before. Whole extensions for a few hard moves: spread thin over many moves (each taking what was
   * banked since the last) the same time did no better (docs/research/2026-11-26-time-bank.md).
   */
  extraMs(): number {
    const whole = (this.factor - 1) * this.budgetMs;
    return this.banked >= whole ? whole : 0;
  }

  /** A move took `tookMs`: bank what it left of its budget, or pay what it took beyond. */
  record(tookMs: number): void {
    if (Number.isFinite(tookMs) && tookMs >= 0) this.banked = Math.max(0, this.banked + this.budgetMs - tookMs);
  }
}
