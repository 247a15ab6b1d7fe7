/**
 * The settings of the shared controls (./controls.ts): strategy, think time, speed, depth, playouts and what to
 * do at 2048, shown as the stored settings (storage.local) have them, each change normalised and saved back.
 */
import { STRATEGIES } from '../engine/strategies/index';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, normalizeSettings } from '../shared/settings';
import type { Settings } from '../shared/settings';
import { browser } from '../platform/runtime';
import { settingsFields, strategyDescription, strategyLabel } from './status-view';
import { renderSpeed } from './speed';

/** The fields of the form (the popup's and the side panel's elements of the same ids). */
export interface SettingsFields {
  readonly strategy: HTMLSelectElement;
  readonly thinkField: HTMLElement;
  readonly think: HTMLInputElement;
  readonly pause: HTMLSelectElement;
  readonly depthField: HTMLElement;
  readonly depth: HTMLSelectElement;
  readonly playoutsField: HTMLElement;
  readonly playouts: HTMLInputElement;
  readonly at2048: HTMLSelectElement;
}

function clampInt(raw: string, min: number, max: number, fallback: number): number {
  const n = Math.round(Number(raw));
  if (raw.trim() === '' || !Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}

export class SettingsForm {
  private settings: Settings = DEFAULT_SETTINGS;

  constructor(private readonly ui: SettingsFields) {}

  /** Fill the strategy list and save every change of a field. */
  wire(): void {
    const { ui } = this;
    ui.strategy.replaceChildren(
      ...STRATEGIES.map((strategy) => {
        const option = document.createElement('option');
        option.value = strategy.name;
        option.textContent = strategyLabel(strategy.name);
        option.title = strategyDescription(strategy.name);
        return option;
      }),
    );
    ui.strategy.addEventListener('change', () => void this.save({ strategy: ui.strategy.value as Settings['strategy'] }));
    ui.think.addEventListener('change', () => void this.save({ thinkMs: clampInt(ui.think.value, 10, 10_000, this.settings.thinkMs) }));
    ui.pause.addEventListener('change', () => void this.save({ pauseMs: clampInt(ui.pause.value, 0, 5_000, this.settings.pauseMs) }));
    ui.depth.addEventListener('change', () => void this.save({ depth: ui.depth.value === '' ? null : clampInt(ui.depth.value, 1, 8, 3) }));
    ui.playouts.addEventListener('change', () =>
      void this.save({ playouts: clampInt(ui.playouts.value, 1, 100_000, this.settings.playouts) }),
    );
    ui.at2048.addEventListener('change', () => void this.save({ continueAfterWin: ui.at2048.value === 'keep' }));
  }

  /** Show the stored settings `raw` (normalised). */
  show(raw: unknown): void {
    this.settings = normalizeSettings(raw);
    this.render();
  }

  private async save(change: Partial<Settings>): Promise<void> {
    this.settings = normalizeSettings({ ...this.settings, ...change });
    this.render();
    await browser.storage.local.set({ [SETTINGS_STORAGE_KEY]: this.settings });
  }

  private render(): void {
    const { ui, settings } = this;
    ui.strategy.value = settings.strategy;
    ui.strategy.title = strategyDescription(settings.strategy);
    ui.think.value = String(settings.thinkMs);
    renderSpeed(ui.pause, settings.pauseMs);
    ui.depth.value = settings.depth === null ? '' : String(settings.depth);
    ui.playouts.value = String(settings.playouts);
    ui.at2048.value = settings.continueAfterWin ? 'keep' : 'stop';
    const fields = settingsFields(settings.strategy);
    ui.thinkField.hidden = !fields.think;
    ui.depthField.hidden = !fields.depth;
    ui.playoutsField.hidden = !fields.playouts;
  }
}
