/** The history view: every game kept, filters, the summary per strategy with a chart, export / import. */
import { STRATEGY_NAMES } from '../../engine/types';
import type { StrategyName } from '../../engine/types';
import type { GameRecord } from '../../shared/messages';
import { GAMES_CAP, GAMES_STORAGE_KEY, appendGame, readGames } from '../../shared/game-log';
import { ImportError, SUMMARY_TILES, exportCsv, exportJson, filterGames, importGames, mergeGames, sitesOf, summarize } from '../../shared/game-log';
import { strategyLabel } from '../status-view';
import { historyStrategyText } from '../coach-view';
import { byId } from '../controls';
import { formatInt, t, uiLanguage } from '../i18n';
import { browser } from '../../platform/runtime';
import { ReachChart } from './charts';

/** The id of a game in the replay's URL: its end time. */
export function gameId(game: GameRecord): string {
  return String(game.endedAt);
}

export async function loadGames(): Promise<GameRecord[]> {
  const items = await browser.storage.local.get(GAMES_STORAGE_KEY);
  return readGames(items[GAMES_STORAGE_KEY]);
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

export class HistoryView {
  private readonly ui = {
    strategy: byId<HTMLSelectElement>('filter-strategy'),
    site: byId<HTMLSelectElement>('filter-site'),
    limit: byId('history-limit'),
    summary: byId<HTMLTableElement>('summary'),
    games: byId<HTMLTableElement>('games-table'),
    empty: byId('games-empty'),
    exportJson: byId<HTMLButtonElement>('export-json'),
    exportCsv: byId<HTMLButtonElement>('export-csv'),
    import: byId<HTMLInputElement>('import'),
    ioMessage: byId('io-message'),
  };
  private games: GameRecord[] = [];
  private readonly chart = new ReachChart(byId('chart-reach'), 160);
  private wired = false;

  rebuildChart(): void {
    this.chart.rebuild();
    this.render();
  }

  async show(): Promise<void> {
    if (!this.wired) this.wire();
    this.games = await loadGames();
    this.render();
  }

  private wire(): void {
    this.wired = true;
    const { ui } = this;
    ui.strategy.replaceChildren(new Option(t('filterAll'), ''), ...STRATEGY_NAMES.map((name) => new Option(strategyLabel(name), name)));
    ui.strategy.addEventListener('change', () => this.render());
    ui.site.addEventListener('change', () => this.render());
    ui.exportJson.addEventListener('click', () => download(exportJson(this.games), 'application/json', this.fileName('json')));
    ui.exportCsv.addEventListener('click', () => download(exportCsv(this.games), 'text/csv', this.fileName('csv')));
    ui.import.addEventListener('change', () => void this.importFile());
    browser.storage.onChanged.addListener((changes, area) => {
      if (area !== 'local' || !changes[GAMES_STORAGE_KEY]) return;
      this.games = readGames(changes[GAMES_STORAGE_KEY].newValue);
      if (!byId('view-history').hidden) this.render();
    });
  }

  private fileName(ext: string): string {
    return `2048-autopilot-games-${new Date().toISOString().slice(0, 10)}.${ext}`;
  }

  private async importFile(): Promise<void> {
    const file = this.ui.import.files?.[0];
    if (!file) return;
    try {
      const result = importGames(await file.text());
      const merged = mergeGames(await loadGames(), result.games);
      // The same bounds as the log the background keeps (count and bytes, oldest first).
      const kept = merged.length > 0 ? appendGame(merged.slice(0, -1), merged[merged.length - 1]) : [];
      await browser.storage.local.set({ [GAMES_STORAGE_KEY]: kept });
      this.games = kept;
      this.ui.ioMessage.textContent = t('importDone', result.games.length, result.skipped);
      this.render();
    } catch (err) {
      this.ui.ioMessage.textContent = err instanceof ImportError ? err.message : t('importFailed', String(err));
    } finally {
      this.ui.import.value = '';
    }
  }

  private render(): void {
    const { ui } = this;
    const site = ui.site.value;
    ui.site.replaceChildren(new Option(t('filterAll'), ''), ...sitesOf(this.games).map((s) => new Option(s || '—', s)));
    ui.site.value = sitesOf(this.games).includes(site) ? site : '';
    const shown = filterGames(this.games, { strategy: ui.strategy.value as StrategyName | '', site: ui.site.value });
    ui.limit.textContent = t('historyLimit', this.games.length, GAMES_CAP);

    // Summary per strategy.
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

    // The games, newest first.
    const dateFormat = new Intl.DateTimeFormat(uiLanguage(), { dateStyle: 'short', timeStyle: 'short' });
    ui.games.tBodies[0].replaceChildren(
      ...[...shown].reverse().map((game) => {
        const tr = document.createElement('tr');
        const link = document.createElement('a');
        link.href = `#replay/${gameId(game)}`;
        link.textContent = t('replay');
        link.className = 'replay-link';
        if (!game.replay) link.removeAttribute('href');
        link.setAttribute('aria-label', t('replayGameLabel', dateFormat.format(game.endedAt), game.score === null ? '—' : formatInt(game.score)));
        const action = document.createElement('td');
        if (game.replay) action.append(link);
        tr.append(
          cell('td', dateFormat.format(game.endedAt)),
          cell('td', historyStrategyText(game)),
          cell('td', game.score === null ? '—' : formatInt(game.score)),
          cell('td', String(game.bestTile)),
          cell('td', String(game.moves)),
          action,
        );
        tr.title = `${game.site} · ${game.adapter} · ${t(`outcome_${game.outcome}`)}`;
        if (game.coach) tr.classList.add('coached');
        return tr;
      }),
    );
    ui.empty.hidden = shown.length > 0;
    ui.exportJson.disabled = this.games.length === 0;
    ui.exportCsv.disabled = this.games.length === 0;
  }
}
