/**
 * How coach mode notices the person's moves without being told: a burst of checks after the person's own
 * (trusted) input, a check after the page's DOM changes, and a slow poll. `after` schedules a check that a
 * stop cancels.
 */
const DEFAULT_BURST = [0, 16, 40, 80, 130, 200, 300, 450, 700, 1_000];
const INPUT_EVENTS = ['keydown', 'keyup', 'pointerup', 'touchend', 'click'] as const;
const DEFAULT_POLL_MS = 400;

export interface PageWatchTiming {
  /** Checks after the person's input, ms after it. */
  readonly burstMs?: readonly number[];
  /** The slow poll's period, ms. */
  readonly pollMs?: number;
}

export class PageWatch {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private cleanup: (() => void)[] = [];
  private watching = false;

  constructor(
    private readonly win: Window,
    private readonly check: () => void,
    private readonly timing: PageWatchTiming = {},
  ) {}

  start(): void {
    if (this.watching) return;
    this.watching = true;
    const win = this.win;
    const onInput = (event: Event): void => {
      if (event.isTrusted) this.burst();
    };
    for (const type of INPUT_EVENTS) win.addEventListener(type, onInput, { capture: true, passive: true });
    this.cleanup.push(() => {
      for (const type of INPUT_EVENTS) win.removeEventListener(type, onInput, { capture: true });
    });
    const Observer = (win as Window & { MutationObserver?: typeof MutationObserver }).MutationObserver;
    const root = win.document?.documentElement;
    if (Observer && root) {
      let queued = false;
      const observer = new Observer((records) => {
        // The overlay's own changes are not the page's.
        if (records.every((r) => (r.target as Element).localName === 'autopilot-arrow')) return;
        if (queued) return;
        queued = true;
        this.after(0, () => {
          queued = false;
          this.check();
        });
      });
      observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
      this.cleanup.push(() => observer.disconnect());
    }
    const poll = setInterval(() => this.check(), this.timing.pollMs ?? DEFAULT_POLL_MS);
    this.cleanup.push(() => clearInterval(poll));
  }

  /** Stop watching: listeners, observer, poll and every scheduled check go. */
  stop(): void {
    this.watching = false;
    for (const undo of this.cleanup) undo();
    this.cleanup = [];
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Run `run` in `ms` unless the watch stops first. */
  after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.watching) run();
    }, ms);
    this.timers.add(timer);
  }

  private burst(): void {
    for (const at of this.timing.burstMs ?? DEFAULT_BURST) this.after(at, () => this.check());
  }
}
