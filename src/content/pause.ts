/** Waits that a stop or a pause cuts short: `sleep(ms)` resolves early when `wakeAll()` is called. */
export class Pauses {
  private readonly wakers = new Set<() => void>();

  sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        done();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }
}
