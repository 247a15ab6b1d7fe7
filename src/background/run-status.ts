/**
 * The background's decisions about a tab's run status, as pure functions (no chrome.*): what a navigation
 * or a closed tab does to it, the game record of a run that ended with its page, an error status, and
 * what the solve/stop shortcut does. src/background/service-worker.ts wires them to the browser.
 */
import { initialStatus } from '../shared/messages';
import type { GameRecord, RunStatus } from '../shared/messages';
import type { StrategyName } from '../engine/types';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';

export type PageEnd = 'reloaded' | 'left' | 'closed';

const END_MESSAGES: Record<PageEnd, StatusMessage> = {
  reloaded: statusMessage('stoppedReloaded'),
  left: statusMessage('stoppedLeft'),
  closed: statusMessage('stoppedClosed'),
};

/** A status whose page is gone must not claim to be playing (or paused on a board that no longer exists). */
function isLive(status: RunStatus): boolean {
  return status.running || status.state === 'thinking' || status.state === 'moving' || status.state === 'paused';
}

/**
 * What a navigation or a closed tab does to a stored status: a live run becomes idle with a message
 * saying why; anything else stays as it is (null = no change).
 */
export function statusAfterPageEnd(status: RunStatus | null, end: PageEnd, now: number): RunStatus | null {
  if (!status) return null;
  // Coach mode lives in the page's content script: it ends with the page.
  const coach = status.coach?.active ? { coach: { ...status.coach, active: false, suggestion: null } } : {};
  if (!isLive(status)) return status.coach?.active ? { ...status, ...coach, updatedAt: now } : null;
  return { ...status, ...coach, state: 'idle', running: false, message: END_MESSAGES[end], updatedAt: now };
}

/** The game record of a run that ended with its page (null when nothing was played). */
export function stoppedGameRecord(status: RunStatus | null, now: number): GameRecord | null {
  if (!status || !isLive(status) || status.moves === 0) return null;
  return {
    ...(status.gameId !== undefined ? { gameId: status.gameId } : {}),
    site: status.site ?? 'unknown',
    adapter: status.adapter ?? 'unknown',
    strategy: status.strategy,
    score: status.score,
    bestTile: status.bestTile,
    moves: status.moves,
    ms: status.movesPerSecond > 0 ? Math.round((status.moves / status.movesPerSecond) * 1000) : 0,
    desyncs: status.desyncs,
    endedAt: now,
    outcome: 'stopped',
  };
}

/** An error status for a tab (e.g. the page refused the content script), so the popup shows why. */
export function errorStatus(message: StatusMessage, strategy: StrategyName, previous: RunStatus | null, now: number): RunStatus {
  return {
    ...initialStatus(strategy, now),
    ...previous,
    state: 'error',
    message,
    running: false,
    updatedAt: now,
  };
}

/** Why the browser refused an injection, as a status the pages word. */
export function injectionError(err: unknown, url?: string): StatusMessage {
  const raw = err instanceof Error ? err.message : String(err);
  if (url && /^(chrome|edge|about|chrome-extension|devtools|view-source):/i.test(url)) return statusMessage('browserPage');
  if (/chrome:\/\/|extensions gallery|cannot be scripted|chrome-extension:\/\/|webstore/i.test(raw)) return statusMessage('storePage');
  if (/permission|Cannot access contents/i.test(raw)) return statusMessage('noPermission');
  if (/No tab with id/i.test(raw)) return statusMessage('tabGone');
  if (/error page/i.test(raw)) return statusMessage('errorPage');
  return statusMessage('cannotStart', raw);
}

/** The keyboard command `toggle-solve` solves when idle and stops a running game. */
export function toggleCommand(status: RunStatus | null): 'solve' | 'stop' {
  return status && (status.running || status.state === 'thinking' || status.state === 'moving') ? 'stop' : 'solve';
}
