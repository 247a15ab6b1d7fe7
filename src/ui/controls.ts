/**
 * The controls the popup and the side panel share: Solve / Stop / Step / Hint for one tab, the settings,
 * the live status the background keeps in storage.session under `status:<tabId>` (state, board,
 * numbers, move values), the "Allow on this site" prompt and the keyboard shortcuts as the user has them.
 *
 * Both pages carry the same element ids (see src/ui/popup/index.html); `Controls` finds them, wires them and
 * renders into them (the settings fields through ./settings-form.ts, with the DOM helpers of ./dom.ts). The
 * tab can change (the panel follows the active tab: `setTab`). It talks to the background only through the
 * typed protocol (`send`), and announces changes of state in an ARIA live region.
 */
import type { MoveChoice } from '../engine/types';
import { RunStatusSchema } from '../shared/messages';
import { send } from '../platform/messaging';
import { DeliveryError } from '../shared/protocol';
import type { Command, RunStatus } from '../shared/messages';
import { SETTINGS_STORAGE_KEY } from '../shared/settings';
import { statusKey } from '../shared/run-status-store';
import { NETWORK_STATUS_KEY, readNetworkStatus } from '../shared/network-status';
import type { NetworkStatus } from '../shared/network-status';
import { browser } from '../platform/runtime';
import {
  buttonStates,
  hintText,
  moveText,
  originPattern,
  permissionHosts,
  siteText,
  siteTitle,
  evaluationText,
  statusMessageText,
  statCells,
  stateView,
  valueRows,
} from './status-view';
import { t } from './i18n';
import { byId, keepChildren, renderBoardInto, renderPairs, setAttr, setText } from './dom';
import { renderShortcuts } from './shortcuts';
import { SettingsForm } from './settings-form';
import { CoachCard } from './coach-card';
import { ChanceLine } from './chance-line';
import { coachStateLabel } from './coach-view';

const RENDER_INTERVAL_MS = 250;

/**
 * Start the solver host now, as the page opens (before anything else is awaited): by the time Solve is
 * clicked its workers have loaded (docs: architecture.md, "Contexts"). Nothing is played or injected.
 */
export function warmSolver(): void {
  send('solver/warm', {}).catch(() => undefined);
}

export interface ControlsOptions {
  /** Called after each status change (the panel feeds its charts from it). */
  readonly onStatus?: (status: RunStatus | null, tabId: number | null) => void;
}

export class Controls {
  readonly ui = {
    site: byId('site'),
    state: byId('state'),
    announce: byId('announce'),
    permission: byId('permission'),
    permissionText: byId('permission-text'),
    allow: byId<HTMLButtonElement>('allow'),
    solve: byId<HTMLButtonElement>('solve'),
    stop: byId<HTMLButtonElement>('stop'),
    step: byId<HTMLButtonElement>('step'),
    hint: byId<HTMLButtonElement>('hint'),
    message: byId('message'),
    evaluation: byId('evaluation'),
    board: byId('board'),
    stats: byId('stats'),
    hintBox: byId('hint-box'),
    hintText: byId('hint-text'),
    values: byId('values'),
    note: byId('note'),
    strategy: byId<HTMLSelectElement>('strategy'),
    thinkField: byId('think-field'),
    think: byId<HTMLInputElement>('think'),
    pause: byId<HTMLSelectElement>('pause'),
    depthField: byId('depth-field'),
    depth: byId<HTMLSelectElement>('depth'),
    playoutsField: byId('playouts-field'),
    playouts: byId<HTMLInputElement>('playouts'),
    at2048: byId<HTMLSelectElement>('at2048'),
  };

  tabId: number | null = null;
  status: RunStatus | null = null;
  /** The solver's learned network (one for every tab): loading, in use, or why not. */
  network: NetworkStatus | null = null;
  private solvePending = false;
  private hintPending = false;
  /** A hint asked for here, shown until the board moves on. */
  private shownHint: { choice: MoveChoice; moves: number } | null = null;
  private commandError = '';
  private lastAnnounced = '';
  private renderTimer: ReturnType<typeof setTimeout> | null = null;
  private renderedAt = 0;
  private readonly form = new SettingsForm(this.ui);

  /** Coach mode's toggle and grades (src/popup/coach-card.ts), mounted before the message line. */
  private coachCard: CoachCard | null = null;
  private chanceLine: ChanceLine | null = null;

  constructor(private readonly options: ControlsOptions = {}) {}

  /** Wire everything and show `tabId`'s run. */
  async start(tabId: number | null): Promise<void> {
    this.form.wire();
    this.ui.solve.addEventListener('click', () => void this.run('solve'));
    this.ui.stop.addEventListener('click', () => void this.run('stop'));
    this.ui.step.addEventListener('click', () => void this.run('step'));
    this.ui.hint.addEventListener('click', () => void this.run('hint'));
    this.coachCard = new CoachCard(this.ui.message.parentElement ?? document.body, (on) => void this.run(on ? 'coach' : 'coach-stop'), this.ui.message);
    this.chanceLine = new ChanceLine(this.ui.evaluation);
    void renderShortcuts(document).catch(() => undefined);
    const local = await browser.storage.local.get(SETTINGS_STORAGE_KEY);
    this.form.show(local[SETTINGS_STORAGE_KEY]);
    this.network = readNetworkStatus((await browser.storage.session.get(NETWORK_STATUS_KEY))[NETWORK_STATUS_KEY]);
    browser.storage.onChanged.addListener((changes, area) => {
      if (area === 'session' && NETWORK_STATUS_KEY in changes) {
        this.network = readNetworkStatus(changes[NETWORK_STATUS_KEY].newValue);
        this.scheduleRender();
      }
      if (area === 'session' && this.tabId !== null) {
        const key = statusKey(this.tabId);
        if (key in changes) this.acceptStatus(changes[key].newValue);
      }
      if (area === 'local' && changes[SETTINGS_STORAGE_KEY]) {
        this.form.show(changes[SETTINGS_STORAGE_KEY].newValue);
      }
    });
    await this.setTab(tabId);
  }

  /** Show another tab's run (the panel follows the active tab). */
  async setTab(tabId: number | null): Promise<void> {
    this.tabId = tabId;
    this.shownHint = null;
    this.commandError = tabId === null ? t('errNoTab') : '';
    if (tabId === null) {
      this.status = null;
      this.render();
      this.options.onStatus?.(null, null);
      return;
    }
    const key = statusKey(tabId);
    const stored = (await browser.storage.session.get(key))[key];
    if (this.tabId !== tabId) return; // switched again meanwhile
    this.acceptStatus(stored);
    void this.checkPermission();
  }

  private acceptStatus(raw: unknown): void {
    const parsed = RunStatusSchema.safeParse(raw);
    this.status = parsed.success ? parsed.data : null;
    this.options.onStatus?.(this.status, this.tabId);
    this.scheduleRender();
  }

  /**
   * Statuses come once per move (tens a second on a fast page): the page is redrawn at most every
   * RENDER_INTERVAL_MS, with the newest one, so a page left open costs the game next to nothing.
   */
  private scheduleRender(): void {
    if (this.renderTimer !== null) return;
    // The first status after a quiet spell is drawn at once (a person's move in coach mode), the rest at
    // most every RENDER_INTERVAL_MS.
    this.renderTimer = setTimeout(() => {
      this.renderTimer = null;
      this.renderedAt = Date.now();
      this.render();
    }, Math.max(0, this.renderedAt + RENDER_INTERVAL_MS - Date.now()));
  }

  // ------------------------------------------------------------------------------------ rendering

  render(): void {
    const { ui, status } = this;
    const view = stateView(status);
    const coaching = coachStateLabel(status);
    setText(ui.state, coaching ?? view.label);
    const stateClass = `state tone-${coaching ? 'busy' : view.tone}`;
    if (ui.state.className !== stateClass) ui.state.className = stateClass;
    setText(ui.site, siteText(status) || t('siteNone'));
    setAttr(ui.site, 'title', siteTitle(status));

    const message = this.commandError || view.message;
    setText(ui.message, message);
    ui.message.classList.toggle('is-error', this.commandError !== '' || status?.state === 'error');
    const evaluation = evaluationText(status, this.network);
    setText(ui.evaluation, evaluation);
    ui.evaluation.hidden = evaluation === '';
    ui.evaluation.classList.toggle('is-loading', this.network?.state === 'loading');
    // Announce a change of state (and its message) once, not every move.
    const announcement = [view.label, message].filter(Boolean).join('. ');
    if (announcement !== this.lastAnnounced) {
      this.lastAnnounced = announcement;
      ui.announce.textContent = announcement;
    }

    const buttons = buttonStates(status, this.solvePending);
    const noTab = this.tabId === null;
    ui.solve.disabled = !buttons.solve || noTab;
    ui.stop.disabled = !buttons.stop || noTab;
    ui.step.disabled = !buttons.step || noTab;
    ui.hint.disabled = !buttons.hint || noTab;

    this.coachCard?.render(status, !noTab);
    this.chanceLine?.render(status);
    renderPairs(ui.stats, statCells(status));
    renderBoardInto(ui.board, status?.board);
    this.renderValues();
  }

  private renderValues(): void {
    const { ui, status } = this;
    if (this.shownHint && status && status.moves !== this.shownHint.moves) this.shownHint = null;
    const choice = this.shownHint?.choice;
    const values = choice ? choice.values : status?.values;
    const chosen = choice ? choice.move : (status?.lastMove ?? null);
    const rows = valueRows(values, chosen, choice ? choice.chance?.moves : status?.chance?.moves);
    const note = status?.note;
    ui.hintBox.hidden = !choice && !this.hintPending && rows.length === 0 && !note;
    const hint = this.hintPending
      ? t('thinking')
      : choice
        ? hintText(choice)
        : status?.lastMove
          ? t('lastMove', moveText(status.lastMove))
          : '';
    setText(ui.hintText, hint);
    ui.hintText.hidden = ui.hintText.textContent === '';
    const items = keepChildren(ui.values, rows.length, () => {
      const item = document.createElement('li');
      const bar = document.createElement('span');
      bar.className = 'bar';
      bar.setAttribute('aria-hidden', 'true');
      bar.append(document.createElement('span'));
      const num = document.createElement('span');
      num.className = 'num';
      item.append(document.createElement('span'), bar, num);
      return item;
    });
    rows.forEach((row, i) => {
      const item = items[i];
      const [name, bar, num] = item.children as unknown as [HTMLElement, HTMLElement, HTMLElement];
      const className = row.best ? 'best' : '';
      if (item.className !== className) item.className = className;
      setText(name, moveText(row.move));
      const width = `${Math.max(3, Math.round(row.share * 100))}%`;
      const fill = bar.firstElementChild as HTMLElement;
      if (fill.style.width !== width) fill.style.width = width;
      setText(num, row.text);
    });
    setText(ui.note, statusMessageText(note));
    ui.note.hidden = !note;
  }

  // ------------------------------------------------------------------------------------- commands

  async run(command: Command): Promise<void> {
    const tabId = this.tabId;
    if (tabId === null) return;
    this.commandError = '';
    if (command === 'solve') this.solvePending = true;
    if (command === 'hint') this.hintPending = true;
    this.render();
    try {
      const reply = await send('popup/command', { tabId, command });
      if (this.tabId !== tabId) return;
      if (reply.status && (!this.status || reply.status.updatedAt >= this.status.updatedAt)) this.status = reply.status;
      if (command === 'hint' && reply.hint) this.shownHint = { choice: reply.hint, moves: this.status?.moves ?? 0 };
    } catch (err) {
      this.commandError = err instanceof DeliveryError && err.status ? statusMessageText(err.status) : err instanceof Error ? err.message : String(err);
    } finally {
      if (command === 'solve') this.solvePending = false;
      if (command === 'hint') this.hintPending = false;
      this.render();
    }
  }

  // ------------------------------------------------------------------------- permission, shortcuts

  /** Show the permission prompt: what to allow, and a button that asks the browser for `origins`. */
  private askFor(text: string, label: string, origins: string[]): void {
    this.ui.permissionText.textContent = text;
    this.ui.allow.textContent = label;
    this.ui.permission.hidden = false;
    // permissions.request must run in the click itself (a user gesture), before anything is awaited.
    this.ui.allow.onclick = () => {
      browser.permissions.request({ origins }).then(
        (ok) => {
          if (!ok) this.commandError = t('errPermissionDenied');
          else if (this.commandError === t('errPermissionDenied')) this.commandError = '';
          this.render();
          void this.checkPermission();
        },
        (err: unknown) => {
          this.commandError = err instanceof Error ? err.message : String(err);
          this.render();
        },
      );
    };
  }

  /**
   * Host access: first the sites the build declares (the manifest's host permissions: Chrome grants them
   * at install, Firefox lets the user grant or withhold them; the store builds declare none, the test
   * builds the loopback hosts), then the tab's own site (an optional permission, asked for per site).
   */
  private async checkPermission(): Promise<void> {
    const tabId = this.tabId;
    if (tabId === null) return;
    const declared = browser.runtime.getManifest().host_permissions ?? [];
    if (declared.length > 0 && !(await browser.permissions.contains({ origins: declared }))) {
      if (this.tabId !== tabId) return;
      this.askFor(t('permissionDeclaredText', permissionHosts(declared).join(', ')), t('permissionDeclaredAllow'), declared);
      return;
    }
    let url: string | undefined;
    try {
      url = (await browser.tabs.get(tabId)).url;
    } catch {
      url = undefined;
    }
    const pattern = originPattern(url);
    const granted = !pattern || (await browser.permissions.contains({ origins: [pattern] }));
    if (this.tabId !== tabId) return;
    if (!pattern || granted) {
      this.ui.permission.hidden = true;
      return;
    }
    this.askFor(t('permissionText'), t('permissionAllow'), [pattern]);
  }
}
