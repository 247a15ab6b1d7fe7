/**
 * The side panel (Chrome `side_panel`; also opened as a tab with `?tabId=N` by the tests): it stays open
 * while the game plays. Three views, chosen by the URL's hash:
 *
 *   #live            the shared controls (src/ui/controls.ts) for the active tab, and live charts fed by
 *                    the statuses the panel receives anyway (one per move; nothing extra on the play path)
 *   #history         every game kept, filters, the summary per strategy with a chart, export / import
 *   #replay/<id>     one game move by move (←/→, Home/End, a slider), the board drawn
 *
 * Without `?tabId`, the panel follows the active tab of its window (tab activation events).
 */
import type { RunStatus } from '../../shared/messages';
import { Controls, warmSolver } from '../controls';
import { localize } from '../i18n';
import { tabIdFromSearch } from '../status-view';
import { browser } from '../../platform/runtime';
import { ChanceChart, LiveCharts, ValuesChart } from './charts';
import { addStatus, emptySeries } from './live-series';
import type { LiveSeries } from './live-series';
import { HistoryView } from './history-view';
import { ReplayView } from './replay-view';
import { chanceChartText, liveChartTexts } from './texts';
import { linkHowItWorks } from '../pages';

localize(document);
document.documentElement.lang = browser.i18n.getUILanguage();
linkHowItWorks(document);

const fixedTab = tabIdFromSearch(location.search);
const seriesByTab = new Map<number, LiveSeries>();
let shownTab: number | null = null;
let lastStatus: RunStatus | null = null;

const liveCharts = new LiveCharts(document.getElementById('chart-score') as HTMLElement, document.getElementById('chart-think') as HTMLElement);
const valuesChart = new ValuesChart(document.getElementById('chart-values') as HTMLElement, 150);
valuesChart.rebuild();
const scoreText = document.getElementById('chart-score-text') as HTMLElement;
const thinkText = document.getElementById('chart-think-text') as HTMLElement;
const chanceChart = new ChanceChart(document.getElementById('chart-chance') as HTMLElement, 140);
chanceChart.rebuild();
const chanceFigure = document.getElementById('chart-chance-figure') as HTMLElement;
const chanceTextLine = document.getElementById('chart-chance-text') as HTMLElement;

function seriesOf(tabId: number | null): LiveSeries {
  if (tabId === null) return emptySeries();
  let series = seriesByTab.get(tabId);
  if (!series) seriesByTab.set(tabId, (series = emptySeries()));
  return series;
}

/**
 * Charts redraw at most every CHART_INTERVAL_MS (so at least once a second while moves come in), never
 * per status: the panel shares its renderer's main thread with the offscreen solver host, and every
 * millisecond it spends is one the game may wait for.
 */
const CHART_INTERVAL_MS = 900;
let drawTimer: ReturnType<typeof setTimeout> | null = null;
function scheduleDraw(): void {
  if (drawTimer !== null) return;
  drawTimer = setTimeout(() => {
    drawTimer = null;
    drawLive();
  }, CHART_INTERVAL_MS);
}

function drawLive(): void {
  if (document.hidden || currentView() !== 'live') return;
  const series = seriesOf(shownTab);
  liveCharts.update(series);
  valuesChart.update(lastStatus?.values);
  const texts = liveChartTexts(series);
  scoreText.textContent = texts.score;
  thinkText.textContent = texts.think;
  const chance = chanceChartText(series);
  chanceFigure.hidden = chance === '';
  if (chance) chanceChart.update(series.moves, series.chance);
  chanceTextLine.textContent = chance;
}

const controls = new Controls({
  onStatus(status, tabId) {
    shownTab = tabId;
    lastStatus = status;
    if (status && tabId !== null) addStatus(seriesOf(tabId), status);
    scheduleDraw();
  },
});

// ---------------------------------------------------------------------------------------------- views

const views = {
  live: document.getElementById('view-live') as HTMLElement,
  history: document.getElementById('view-history') as HTMLElement,
  replay: document.getElementById('view-replay') as HTMLElement,
};
const nav = { live: document.getElementById('nav-live') as HTMLElement, history: document.getElementById('nav-history') as HTMLElement };
const history = new HistoryView();
const replay = new ReplayView();

function currentView(): keyof typeof views {
  const hash = location.hash.slice(1);
  if (hash.startsWith('replay/')) return 'replay';
  return hash === 'history' ? 'history' : 'live';
}

function route(): void {
  const view = currentView();
  for (const [name, element] of Object.entries(views)) element.hidden = name !== view;
  nav.live.toggleAttribute('aria-current', view === 'live');
  nav.history.toggleAttribute('aria-current', view !== 'live');
  if (view === 'live') {
    nav.live.setAttribute('aria-current', 'page');
    drawLive();
  } else {
    nav.history.setAttribute('aria-current', 'page');
  }
  if (view === 'history') void history.show();
  if (view === 'replay') void replay.show(location.hash.slice('#replay/'.length));
  else replay.hide();
}

window.addEventListener('hashchange', route);
document.addEventListener('visibilitychange', () => scheduleDraw());
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  liveCharts.rebuild();
  valuesChart.rebuild();
  chanceChart.rebuild();
  history.rebuildChart();
  drawLive();
});

// ------------------------------------------------------------------------------------ the active tab

async function start(): Promise<void> {
  warmSolver();
  route();
  if (fixedTab !== null) {
    await controls.start(fixedTab);
    return;
  }
  // Listen before anything is awaited: an activation while the panel starts is not lost.
  const own: { windowId?: number; started: boolean } = { started: false };
  let activated: { tabId: number; windowId: number }[] = [];
  browser.tabs.onActivated.addListener((info) => {
    if (!own.started) activated.push(info);
    else if (info.windowId === own.windowId) void controls.setTab(info.tabId);
  });
  const windowId = (await browser.windows.getCurrent()).id;
  own.windowId = windowId;
  const [tab] = await browser.tabs.query({ active: true, windowId });
  const latest = activated.filter((info) => info.windowId === windowId).at(-1);
  activated = [];
  own.started = true;
  await controls.start(latest?.tabId ?? tab?.id ?? null);
}

void start();
