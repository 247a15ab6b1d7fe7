/**
 * The popup: commands for the game tab (Solve / Stop / Step / Hint), the settings, the live status the
 * background keeps in storage.session under `status:<tabId>`, and the game log.
 *
 * The tab is `?tabId=N` when given (tests, a popup opened in its own window), else the active tab of the
 * last focused window. The popup talks to the background only through the typed protocol.
 */
import { STRATEGIES } from '../engine/strategies/index';
import type { MoveChoice } from '../engine/types';
import { RunStatusSchema, send } from '../shared/messages';
import type { Command, GameRecord, RunStatus } from '../shared/messages';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, normalizeSettings } from '../shared/settings';
import type { Settings } from '../shared/settings';
import { GAMES_STORAGE_KEY, readGames, statusKey } from '../background/logic';
import { SHORTCUTS_PAGE, browser } from '../platform/runtime';
import {
  buttonStates,
  exportFileName,
  gameStats,
  hintText,
  moveText,
  originPattern,
  permissionHosts,
  siteText,
  stateView,
  settingsFields,
  statCells,
  tabIdFromSearch,
  shortcutKeys,
  tileClass,
  valueRows,
} from './view';

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`popup: #${id} missing`);
  return element as T;
}

const ui = {
  site: byId('site'),
  state: byId('state'),
  permission: byId('permission'),
  permissionText: byId('permission-text'),
  allow: byId<HTMLButtonElement>('allow'),
  solve: byId<HTMLButtonElement>('solve'),
  stop: byId<HTMLButtonElement>('stop'),
  step: byId<HTMLButtonElement>('step'),
  hint: byId<HTMLButtonElement>('hint'),
  message: byId('message'),
  board: byId('board'),
  stats: byId('stats'),
  hintBox: byId('hint-box'),
  hintText: byId('hint-text'),
  values: byId('values'),
  note: byId('note'),
  strategy: byId<HTMLSelectElement>('strategy'),
  thinkField: byId('think-field'),
  think: byId<HTMLInputElement>('think'),
  pause: byId<HTMLInputElement>('pause'),
  depthField: byId('depth-field'),
  depth: byId<HTMLSelectElement>('depth'),
  playoutsField: byId('playouts-field'),
  playouts: byId<HTMLInputElement>('playouts'),
  at2048: byId<HTMLSelectElement>('at2048'),
  games: byId('games'),
  statsSummary: byId('stats-summary'),
  export: byId<HTMLButtonElement>('export'),
};

let tabId: number | null = null;
let status: RunStatus | null = null;
let settings: Settings = DEFAULT_SETTINGS;
let solvePending = false;
/** A hint asked for in this popup, shown until the board moves on. */
let shownHint: { choice: MoveChoice; moves: number } | null = null;
let commandError = '';
let hintPending = false;

// ---------------------------------------------------------------------------------------------------
// Rendering

function render(): void {
  const view = stateView(status);
  ui.state.textContent = view.label;
  ui.state.className = `state tone-${view.tone}`;
  ui.site.textContent = siteText(status) || 'Open a 2048 game and press Solve';

  const message = commandError || view.message;
  ui.message.textContent = message;
  ui.message.classList.toggle('is-error', commandError !== '' || status?.state === 'error');

  const buttons = buttonStates(status, solvePending);
  ui.solve.disabled = !buttons.solve || tabId === null;
  ui.stop.disabled = !buttons.stop || tabId === null;
  ui.step.disabled = !buttons.step || tabId === null;
  ui.hint.disabled = !buttons.hint || tabId === null;

  ui.stats.replaceChildren(
    ...statCells(status).map((cell) => {
      const item = document.createElement('div');
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = cell.label;
      dd.textContent = cell.value;
      item.append(dt, dd);
      return item;
    }),
  );
  renderBoard();
  renderValues();
}

function renderBoard(): void {
  const board = status?.board;
  const rows = board?.rows ?? 4;
  const cols = board?.cols ?? 4;
  ui.board.style.setProperty('--n', String(cols));
  ui.board.classList.toggle('dense', cols > 5);
  const cells = board?.cells ?? new Array<number>(rows * cols).fill(0);
  ui.board.replaceChildren(
    ...cells.map((value) => {
      const tile = document.createElement('div');
      tile.className = `tile ${tileClass(value)}`;
      tile.textContent = value > 0 ? String(value) : '';
      return tile;
    }),
  );
}

function renderValues(): void {
  if (shownHint && status && status.moves !== shownHint.moves) shownHint = null;
  const choice = shownHint?.choice;
  const values = choice ? choice.values : status?.values;
  const chosen = choice ? choice.move : (status?.lastMove ?? null);
  const rows = valueRows(values, chosen);
  const note = status?.note;
  ui.hintBox.hidden = !choice && !hintPending && rows.length === 0 && !note;
  ui.hintText.textContent = hintPending
    ? 'Thinking…'
    : choice
      ? hintText(choice)
      : status?.lastMove
        ? `Last move: ${moveText(status.lastMove)}`
        : '';
  ui.hintText.hidden = ui.hintText.textContent === '';
  ui.values.replaceChildren(
    ...rows.map((row) => {
      const item = document.createElement('li');
      item.className = row.best ? 'best' : '';
      const name = document.createElement('span');
      name.textContent = moveText(row.move);
      const bar = document.createElement('span');
      bar.className = 'bar';
      const fill = document.createElement('span');
      fill.style.width = `${Math.max(3, Math.round(row.share * 100))}%`;
      bar.append(fill);
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = row.text;
      item.append(name, bar, num);
      return item;
    }),
  );
  ui.note.textContent = note ?? '';
  ui.note.hidden = !note;
}

function renderSettings(): void {
  ui.strategy.value = settings.strategy;
  ui.think.value = String(settings.thinkMs);
  ui.pause.value = String(settings.pauseMs);
  ui.depth.value = settings.depth === null ? '' : String(settings.depth);
  ui.playouts.value = String(settings.playouts);
  ui.at2048.value = settings.continueAfterWin ? 'keep' : 'stop';
  const fields = settingsFields(settings.strategy);
  ui.thinkField.hidden = !fields.think;
  ui.depthField.hidden = !fields.depth;
  ui.playoutsField.hidden = !fields.playouts;
}

function renderGames(games: readonly GameRecord[]): void {
  const stats = gameStats(games);
  ui.statsSummary.textContent = stats.count === 0 ? '(no games yet)' : `(${stats.count} game${stats.count === 1 ? '' : 's'})`;
  const cells: [string, string][] = [
    ['Games', String(stats.count)],
    ['Best score', stats.bestScore === null ? '—' : stats.bestScore.toLocaleString('en-US')],
    ['Best tile', stats.bestTile > 0 ? String(stats.bestTile) : '—'],
  ];
  ui.games.replaceChildren(
    ...cells.map(([label, value]) => {
      const item = document.createElement('div');
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = label;
      dd.textContent = value;
      item.append(dt, dd);
      return item;
    }),
  );
  ui.export.disabled = stats.count === 0;
}

// ---------------------------------------------------------------------------------------------------
// Commands

async function runCommand(command: Command): Promise<void> {
  if (tabId === null) return;
  commandError = '';
  if (command === 'solve') solvePending = true;
  if (command === 'hint') hintPending = true;
  render();
  try {
    const reply = await send('popup/command', { tabId, command });
    if (reply.status && (!status || reply.status.updatedAt >= status.updatedAt)) status = reply.status;
    if (command === 'hint' && reply.hint) shownHint = { choice: reply.hint, moves: status?.moves ?? 0 };
  } catch (err) {
    commandError = err instanceof Error ? err.message : String(err);
  } finally {
    if (command === 'solve') solvePending = false;
    if (command === 'hint') hintPending = false;
    render();
  }
}

// ---------------------------------------------------------------------------------------------------
// Settings

function clampInt(raw: string, min: number, max: number, fallback: number): number {
  const n = Math.round(Number(raw));
  if (raw.trim() === '' || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}

async function saveSettings(change: Partial<Settings>): Promise<void> {
  settings = normalizeSettings({ ...settings, ...change });
  renderSettings();
  await browser.storage.local.set({ [SETTINGS_STORAGE_KEY]: settings });
}

function wireSettings(): void {
  ui.strategy.replaceChildren(
    ...STRATEGIES.map((strategy) => {
      const option = document.createElement('option');
      option.value = strategy.name;
      option.textContent = strategy.label;
      option.title = strategy.description;
      return option;
    }),
  );
  ui.strategy.addEventListener('change', () => void saveSettings({ strategy: ui.strategy.value as Settings['strategy'] }));
  ui.think.addEventListener('change', () => void saveSettings({ thinkMs: clampInt(ui.think.value, 10, 10_000, settings.thinkMs) }));
  ui.pause.addEventListener('change', () => void saveSettings({ pauseMs: clampInt(ui.pause.value, 0, 5_000, settings.pauseMs) }));
  ui.depth.addEventListener('change', () => void saveSettings({ depth: ui.depth.value === '' ? null : clampInt(ui.depth.value, 1, 8, 3) }));
  ui.playouts.addEventListener('change', () =>
    void saveSettings({ playouts: clampInt(ui.playouts.value, 1, 100_000, settings.playouts) }),
  );
  ui.at2048.addEventListener('change', () => void saveSettings({ continueAfterWin: ui.at2048.value === 'keep' }));
}

// ---------------------------------------------------------------------------------------------------
// Permission for other sites

/** Show the permission box: what to allow, and a button that asks the browser for `origins`. */
function askFor(text: string, label: string, origins: string[]): void {
  ui.permissionText.textContent = text;
  ui.allow.textContent = label;
  ui.permission.hidden = false;
  // permissions.request must run in the click itself (a user gesture), before any await.
  ui.allow.onclick = () => {
    browser.permissions.request({ origins }).then(
      (ok) => {
        if (!ok) commandError = 'Permission not granted: the autopilot can play there only while this popup was opened from the toolbar.';
        else if (/permission/i.test(commandError)) commandError = '';
        render();
        void checkPermission();
      },
      (err: unknown) => {
        commandError = err instanceof Error ? err.message : String(err);
        render();
      },
    );
  };
}

/**
 * Host access: first the sites the extension is for (the manifest's host permissions: Chrome grants them
 * at install, Firefox lets the user grant or withhold them), then the tab's own site when it is another
 * one (an optional permission, asked for per site).
 */
async function checkPermission(): Promise<void> {
  if (tabId === null) return;
  const declared = browser.runtime.getManifest().host_permissions ?? [];
  if (declared.length > 0 && !(await browser.permissions.contains({ origins: declared }))) {
    askFor(
      `Allow 2048 Autopilot on the sites it plays on (${permissionHosts(declared).join(', ')}): the browser has not granted them yet.`,
      'Allow on these sites',
      declared,
    );
    return;
  }
  let url: string | undefined;
  try {
    url = (await browser.tabs.get(tabId)).url;
  } catch {
    url = undefined;
  }
  const pattern = originPattern(url);
  if (!pattern || (await browser.permissions.contains({ origins: [pattern] }))) {
    ui.permission.hidden = true;
    return;
  }
  askFor('To play here after reloads too, allow the autopilot on this site.', 'Allow on this site', [pattern]);
}

// ---------------------------------------------------------------------------------------------------
// Game log export

let games: GameRecord[] = [];

function exportGames(): void {
  const blob = new Blob([JSON.stringify(games, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(new Date());
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// ---------------------------------------------------------------------------------------------------
// Keyboard shortcuts as the user has them (the browser's shortcuts page can change them)

async function renderShortcuts(): Promise<void> {
  const commands = await browser.commands.getAll();
  for (const element of document.querySelectorAll<HTMLElement>('.shortcut[data-command]')) {
    const command = commands.find((c) => c.name === element.dataset.command);
    if (!command) continue;
    const keys = shortcutKeys(command.shortcut);
    if (keys.length === 0) {
      element.textContent = 'No key for';
      element.title = `Set one at ${SHORTCUTS_PAGE}`;
      continue;
    }
    const parts: (Node | string)[] = [];
    keys.forEach((key, index) => {
      if (index > 0) parts.push('+');
      const kbd = document.createElement('kbd');
      kbd.textContent = key;
      parts.push(kbd);
    });
    element.replaceChildren(...parts);
  }
}

// ---------------------------------------------------------------------------------------------------
// Start

async function resolveTabId(): Promise<number | null> {
  const fromUrl = tabIdFromSearch(location.search);
  if (fromUrl !== null) return fromUrl;
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.id ?? null;
}

function acceptStatus(raw: unknown): void {
  const parsed = RunStatusSchema.safeParse(raw);
  status = parsed.success ? parsed.data : null;
  render();
}

async function start(): Promise<void> {
  wireSettings();
  ui.solve.addEventListener('click', () => void runCommand('solve'));
  ui.stop.addEventListener('click', () => void runCommand('stop'));
  ui.step.addEventListener('click', () => void runCommand('step'));
  ui.hint.addEventListener('click', () => void runCommand('hint'));
  ui.export.addEventListener('click', exportGames);
  void renderShortcuts().catch(() => undefined);

  tabId = await resolveTabId();
  const local = await browser.storage.local.get([SETTINGS_STORAGE_KEY, GAMES_STORAGE_KEY]);
  settings = normalizeSettings(local[SETTINGS_STORAGE_KEY]);
  games = readGames(local[GAMES_STORAGE_KEY]);
  renderSettings();
  renderGames(games);
  if (tabId === null) {
    commandError = 'No tab to play in.';
  } else {
    const key = statusKey(tabId);
    acceptStatus((await browser.storage.session.get(key))[key]);
    browser.storage.onChanged.addListener((changes, area) => {
      if (area === 'session' && key in changes) acceptStatus(changes[key].newValue);
      if (area === 'local' && changes[SETTINGS_STORAGE_KEY]) {
        settings = normalizeSettings(changes[SETTINGS_STORAGE_KEY].newValue);
        renderSettings();
      }
      if (area === 'local' && changes[GAMES_STORAGE_KEY]) {
        games = readGames(changes[GAMES_STORAGE_KEY].newValue);
        renderGames(games);
      }
    });
    void checkPermission();
  }
  render();
}

void start();
