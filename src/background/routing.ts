/**
 * The background's answers to its message kinds, as a handler table built from its dependencies (no
 * chrome.* here), so that the routing rules are tested through the protocol's own `dispatch`:
 *
 * - a tab's solver requests go to the tab's own channel, named from `sender.tab.id` (which the browser
 *   sets), never from anything the content script wrote: a tab replaces and cancels only its own search;
 * - the solver's options are built anew from the narrow tab schema (time, depth, playouts, seed), with
 *   the table size left to the engine's default: nothing else a tab sent reaches the solver host;
 * - status texts are bounded before they are stored (the popup shows them);
 * - every change of the game log, from a tab or from the panel, goes to its one writer;
 * - a content script asks for the settings here: it never reads the extension's storage, which holds
 *   every site's games (src/content/index.ts);
 * - the popup and the panel start the solver host as they open (`solver/warm`), and a command that
 *   searches starts it beside the injection (`warmsSolver`): the first search finds its workers loaded.
 */
import type { Command, ReplyOf, RunStatus, TabSearchOptions } from '../shared/messages';
import type { Handlers, SenderInfo } from '../shared/protocol';
import type { SearchOptions } from '../engine/types';
import type { SolverHost } from '../solver/host';
import type { GameLogWriter } from './game-log-writer';
import type { NetworkStatus } from '../shared/network-status';
import type { Settings } from '../shared/settings';

export interface BackgroundDeps {
  readonly solverHost: SolverHost;
  runCommand(tabId: number, command: Command): Promise<ReplyOf<'popup/command'>>;
  saveStatus(tabId: number, status: RunStatus, sender: SenderInfo): Promise<void>;
  /** The one writer of the game log (recordings from tabs, the panel's import, deletion, clearing). */
  readonly gameLog: Pick<GameLogWriter, 'record' | 'importGames' | 'deleteGame' | 'clear' | 'noteLost'>;
  /** Keep the solver host's report on the learned network for the pages. */
  saveNetworkStatus(status: NetworkStatus): Promise<void>;
  /** The settings as stored (the one thing of storage a content script needs). */
  currentSettings(): Promise<Settings>;
}

/** The tab of a content script's message (the protocol accepts those kinds only from a tab's top frame). */
function senderTab(sender: SenderInfo): number {
  const tabId = sender.tab?.id;
  if (tabId === undefined) throw new Error('A content message without a tab');
  return tabId;
}

/** The solver channel of a tab: a newer search of the tab replaces its older one, other tabs run side by side. */
function tabChannel(sender: SenderInfo): string {
  return `tab:${senderTab(sender)}`;
}

/** Does this command search (then the background starts the solver host while it injects)? */
export function warmsSolver(command: Command): boolean {
  return command !== 'stop' && command !== 'coach-stop';
}

/** The solver's options for a tab's request, field by field from the narrow schema (nothing passed through). */
export function solverOptions(options: TabSearchOptions): SearchOptions {
  // No table size, root-move split or reference mode: the engine's defaults and the pool's own split.
  const out: { -readonly [K in keyof SearchOptions]: SearchOptions[K] } = {};
  if (options.timeMs !== undefined) out.timeMs = options.timeMs;
  if (options.depth !== undefined) out.depth = options.depth;
  if (options.playouts !== undefined) out.playouts = options.playouts;
  if (options.seed !== undefined) out.seed = options.seed;
  return out;
}

export function backgroundHandlers(deps: BackgroundDeps): Handlers<'background'> {
  return {
    'popup/command': (request) => deps.runCommand(request.tabId, request.command),
    'content/status': async (request, sender) => {
      await deps.saveStatus(senderTab(sender), request.status, sender);
      return {};
    },
    // Answered once the log has it (or the storage refused it: the history's notice says so), so the
    // content script sends a game again until it is answered.
    'content/game-finished': async (request) => {
      if (request.lost) await deps.gameLog.noteLost(request.lost);
      await deps.gameLog.record(request.record);
      return {};
    },
    'settings/get': async () => ({ settings: await deps.currentSettings() }),
    'history/import': (request) => deps.gameLog.importGames(request.games),
    'history/delete': (request) => deps.gameLog.deleteGame(request.key),
    'history/clear': () => deps.gameLog.clear(),
    'solver/request': (request, sender) =>
      deps.solverHost.solve({
        requestId: request.requestId,
        strategy: request.strategy,
        board: request.board,
        options: solverOptions(request.options),
        channel: tabChannel(sender),
      }),
    'solver/cancel': async (request, sender) => {
      await deps.solverHost.cancel(request.requestId, tabChannel(sender));
      return {};
    },
    'solver/warm': async () => {
      await deps.solverHost.warm();
      return {};
    },
    'solver/network': async (request) => {
      await deps.saveNetworkStatus(request.status);
      return {};
    },
  };
}
