import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../../src/engine/types';
import { describeStrategy } from '../../../src/engine/strategies/index';
import type { RunStatus } from '../../../src/shared/messages';
import type { NetworkStatus } from '../../../src/shared/network-status';
import {
  buttonStates,
  evaluationText,
  exportFileName,
  formatValue,
  gameStats,
  hintText,
  originPattern,
  settingsFields,
  shortcutKeys,
  siteText,
  siteTitle,
  stateView,
  statCells,
  tabIdFromSearch,
  tileClass,
  valueRows,
} from '../../../src/ui/status-view';

const STATUS: RunStatus = {
  state: 'thinking',
  adapter: 'classic',
  site: '127.0.0.1',
  strategy: 'expectimax',
  score: 12_345,
  bestTile: 512,
  moves: 321,
  movesPerSecond: 12.34,
  depth: 4,
  desyncs: 2,
  lastMove: 'left',
  running: true,
  updatedAt: 1,
};

describe('popup view', () => {
  it('labels and describes every strategy from its descriptor', () => {
    for (const name of STRATEGY_NAMES) {
      expect(describeStrategy(name).label.length).toBeGreaterThan(3);
      expect(describeStrategy(name).description.length).toBeGreaterThan(20);
    }
  });

  it('shows the settings fields a strategy takes, and only those', () => {
    expect(settingsFields('expectimax')).toEqual({ think: true, depth: true, playouts: false });
    expect(settingsFields('minimax')).toEqual({ think: true, depth: true, playouts: false });
    expect(settingsFields('greedy')).toEqual({ think: true, depth: true, playouts: false });
    expect(settingsFields('montecarlo')).toEqual({ think: true, depth: false, playouts: true });
    expect(settingsFields('priority')).toEqual({ think: false, depth: false, playouts: false });
    expect(settingsFields('random')).toEqual({ think: false, depth: false, playouts: false });
  });

  it('words a hint as move and arrow', () => {
    expect(hintText({ strategy: 'greedy', move: 'left', values: { left: 1 }, depth: 1, nodes: 1, ms: 1 })).toBe('Hint: left ←');
    expect(hintText({ strategy: 'greedy', move: null, values: {}, depth: 0, nodes: 0, ms: 0 })).toMatch(/no move/);
  });

  it('lists move values best first and marks the chosen move', () => {
    const rows = valueRows({ up: 10, left: 30, down: 20 }, 'left');
    expect(rows.map((r) => r.move)).toEqual(['left', 'down', 'up']);
    expect(rows[0]).toMatchObject({ best: true, share: 1 });
    expect(rows[1].share).toBeCloseTo(0.15 + 0.85 / 2);
    expect(rows[2].share).toBeCloseTo(0.15);
    expect(valueRows(undefined, null)).toEqual([]);
    expect(formatValue(1_234_567)).toBe('1.235M');
    expect(formatValue(0.5)).toBe('0.500');
  });

  it('shows the state, the numbers and the site', () => {
    expect(stateView(STATUS)).toMatchObject({ label: 'Playing · thinking', tone: 'busy' });
    expect(stateView({ ...STATUS, state: 'error', running: false, message: { code: 'noBoard', params: ['classic, canvas'] } })).toEqual({
      label: 'Error',
      tone: 'bad',
      message: 'No 2048 board found on this page (tried: classic, canvas)',
    });
    expect(stateView(null).label).toBe('Idle');
    const cells = Object.fromEntries(statCells(STATUS).map((c) => [c.label, c.value]));
    expect(cells).toEqual({ Score: '12,345', 'Best tile': '512', Moves: '321', 'Moves/s': '12.3', Depth: '4', Desyncs: '2' });
    expect(siteText(STATUS)).toBe('Classic 2048 on 127.0.0.1');
    expect(siteText({ ...STATUS, site: 'localhost:8080' })).toBe('Classic 2048 on localhost');
    expect(siteTitle(STATUS)).toBe('Board read by the classic adapter on 127.0.0.1');
    expect(siteText({ ...STATUS, adapter: 'store', site: 'play2048.co' })).toBe('2048 on play2048.co');
    expect(siteText({ ...STATUS, adapter: 'geometry', site: 'example.com:8080' })).toBe('A 2048 game on example.com');
    expect(siteText(null)).toBe('');
  });

  it('enables Stop while a run may be under way and the others at rest', () => {
    expect(buttonStates(STATUS, false)).toEqual({ solve: false, stop: true, step: false, hint: false });
    expect(buttonStates({ ...STATUS, state: 'idle', running: false }, false)).toEqual({ solve: true, stop: false, step: true, hint: true });
    expect(buttonStates(null, true).stop).toBe(true);
  });

  it('summarises the game log', () => {
    const game = { site: 's', adapter: 'a', strategy: 'greedy' as const, moves: 1, ms: 1, desyncs: 0, endedAt: 1, outcome: 'over' as const };
    expect(gameStats([])).toEqual({ count: 0, bestScore: null, bestTile: 0, wins: 0 });
    expect(gameStats([{ ...game, score: 10, bestTile: 2048 }, { ...game, score: null, bestTile: 4096 }, { ...game, score: 30, bestTile: 64 }])).toEqual({
      count: 3,
      bestScore: 30,
      bestTile: 4096,
      wins: 2,
    });
  });

  it('derives the permission pattern of a page', () => {
    expect(originPattern('https://example.com:8443/game/?x=1')).toBe('https://example.com/*');
    expect(originPattern('http://127.0.0.1:5000/')).toBe('http://127.0.0.1/*');
    expect(originPattern('chrome://extensions')).toBeNull();
    expect(originPattern('https://chromewebstore.google.com/detail/x')).toBeNull();
    expect(originPattern(undefined)).toBeNull();
    expect(originPattern('not a url')).toBeNull();
  });

  it('reads ?tabId=N', () => {
    expect(tabIdFromSearch('?tabId=17')).toBe(17);
    expect(tabIdFromSearch('?tabId=-1')).toBeNull();
    expect(tabIdFromSearch('?tabId=1e3')).toBeNull();
    expect(tabIdFromSearch('')).toBeNull();
  });

  it('names tiles and the export file', () => {
    expect(tileClass(0)).toBe('tile-empty');
    expect(tileClass(256)).toBe('tile-256');
    expect(tileClass(8192)).toBe('tile-super');
    expect(exportFileName(new Date('2025-03-04T10:00:00Z'))).toBe('2048-autopilot-games-2025-03-04.json');
  });

  it('splits a shortcut into keys', () => {
    expect(shortcutKeys('Alt+Shift+S')).toEqual(['Alt', 'Shift', 'S']);
    expect(shortcutKeys('Alt+Shift+Period')).toEqual(['Alt', 'Shift', '.']);
    expect(shortcutKeys('⌥⇧S')).toEqual(['⌥', '⇧', 'S']);
    expect(shortcutKeys('')).toEqual([]);
    expect(shortcutKeys(undefined)).toEqual([]);
  });

  it('says what valued the last search: the network loading with its progress, the network, or the heuristic and why', () => {
    const loading: NetworkStatus = { state: 'loading', percent: 60 };
    const ready: NetworkStatus = { state: 'ready', memory: 'shared', workers: 2, ms: 1400 };
    const failed: NetworkStatus = { state: 'failed', reason: { code: 'networkLoadFailed', params: ['HTTP 404'] } };
    expect(evaluationText(null, loading)).toBe('Loading the learned network… 60 %');
    expect(evaluationText({ ...STATUS, evaluation: 'network' }, loading)).toBe('Loading the learned network… 60 %');
    // The heuristic plays while it loads: each move says so.
    expect(evaluationText({ ...STATUS, evaluation: 'heuristic' }, loading)).toBe('Evaluation: the heuristic, until the learned network has loaded (60 %)');
    expect(evaluationText({ ...STATUS, evaluation: 'network' }, ready)).toBe('Evaluation: the learned network');
    expect(evaluationText({ ...STATUS, evaluation: 'heuristic' }, failed)).toBe('Evaluation: the heuristic. The learned network did not load (HTTP 404)');
    expect(evaluationText({ ...STATUS, evaluation: 'heuristic' }, { state: 'failed', reason: { code: 'networkNoMemory' } })).toBe(
      'Evaluation: the heuristic. Not enough memory for the learned network',
    );
    const five = { rows: 5, cols: 5, cells: new Array<number>(25).fill(0) };
    expect(evaluationText({ ...STATUS, evaluation: 'heuristic', board: five }, ready)).toBe('Evaluation: the heuristic. The learned network plays 4×4 boards only');
    expect(evaluationText({ ...STATUS, evaluation: 'heuristic' }, ready)).toBe('Evaluation: the heuristic');
    // Strategies that do not say what evaluates (Monte-Carlo, greedy...): no line.
    expect(evaluationText(STATUS, ready)).toBe('');
    expect(evaluationText(null, null)).toBe('');
  });
});
