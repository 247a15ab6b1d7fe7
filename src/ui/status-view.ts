/**
 * What the popup shows, as pure functions of the stored status, settings and game log (no DOM, no
 * chrome.*), so they are unit-tested; popup.ts puts them on the page.
 */
import { describeStrategy } from '../engine/strategies/index';
import type { Direction, MoveChoice, MoveValues, StrategyName } from '../engine/types';
import type { GameRecord, RunStatus } from '../shared/messages';
import type { NetworkStatus } from '../shared/network-status';
import { statusMessageKey } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';
import { formatInt, t } from './i18n';

export interface SettingsFields {
  readonly think: boolean;
  readonly depth: boolean;
  readonly playouts: boolean;
}

/** Which settings fields apply to a strategy: the ones it takes (from its descriptor). */
export function settingsFields(strategy: StrategyName): SettingsFields {
  const takes = describeStrategy(strategy).takes;
  return { think: takes.includes('timeMs'), depth: takes.includes('depth'), playouts: takes.includes('playouts') };
}

const ARROWS: Record<Direction, string> = { up: '↑', down: '↓', left: '←', right: '→' };

/** "left ←" (the direction's word in the UI language) */
export function moveText(move: Direction): string {
  return `${t(`dir_${move}`)} ${ARROWS[move]}`;
}

/** A strategy's name in the UI language (the registry's label when the locale has none). */
export function strategyLabel(strategy: StrategyName): string {
  const text = t(`strategy_${strategy}`);
  return text === `strategy_${strategy}` ? describeStrategy(strategy).label : text;
}

/** A strategy's one-line description in the UI language. */
export function strategyDescription(strategy: StrategyName): string {
  const text = t(`strategyDesc_${strategy}`);
  return text === `strategyDesc_${strategy}` ? describeStrategy(strategy).description : text;
}

/** "Hint: left ←", or why there is none. */
export function hintText(choice: MoveChoice): string {
  return choice.move ? t('hintMove', moveText(choice.move)) : t('hintNone');
}

export interface ValueRow {
  readonly move: Direction;
  readonly text: string;
  /** Share of the best value in [0, 1], for a bar. */
  readonly share: number;
  readonly best: boolean;
}

const MIN_BAR = 0.15;

/**
 * Every searched move's value, best first; with the chance meter's per-move chances (`chances`), each move's
 * chance of the next milestone is its text ("72 %") and its bar's length, in the search's order.
 */
export function valueRows(values: MoveValues | undefined, chosen: Direction | null, chances?: Partial<Record<Direction, number>>): ValueRow[] {
  if (!values) return [];
  const entries = (Object.entries(values) as [Direction, number][]).filter(([, v]) => Number.isFinite(v));
  if (entries.length === 0) return [];
  entries.sort((a, b) => b[1] - a[1]);
  const byChance = chances !== undefined && entries.every(([move]) => chances[move] !== undefined);
  if (byChance) {
    return entries.map(([move]) => {
      const p = chances[move] ?? 0;
      return { move, text: percentText(p), share: Math.max(MIN_BAR / 2, p), best: move === (chosen ?? entries[0][0]) };
    });
  }
  // Bars compare the moves with each other: the worst move gets a stub, the best a full bar.
  const max = Math.max(...entries.map(([, v]) => v));
  const min = Math.min(...entries.map(([, v]) => v));
  return entries.map(([move, value]) => ({
    move,
    text: formatValue(value),
    share: max > min ? MIN_BAR + (1 - MIN_BAR) * ((value - min) / (max - min)) : 1,
    best: move === (chosen ?? entries[0][0]),
  }));
}

/** A chance (0–1) as whole percent: "72 %"; "< 1 %" and "> 99 %" at the ends (the meter is never that sure). */
export function percentText(p: number): string {
  if (p < 0.005) return t('chancePercent', '< 1');
  if (p > 0.995) return t('chancePercent', '> 99');
  return t('chancePercent', Math.round(p * 100));
}

/** An interval this wide or wider is shown with the chance. */
const WIDE_INTERVAL = 0.15;

/**
 * The chance line: "Chance of 4096: 72 % · 8192: 31 %" ("(60–81 %)" after the chance when its 90 % interval
 * is wide); empty without an estimate.
 */
export function chanceText(status: RunStatus | null): string {
  const chance = status?.chance;
  if (!chance) return '';
  const { next, after } = chance;
  const head =
    next.hi - next.lo >= WIDE_INTERVAL
      ? t('chanceLineWide', next.target, percentText(next.p), Math.round(next.lo * 100), percentText(next.hi))
      : t('chanceLine', next.target, percentText(next.p));
  return after ? `${head} · ${t('chanceAfter', after.target, percentText(after.p))}` : head;
}

/** What a screen reader hears of the chance: the next milestone's, in steps of 10 points (null: nothing new). */
export function chanceAnnouncement(status: RunStatus | null): string | null {
  const next = status?.chance?.next;
  if (!next) return null;
  return t('chanceAnnounce', next.target, t('chancePercent', Math.round(next.p * 10) * 10));
}

/** A move value, compact but precise enough to tell close moves apart: 1234567 → "1.235M", 0.5 → "0.500". */
export function formatValue(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(2)}G`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(3)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  if (abs >= 100) return value.toFixed(0);
  return value.toFixed(3);
}

type StateTone = 'idle' | 'busy' | 'good' | 'warn' | 'bad';

export interface StateView {
  readonly label: string;
  readonly tone: StateTone;
  readonly message: string;
}

/** The state line: a short label, a colour tone, and the status message. */
export function stateView(status: RunStatus | null): StateView {
  if (!status) return { label: t('stateIdle'), tone: 'idle', message: t('messageStart') };
  const message = statusMessageText(status.message);
  switch (status.state) {
    case 'thinking':
      return { label: status.running ? t('statePlayingThinking') : t('stateThinking'), tone: 'busy', message };
    case 'moving':
      return { label: status.running ? t('statePlayingMoving') : t('stateMoving'), tone: 'busy', message };
    case 'won':
      return { label: t('stateWon'), tone: 'good', message };
    case 'over':
      return { label: t('stateOver'), tone: 'warn', message };
    case 'paused':
      return { label: t('statePaused'), tone: 'warn', message };
    case 'error':
      return { label: t('stateError'), tone: 'bad', message };
    case 'idle':
      return { label: status.running ? t('statePlaying') : t('stateIdle'), tone: status.running ? 'busy' : 'idle', message };
  }
}

/** The run is under way (Solve pressed and not yet stopped). */
function isRunning(status: RunStatus | null): boolean {
  return !!status && (status.running || status.state === 'thinking' || status.state === 'moving');
}

export interface ButtonStates {
  readonly solve: boolean;
  readonly stop: boolean;
  readonly step: boolean;
  readonly hint: boolean;
}

/**
 * Which buttons are enabled. Stop stays enabled while a run may be under way, including right after
 * Solve was pressed and before the first status arrived (`solvePending`).
 */
export function buttonStates(status: RunStatus | null, solvePending: boolean): ButtonStates {
  const running = isRunning(status) || solvePending;
  return { solve: !running, stop: running, step: !running, hint: !running };
}

export interface StatCell {
  readonly label: string;
  readonly value: string;
}

/** The numbers of the status card. */
export function statCells(status: RunStatus | null): StatCell[] {
  const s = status;
  return [
    { label: t('statScore'), value: s && s.score !== null ? formatInt(s.score) : '—' },
    { label: t('statBestTile'), value: s && s.bestTile > 0 ? String(s.bestTile) : '—' },
    { label: t('statMoves'), value: s ? String(s.moves) : '0' },
    { label: t('statMovesPerSecond'), value: s ? s.movesPerSecond.toFixed(1) : '0.0' },
    { label: t('statDepth'), value: s && s.depth > 0 ? String(s.depth) : '—' },
    { label: t('statDesyncs'), value: s ? String(s.desyncs) : '0' },
  ];
}

/** The locale key of the game each adapter reads, as a person would name it. */
const GAME_NAMES: Readonly<Record<string, string>> = {
  store: 'game_store',
  'saved-state': 'game_classic',
  classic: 'game_classic',
  geometry: 'game_other',
  canvas: 'game_canvas',
};

/** A site as a person names it: its host, without the port. */
function siteName(site: string): string {
  return site.startsWith('[') ? site.slice(0, site.indexOf(']') + 1) : site.replace(/:\d+$/, '');
}

/** "Classic 2048 on play2048.co", or an empty string before any detection. */
export function siteText(status: RunStatus | null): string {
  if (!status || (!status.adapter && !status.site)) return '';
  const game = status.adapter ? t(GAME_NAMES[status.adapter] ?? 'game_other') : '';
  if (game && status.site) return t('siteOn', game, siteName(status.site));
  return game || siteName(status.site ?? '');
}

/** The tooltip of the site line: which adapter reads the board, on which host (for bug reports). */
export function siteTitle(status: RunStatus | null): string {
  return status?.adapter ? t('siteAdapter', status.adapter, status.site ?? '') : '';
}

export interface GameStats {
  readonly count: number;
  readonly bestScore: number | null;
  readonly bestTile: number;
  readonly wins: number;
}

export function gameStats(games: readonly GameRecord[]): GameStats {
  let bestScore: number | null = null;
  let bestTile = 0;
  let wins = 0;
  for (const game of games) {
    if (game.score !== null && (bestScore === null || game.score > bestScore)) bestScore = game.score;
    bestTile = Math.max(bestTile, game.bestTile);
    if (game.bestTile >= 2048) wins++;
  }
  return { count: games.length, bestScore, bestTile, wins };
}

/** The host-permission pattern for a page's origin, or null for pages no extension may script. */
export function originPattern(url: string | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.hostname === 'chrome.google.com' || parsed.hostname === 'chromewebstore.google.com') return null;
  return `${parsed.protocol}//${parsed.hostname}/*`;
}

/** The host names of match patterns, for a sentence ("https://play2048.co/*" → "play2048.co"), without repeats. */
export function permissionHosts(patterns: readonly string[]): string[] {
  const hosts = patterns.map((pattern) => /^[a-z*]+:\/\/([^/]+)\//i.exec(pattern)?.[1] ?? pattern);
  return [...new Set(hosts)];
}

/** The `?tabId=N` of the popup's URL, or null. */
export function tabIdFromSearch(search: string): number | null {
  const raw = new URLSearchParams(search).get('tabId');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/** CSS class of a tile value on the mini board (values above 2048 share one colour). */
export function tileClass(value: number): string {
  if (value === 0) return 'tile-empty';
  return value > 2048 ? 'tile-super' : `tile-${value}`;
}

/** File name of the exported game log. */
export function exportFileName(now: Date): string {
  return `2048-autopilot-games-${now.toISOString().slice(0, 10)}.json`;
}

/** The keys of a shortcut as chrome.commands reports it ("Alt+Shift+S", "⌥⇧S" on macOS); [] when unset. */
export function shortcutKeys(shortcut: string | undefined): string[] {
  if (!shortcut) return [];
  const keys = shortcut.includes('+') ? shortcut.split('+').filter((key) => key !== '') : [...shortcut];
  return keys.map((key) => KEY_GLYPHS[key] ?? key);
}

const KEY_GLYPHS: Record<string, string> = { Period: '.', Comma: ',' };

/**
 * The evaluation line: the learned network loading ("Loading the learned network… 60 %", or while the heuristic
 * values the moves meanwhile "Evaluation: the heuristic, until the learned network has loaded (60 %)"), then what valued the
 * tab's last search — the network, or the heuristic and why (the board is not 4x4, the network did not load or
 * does not fit in memory). Empty for strategies that do not say (they do not evaluate with the network).
 */
export function evaluationText(status: RunStatus | null, network: NetworkStatus | null): string {
  if (network?.state === 'loading') {
    // The heuristic plays while the network loads (the first move at once): the line says so, with the progress.
    return status?.evaluation === 'heuristic' ? t('evaluationHeuristicLoading', network.percent) : t('evaluationLoading', network.percent);
  }
  if (!status?.evaluation) return '';
  if (status.evaluation === 'network') return t('evaluationNetwork');
  const board = status.board;
  if (board && (board.rows !== 4 || board.cols !== 4)) return t('evaluationHeuristicBecause', t('evaluationNot4x4'));
  if (network?.state === 'failed') return t('evaluationHeuristicBecause', statusMessageText(network.reason));
  return t('evaluationHeuristic');
}

/** A status message (a code and its parameters, from the content script, the background or the solver) in
 *  the UI language. */
export function statusMessageText(message: StatusMessage | undefined): string {
  if (!message) return '';
  const detail = message.detail ? [t(`readFailure_${message.detail.failure}`, ...(message.detail.values ?? []))] : [];
  return t(statusMessageKey(message.code), ...(message.params ?? []), ...detail);
}
