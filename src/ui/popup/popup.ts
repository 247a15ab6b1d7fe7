/**
 * The popup, the quick control: the shared controls (src/ui/controls.ts) for the game tab, the count of
 * games kept with their export, and a button that opens the side panel (which stays open while the game
 * plays).
 *
 * The tab is `?tabId=N` when given (tests, a popup opened in its own window), else the active tab of the
 * last focused window.
 */
import type { GameRecord } from '../../shared/messages';
import { HISTORY_NOTICE_KEY, readNotice } from '../../shared/game-log';
import { GAME_LOG_KEYS, readStoredLog } from '../../shared/game-log-parts';
import type { HistoryNotice } from '../../shared/game-log';
import { exportJson } from '../../shared/game-log-io';
import { Controls, warmSolver } from '../controls';
import { byId, renderPairs } from '../dom';
import { formatInt, localize, t } from '../i18n';
import { browser, hasPanel, openPanel } from '../../platform/runtime';
import { exportFileName, gameStats, tabIdFromSearch } from '../status-view';
import { linkHowItWorks } from '../pages';
import { showUpdateNote } from '../update-note';
import { noticeText } from '../history-notice';
import { followLog } from '../log-follower';
import type { StoredLog } from '../log-follower';

const ui = {
  games: byId('games'),
  statsSummary: byId('stats-summary'),
  export: byId<HTMLButtonElement>('export'),
  openPanel: byId<HTMLButtonElement>('open-panel'),
  notice: byId('history-notice'),
};

let games: GameRecord[] = [];
/** Stored records that do not validate, exported as they are. */
let unreadable: unknown[] = [];

function renderNotice(notice: HistoryNotice | null): void {
  ui.notice.textContent = noticeText(notice);
  ui.notice.hidden = notice === null;
}

function renderGames(): void {
  const stats = gameStats(games);
  ui.statsSummary.textContent = stats.count === 0 ? t('gamesNone') : t('gamesCount', stats.count);
  renderPairs(ui.games, [
    { label: t('statGames'), value: String(stats.count) },
    { label: t('statBestScore'), value: stats.bestScore === null ? '—' : formatInt(stats.bestScore) },
    { label: t('statBestTile'), value: stats.bestTile > 0 ? String(stats.bestTile) : '—' },
  ]);
  ui.export.disabled = stats.count === 0 && unreadable.length === 0;
}

function exportGames(): void {
  const url = URL.createObjectURL(new Blob([exportJson(games, unreadable)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(new Date());
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function resolveTabId(): Promise<number | null> {
  const fromUrl = tabIdFromSearch(location.search);
  if (fromUrl !== null) return fromUrl;
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.id ?? null;
}

async function start(): Promise<void> {
  warmSolver();
  localize(document);
  document.documentElement.lang = browser.i18n.getUILanguage();
  const controls = new Controls();
  // Opening the panel needs the user's gesture: the window is known before the click, so the click
  // handler calls it at once.
  let windowId: number | undefined;
  void browser.windows.getCurrent().then((w) => (windowId = w.id), () => undefined);
  ui.openPanel.hidden = !hasPanel();
  ui.openPanel.addEventListener('click', () => {
    if (windowId === undefined) return;
    openPanel(windowId).then(
      () => window.close(),
      (err: unknown) => (controls.ui.message.textContent = err instanceof Error ? err.message : String(err)),
    );
  });
  ui.export.addEventListener('click', exportGames);
  linkHowItWorks(document);
  void showUpdateNote(byId('update-note')).catch(() => undefined);
  const useLog = (stored: StoredLog): void => {
    const log = readStoredLog(stored);
    games = [...log.games];
    unreadable = [...log.aside];
    renderGames();
  };
  const stored = await browser.storage.local.get([...GAME_LOG_KEYS]);
  useLog(stored);
  followLog(stored, useLog);
  renderNotice(readNotice((await browser.storage.session.get(HISTORY_NOTICE_KEY))[HISTORY_NOTICE_KEY]));
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'session' && changes[HISTORY_NOTICE_KEY]) renderNotice(readNotice(changes[HISTORY_NOTICE_KEY].newValue));
  });
  await controls.start(await resolveTabId());
}

void start();
