/**
 * The background's decisions as pure functions (no chrome.*): storage keys, what a navigation does to a
 * stored run status, the game log, the toolbar badge, and clear texts for
 * pages that refuse injection. src/background/service-worker.ts wires them to the browser.
 */
import { GameRecordSchema, RunStatusSchema, initialStatus } from '../shared/messages';
import type { GameRecord, RunStatus } from '../shared/messages';
import type { StrategyName } from '../engine/types';
import { HISTORY_BYTE_BUDGET, HISTORY_CAP, replaySize } from '../shared/history';

export const GAMES_STORAGE_KEY = 'games';
/** Most games kept (the history view shows it); the oldest go first. */
export const GAMES_CAP = HISTORY_CAP;

/** chrome.storage.session key of a tab's run status (read by the popup and the e2e tests). */
export function statusKey(tabId: number): string {
  return `status:${tabId}`;
}

/** chrome.storage.session key of the document that last reported a tab's status. */
export function statusDocumentKey(tabId: number): string {
  return `statusDoc:${tabId}`;
}

/** chrome.storage.session key of a document whose run ended with a navigation (its late messages are dropped). */
export function endedDocumentKey(tabId: number): string {
  return `endedDoc:${tabId}`;
}

export type PageEnd = 'reloaded' | 'left' | 'closed';

const END_MESSAGES: Record<PageEnd, string> = {
  reloaded: 'Stopped: the page was reloaded',
  left: 'Stopped: you left the page',
  closed: 'Stopped: the tab was closed',
};

/** A status whose page is gone must not claim to be playing (or paused on a board that no longer exists). */
export function isLive(status: RunStatus): boolean {
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

/**
 * The stored game log with `record` appended: entries that do not validate are dropped, the oldest beyond
 * `cap` or past the replays' byte `budget` too. A game is recorded once: a record of a game already in the
 * log (same gameId) replaces it — or, with `keepExisting` (the background's own guess when a page went
 * away), leaves it as it is.
 */
export function appendGame(
  stored: unknown,
  record: GameRecord,
  { cap = GAMES_CAP, budget = HISTORY_BYTE_BUDGET, keepExisting = false }: { cap?: number; budget?: number; keepExisting?: boolean } = {},
): GameRecord[] {
  let games = readGames(stored);
  if (record.gameId !== undefined) {
    const known = games.some((game) => game.gameId === record.gameId);
    if (known && keepExisting) return games;
    games = games.filter((game) => game.gameId !== record.gameId);
  }
  games.push(record);
  let kept = games.length > cap ? games.slice(games.length - cap) : games;
  // Replays take the room: past the budget, the oldest games go (the newest one always stays).
  let size = kept.reduce((sum, game) => sum + replaySize(game.replay), 0);
  let drop = 0;
  while (size > budget && drop < kept.length - 1) size -= replaySize(kept[drop++].replay);
  if (drop > 0) kept = kept.slice(drop);
  return kept;
}

/** The valid records of a stored game log (anything else is ignored). */
export function readGames(stored: unknown): GameRecord[] {
  if (!Array.isArray(stored)) return [];
  const out: GameRecord[] = [];
  for (const item of stored) {
    const parsed = GameRecordSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** A stored status, validated (null when absent or not a status). */
export function readStatus(stored: unknown): RunStatus | null {
  const parsed = RunStatusSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** Short tile text for a four-character badge: 512, 2048, 16k, 131k. */
export function shortTile(value: number): string {
  if (value < 10_000) return String(value);
  return `${Math.floor(value / 1024)}k`;
}

export interface Badge {
  readonly text: string;
  readonly color: string;
}

/** The toolbar badge for a tab: best tile while playing, "II" when paused, "!" on error, nothing when idle. */
export function badgeFor(status: RunStatus | null): Badge {
  if (!status) return { text: '', color: '#8f7a66' };
  if (status.state === 'error') return { text: '!', color: '#d9432f' };
  if (status.state === 'paused') return { text: 'II', color: '#bbada0' };
  if (status.running || status.state === 'thinking' || status.state === 'moving') {
    return { text: status.bestTile > 0 ? shortTile(status.bestTile) : '▶', color: '#f67c5f' };
  }
  if (status.state === 'won') return { text: shortTile(status.bestTile), color: '#edc22e' };
  return { text: '', color: '#8f7a66' };
}

/** An error status for a tab (e.g. the page refused the content script), so the popup shows why. */
export function errorStatus(message: string, strategy: StrategyName, previous: RunStatus | null, now: number): RunStatus {
  return {
    ...initialStatus(strategy, now),
    ...previous,
    state: 'error',
    message,
    running: false,
    updatedAt: now,
  };
}

/** A clear sentence for an injection that the browser refused. */
export function injectionErrorMessage(err: unknown, url?: string): string {
  const raw = err instanceof Error ? err.message : String(err);
  if (url && /^(chrome|edge|about|chrome-extension|devtools|view-source):/i.test(url)) {
    return 'The browser does not let extensions play on this page (a browser page). Open a 2048 game on a website.';
  }
  if (/chrome:\/\/|extensions gallery|cannot be scripted|chrome-extension:\/\/|webstore/i.test(raw)) {
    return 'The browser does not let extensions play on this page (a browser or store page). Open a 2048 game on a website.';
  }
  if (/permission|Cannot access contents/i.test(raw)) {
    return 'No permission to play on this site: click "Allow on this site" in the popup, or open the popup from the toolbar on the game page.';
  }
  if (/No tab with id/i.test(raw)) return 'The tab is gone.';
  if (/error page/i.test(raw)) return 'The page did not load (an error page); reload it and try again.';
  return `Could not start on this page: ${raw}`;
}

/** The keyboard command `toggle-solve` solves when idle and stops a running game. */
export function toggleCommand(status: RunStatus | null): 'solve' | 'stop' {
  return status && (status.running || status.state === 'thinking' || status.state === 'moving') ? 'stop' : 'solve';
}
