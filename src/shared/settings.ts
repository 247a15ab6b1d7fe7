/** User settings: defaults, validation and the storage key. Persisted in chrome.storage.local. */
import { z } from 'zod';
import { STRATEGY_NAMES } from '../engine/types';
import type { SearchOptions } from '../engine/types';

export const SETTINGS_STORAGE_KEY = 'settings';

export const SettingsSchema = z.object({
  strategy: z.enum(STRATEGY_NAMES),
  /** Think time per move, milliseconds (strategies with a time budget). */
  thinkMs: z.number().int().min(10).max(10_000),
  /** Pause between moves, milliseconds (0 = the speed "Fastest": the next key as soon as the page took the last). */
  pauseMs: z.number().int().min(0).max(5_000),
  /** Fixed search depth instead of a time budget (null = use thinkMs). */
  depth: z.number().int().min(1).max(8).nullable(),
  /** Monte-Carlo playouts per move. */
  playouts: z.number().int().min(1).max(100_000),
  /** At 2048: keep playing (click "keep playing") or stop. */
  continueAfterWin: z.boolean(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  strategy: 'expectimax',
  thinkMs: 100,
  pauseMs: 0,
  depth: null,
  playouts: 100,
  continueAfterWin: true,
};

/**
 * Settings from storage: whatever is stored is merged over the defaults field by field; a field that
 * does not validate falls back to its default (an old or hand-edited value never breaks the popup).
 */
export function normalizeSettings(stored: unknown): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  if (stored && typeof stored === 'object') {
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (!Object.hasOwn(SettingsSchema.shape, key)) continue;
      const field = SettingsSchema.shape[key as keyof Settings];
      const parsed = field.safeParse(value);
      if (parsed.success) out[key] = parsed.data;
    }
  }
  return SettingsSchema.parse(out);
}

/** The search options a run or the coach asks the solver for with `settings` (a fresh seed each time). */
export function searchOptionsOf(settings: Settings): SearchOptions {
  return {
    timeMs: settings.thinkMs,
    playouts: settings.playouts,
    seed: Math.floor(Math.random() * 0x7fffffff),
    ...(settings.depth !== null ? { depth: settings.depth } : {}),
  };
}
