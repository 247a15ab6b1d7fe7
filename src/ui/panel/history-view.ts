/**
 * The history view: every game kept, filters, the summary per strategy with a chart, export / import,
 * deleting a game or all of them. It reads the log and changes it only through the background, the log's
 * one writer (src/background/game-log-writer.ts): an import never races a game being recorded. It says
 * what the history could not do: records that cannot be read (kept aside, exported with the JSON), games
 * the browser's storage refused, what an import skipped, found twice, had no room for or cut short. A row
 * that cannot be drawn is replaced by a line saying so; every other row is drawn.
 */
import { STRATEGY_NAMES } from '../../engine/types';
import type { StrategyName } from '../../engine/types';
import type { GameRecord, LogChangeReply } from '../../shared/messages';
import { GAMES_CAP, SITE_GAMES_CAP, HISTORY_NOTICE_KEY, gameKey, importCandidates, readNotice } from '../../shared/game-log';
import { GAME_LOG_KEYS, readStoredLog } from '../../shared/game-log-parts';
import { SUMMARY_TILES, filterGames, sitesOf, summarize } from '../../shared/game-log';
import type { HistoryNotice } from '../../shared/game-log';
import { IMPORT_MAX_CHARS, ImportError, exportCsv, exportJson, importGames } from '../../shared/game-log-io';
import { send } from '../../platform/messaging';
import { strategyLabel } from '../status-view';
import { historyStrategyText } from '../coach-view';
import { byId } from '../dom';
import { formatInt, t, uiLanguage } from '../i18n';
import { browser } from '../../platform/runtime';
import { noticeText } from '../history-notice';
import { followLog } from '../log-follower';
import type { StoredLog } from '../log-follower';
import { ReachChart } from './charts';

/** The id of a game in the replay's URL: its end time. */
export function gameId(game: GameRecord): string {
  return String(game.endedAt);
}

export async function loadGames(): Promise<GameRecord[]> {
  return [...readStoredLog(await browser.storage.local.get([...GAME_LOG_KEYS])).games];
}

function download(text: string, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function cell(tag: 'td' | 'th', text: string, scope?: string): HTMLTableCellElement {
  const element = document.createElement(tag);
  element.textContent = text;
  if (scope) element.scope = scope;
  return element;
}

/** What an import did, in words (one sentence per thing that happened). */
function importSummary(reply: LogChangeReply, file: { skipped: number; truncated: number; future: number }, refusedBefore: number): string {
  if (reply.failed) return t('importStorageFull');
  const { skipped } = file;
  const parts = [t('importDone', reply.added, skipped, reply.duplicates)];
  const refused = reply.refused + refusedBefore;
  if (refused > 0) parts.push(t('importNoRoom', refused, SITE_GAMES_CAP));
  if (reply.future + file.future > 0) parts.push(t('importFuture', reply.future + file.future));
  if (reply.evicted > 0) parts.push(t('importEvicted', reply.evicted));
  if (reply.truncated + file.truncated > 0) parts.push(t('importTruncated', reply.truncated + file.truncated));
  return parts.join(' ');
}

/** How long the "Delete all" button waits for its confirming second click. */
const CONFIRM_MS = 5_000;

export class HistoryView {
  private readonly ui = {
    strategy: byId<HTMLSelectElement>('filter-strategy'),
    site: byId<HTMLSelectElement>('filter-site'),
    limit: byId('history-limit'),
    unreadable: byId('history-unreadable'),
    notice: byId('history-notice'),
    summary: byId<HTMLTableElement>('summary'),
    games: byId<HTMLTableElement>('games-table'),
    empty: byId('games-empty'),
    exportJson: byId<HTMLButtonElement>('export-json'),
    exportCsv: byId<HTMLButtonElement>('export-csv'),
    import: byId<HTMLInputElement>('import'),
    clear: byId<HTMLButtonElement>('clear-history'),
    ioMessage: byId('io-message'),
  };
  private games: GameRecord[] = [];
  /** Stored records that do not validate, as they are (exported with the JSON). */
  private aside: unknown[] = [];
  private notice: HistoryNotice | null = null;
  private readonly chart = new ReachChart(byId('chart-reach'), 160);
  private wired = false;
  /** Whether the log in storage is followed (from the first show on). */
  private following = false;
  private confirmUntil = 0;

  rebuildChart(): void {
    this.chart.rebuild();
    this.render();
  }

  async show(): Promise<void> {
    if (!this.wired) this.wire();
    const [local, session] = await Promise.all([
      browser.storage.local.get([...GAME_LOG_KEYS]),
      browser.storage.session.get(HISTORY_NOTICE_KEY),
    ]);
    this.useLog(local);
    this.notice = readNotice(session[HISTORY_NOTICE_KEY]);
    this.render();
    if (this.following) return;
    this.following = true;
    followLog(local, (log) => {
      this.useLog(log);
      if (!byId('view-history').hidden) this.render();
    });
  }

  private wire(): void {
    this.wired = true;
    const { ui } = this;
    ui.strategy.replaceChildren(new Option(t('filterAll'), ''), ...STRATEGY_NAMES.map((name) => new Option(strategyLabel(name), name)));
    ui.strategy.addEventListener('change', () => this.render());
    ui.site.addEventListener('change', () => this.render());
    ui.exportJson.addEventListener('click', () => download(exportJson(this.games, this.aside), 'application/json', this.fileName('json')));
    ui.exportCsv.addEventListener('click', () => download(exportCsv(this.games), 'text/csv', this.fileName('csv')));
    ui.import.addEventListener('change', () => void this.importFile());
    ui.clear.addEventListener('click', () => void this.clearClicked());
    ui.games.tBodies[0].addEventListener('click', (event) => {
      const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-key]');
      const key = button?.dataset.key;
      if (key) void this.change(() => send('history/delete', { key }));
    });
    browser.storage.onChanged.addListener((changes, area) => {
      if (area !== 'session' || !changes[HISTORY_NOTICE_KEY]) return;
      this.notice = readNotice(changes[HISTORY_NOTICE_KEY].newValue);
      if (!byId('view-history').hidden) this.render();
    });
  }

  /** The stored log as the view shows it: a record that does not validate counts as unreadable. */
  private useLog(stored: StoredLog): void {
    const log = readStoredLog(stored);
    this.games = [...log.games];
    this.aside = [...log.aside];
  }

  private fileName(ext: string): string {
    return `2048-autopilot-games-${new Date().toISOString().slice(0, 10)}.${ext}`;
  }

  private async importFile(): Promise<void> {
    const file = this.ui.import.files?.[0];
    if (!file) return;
    try {
      // Refused before it is read: a file far larger than the history could ever hold.
      if (file.size > IMPORT_MAX_CHARS) throw new ImportError('tooLarge');
      const result = importGames(await file.text());
      const candidates = importCandidates(result.games);
      const reply = await send('history/import', { games: candidates.games });
      this.ui.ioMessage.textContent = importSummary(reply, { ...result, future: candidates.future }, candidates.refused);
    } catch (err) {
      this.ui.ioMessage.textContent =
        err instanceof ImportError ? t(`importError_${err.reason}`, Math.round(IMPORT_MAX_CHARS / 1_000_000)) : t('importFailed', err instanceof Error ? err.name : 'Error');
    } finally {
      this.ui.import.value = '';
    }
  }

  /** "Delete all": the first click asks for a second one within CONFIRM_MS. */
  private async clearClicked(): Promise<void> {
    const now = Date.now();
    if (now > this.confirmUntil) {
      this.confirmUntil = now + CONFIRM_MS;
      this.ui.clear.textContent = t('clearConfirm', this.games.length + this.aside.length);
      setTimeout(() => {
        if (Date.now() >= this.confirmUntil) this.ui.clear.textContent = t('clearHistory');
      }, CONFIRM_MS + 50);
      return;
    }
    this.confirmUntil = 0;
    this.ui.clear.textContent = t('clearHistory');
    await this.change(() => send('history/clear', {}));
  }

  /** A deletion, through the log's one writer; the view follows the stored log. */
  private async change(request: () => Promise<LogChangeReply>): Promise<void> {
    try {
      const reply = await request();
      this.ui.ioMessage.textContent = reply.failed ? t('historyWriteFailed') : t('historyDeleted', reply.deleted);
    } catch (err) {
      this.ui.ioMessage.textContent = t('importFailed', err instanceof Error ? err.name : 'Error');
    }
  }

  private render(): void {
    const { ui } = this;
    const site = ui.site.value;
    ui.site.replaceChildren(new Option(t('filterAll'), ''), ...sitesOf(this.games).map((s) => new Option(s || '—', s)));
    ui.site.value = sitesOf(this.games).includes(site) ? site : '';
    const shown = filterGames(this.games, { strategy: ui.strategy.value as StrategyName | '', site: ui.site.value });
    ui.limit.textContent = t('historyLimit', this.games.length, GAMES_CAP, SITE_GAMES_CAP);
    ui.unreadable.textContent = this.aside.length > 0 ? t('historyUnreadable', this.aside.length) : '';
    ui.unreadable.hidden = this.aside.length === 0;
    ui.notice.textContent = noticeText(this.notice);
    ui.notice.hidden = this.notice === null;
    this.renderSummary(shown);

    // The games, newest first; a row that cannot be drawn says so, the others are drawn.
    const dateFormat = new Intl.DateTimeFormat(uiLanguage(), { dateStyle: 'short', timeStyle: 'short' });
    ui.games.tBodies[0].replaceChildren(
      ...[...shown].reverse().map((game) => {
        try {
          return this.row(game, dateFormat);
        } catch {
          const tr = document.createElement('tr');
          const td = cell('td', t('historyRowUnreadable'));
          td.colSpan = 6;
          tr.append(td);
          return tr;
        }
      }),
    );
    ui.empty.hidden = shown.length > 0;
    ui.exportJson.disabled = this.games.length === 0 && this.aside.length === 0;
    ui.exportCsv.disabled = this.games.length === 0;
    ui.clear.disabled = this.games.length === 0 && this.aside.length === 0;
  }

  private renderSummary(shown: readonly GameRecord[]): void {
    const { ui } = this;
    const rows = summarize(shown);
    const head = document.createElement('tr');
    head.append(cell('th', t('colStrategy'), 'col'), cell('th', t('colGames'), 'col'), cell('th', t('colMedian'), 'col'));
    for (const tile of SUMMARY_TILES) head.append(cell('th', String(tile), 'col'));
    ui.summary.tHead?.replaceChildren(head);
    ui.summary.tBodies[0].replaceChildren(
      ...rows.map((row) => {
        const tr = document.createElement('tr');
        tr.append(
          cell('th', strategyLabel(row.strategy), 'row'),
          cell('td', String(row.games)),
          cell('td', row.medianScore === null ? '—' : formatInt(row.medianScore)),
          ...SUMMARY_TILES.map((tile) => cell('td', `${Math.round(row.reached[tile] * 100)}%`)),
        );
        return tr;
      }),
    );
    this.chart.update(
      SUMMARY_TILES,
      rows.map((row) => ({ label: strategyLabel(row.strategy), rates: SUMMARY_TILES.map((tile) => row.reached[tile]) })),
    );
  }

  private row(game: GameRecord, dateFormat: Intl.DateTimeFormat): HTMLTableRowElement {
    const tr = document.createElement('tr');
    const ended = dateFormat.format(game.endedAt);
    const score = game.score === null ? '—' : formatInt(game.score);
    const action = document.createElement('td');
    if (game.replay) {
      const link = document.createElement('a');
      link.href = `#replay/${gameId(game)}`;
      link.textContent = t('replay');
      link.className = 'replay-link';
      link.setAttribute('aria-label', t('replayGameLabel', ended, score));
      action.append(link, ' ');
    }
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'btn-link delete-game';
    remove.dataset.key = gameKey(game);
    remove.textContent = '×';
    remove.title = t('deleteGame');
    remove.setAttribute('aria-label', t('deleteGameLabel', ended, score));
    action.append(remove);
    tr.append(cell('td', ended), cell('td', historyStrategyText(game)), cell('td', score), cell('td', String(game.bestTile)), cell('td', String(game.moves)), action);
    tr.title = `${game.site} · ${game.adapter} · ${t(`outcome_${game.outcome}`)}`;
    if (game.coach) tr.classList.add('coached');
    return tr;
  }
}
