/**
 * npx tsx bench/pool-vs-cli.ts [--boards FILE] [--ms 100] [--repeat R] [--no-build] [--json]
 *
 * The extension's solver pool against the CLI's threads on the same positions: each crisis board (default
 * tests/fixtures/strength/crisis-32768.txt, as bench/budget.ts) is searched with expectimax (the shipped
 * network at the leaves, the product's easy stops) for --ms ms, through the built test extension's offscreen
 * document in headless Chromium (its pool: a split session on every worker in Chrome, src/solver/split-host.ts)
 * and through the CLI's split session on 2 worker threads (`--threads 2`, src/cli/split-games.ts), the two
 * alternating board by board so that both see the same load. Reported per side: the mean depth, move
 * executions per second of search (the choices' own `ms`), ms per decision, and the extension's ratio to the
 * CLI (the goal: at least 90 % of its executions per second).
 *
 * The extension's requests go from its service worker to the offscreen document over the channel the
 * background uses (src/platform/channel-transport.ts); the first ones wait for the network to be loaded.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { legalMoves } from '../src/engine/index';
import type { Grid, MoveChoice } from '../src/engine/index';
import { parseCommandLine } from '../src/cli/args';
import { parseStartBoards } from '../src/cli/board';
import { useEngine } from '../src/cli/engine';
import { networkFileFrom, useNetwork } from '../src/cli/network';
import { threadedChooser } from '../src/cli/split-games';
import { launchWithExtension } from '../tests/harness/chromium';
import type { ExtensionBrowser } from '../tests/harness/chromium';
import { ROOT, buildTestExtension } from './extension-run';

const DEFAULT_BOARDS = fileURLToPath(new URL('../tests/fixtures/strength/crisis-32768.txt', import.meta.url));

const args = parseCommandLine(process.argv.slice(2), {
  boards: { type: 'string' },
  ms: { type: 'string' },
  repeat: { type: 'string' },
  'no-build': { type: 'boolean' },
  json: { type: 'boolean' },
  network: { type: 'string' },
});

interface Reply {
  readonly choice?: MoveChoice;
  readonly split?: string;
  readonly error?: string;
}

/** One offscreen/solve from the service worker over the offscreen document's channel (created if missing). */
async function solveInExtension(browser: ExtensionBrowser, board: Grid, timeMs: number, requestId: string): Promise<Reply> {
  const worker = await browser.serviceWorker();
  return worker.evaluate(
    async ({ board, timeMs, requestId }) => {
      const path = 'src/offscreen/offscreen.html';
      const open = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType], documentUrls: [chrome.runtime.getURL(path)] });
      if (open.length === 0) {
        await chrome.offscreen.createDocument({ url: path, reasons: ['WORKERS' as chrome.offscreen.Reason], justification: 'bench' }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const channel = new BroadcastChannel('rpc:offscreen');
      try {
        return await new Promise<{ choice?: MoveChoice; split?: string; error?: string }>((resolve) => {
          const rpc = `bench-${requestId}`;
          channel.onmessage = (event: MessageEvent<{ rpc?: string; ack?: boolean; reply?: { choice?: MoveChoice; split?: string }; error?: string }>) => {
            const data = event.data;
            if (data.rpc !== rpc || data.ack) return;
            resolve(data.error !== undefined ? { error: data.error } : (data.reply ?? { error: 'no reply' }));
          };
          const message = { kind: 'offscreen/solve', requestId, strategy: 'expectimax', board, options: { timeMs }, channel: 'bench' };
          channel.postMessage({ rpc, message, url: location.href });
        });
      } finally {
        channel.close();
      }
    },
    { board, timeMs, requestId },
  );
}

interface Side {
  depth: number;
  executions: number;
  ms: number;
  count: number;
}

const empty = (): Side => ({ depth: 0, executions: 0, ms: 0, count: 0 });

function add(side: Side, choice: MoveChoice): void {
  side.depth += choice.depth;
  side.executions += choice.nodes;
  side.ms += choice.ms;
  side.count++;
}

async function main(): Promise<void> {
  const file = args.string('boards') ?? DEFAULT_BOARDS;
  const boards = parseStartBoards(readFileSync(file, 'utf8'), file, 4).filter((board) => legalMoves(board).length > 0);
  const timeMs = args.int('ms', { min: 10, max: 10_000 }, 100) as number;
  const repeat = args.int('repeat', { min: 1, max: 100 }, 1) as number;
  if (!args.flag('no-build') && !buildTestExtension()) throw new Error('npm run build:e2e failed');
  await useEngine('wasm');
  const network = networkFileFrom(args);
  useNetwork(network);
  const cli = await threadedChooser({ strategy: 'expectimax', options: { timeMs }, engine: 'wasm', network }, 2, 'shared');
  const browser = await launchWithExtension({ extensionDir: join(ROOT, 'dist-e2e') });
  const ext = empty();
  const own = empty();
  const splits = new Set<string>();
  let evaluation = '';
  try {
    // The first searches start the network's load and go on with the heuristic until it is in use.
    const started = Date.now();
    for (let i = 0; evaluation !== 'network'; i++) {
      if (Date.now() - started > 180_000) throw new Error('the extension never searched with the network');
      const reply = await solveInExtension(browser, boards[i % boards.length], 20, `warm-${i}`);
      if (reply.error) throw new Error(`the extension: ${reply.error}`);
      evaluation = reply.choice?.evaluation ?? '';
    }
    for (let r = 0; r < repeat; r++) {
      for (const [index, board] of boards.entries()) {
        const reply = await solveInExtension(browser, board, timeMs, `b${r}-${index}`);
        if (!reply.choice) throw new Error(`the extension: ${reply.error ?? 'no choice'}`);
        add(ext, reply.choice);
        splits.add(reply.split ?? 'none');
        add(own, await cli.choose(board, { timeMs }));
        process.stderr.write(`\rboard ${index + 1}/${boards.length}, round ${r + 1}/${repeat}   `);
      }
    }
  } finally {
    process.stderr.write('\n');
    await browser.close();
    await cli.close();
  }
  const row = (name: string, side: Side): string =>
    `${name.padEnd(22)}  ${String(side.count).padStart(9)}  ${(side.depth / side.count).toFixed(2).padStart(10)}  ${(side.executions / (side.ms / 1000) / 1e6).toFixed(2).padStart(8)}  ${(side.ms / side.count).toFixed(1).padStart(7)}\n`;
  const ratio = ext.executions / ext.ms / (own.executions / own.ms);
  process.stdout.write(`pool-vs-cli: ${boards.length} boards of ${file} x ${repeat}, ${timeMs} ms, expectimax with the network\n`);
  process.stdout.write('side                    decisions  mean depth  M exec/s  ms/move\n');
  process.stdout.write(row(`extension (${[...splits].join('+')})`, ext));
  process.stdout.write(row('CLI --threads 2', own));
  process.stdout.write(`extension / CLI: ${(100 * ratio).toFixed(0)} % of the move executions per second, depth ${(ext.depth / ext.count - own.depth / own.count).toFixed(2)} layers apart\n`);
  if (args.flag('json')) process.stdout.write(`${JSON.stringify({ boards: boards.length, repeat, timeMs, splits: [...splits], extension: ext, cli: own, ratio })}\n`);
}

await main();
