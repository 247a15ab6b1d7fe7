import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsSchema, normalizeSettings } from '../../../src/shared/settings';

describe('normalizeSettings', () => {
  it('gives the defaults for nothing stored or junk', () => {
    expect(normalizeSettings(undefined)).toEqual(DEFAULT_SETTINGS);
    expect(normalizeSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(normalizeSettings('expectimax')).toEqual(DEFAULT_SETTINGS);
    expect(normalizeSettings([1, 2])).toEqual(DEFAULT_SETTINGS);
    // Names inherited from Object.prototype are not settings (found by the property test below).
    expect(normalizeSettings({ valueOf: [], toString: 1, constructor: 'x' })).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps every valid field and replaces each invalid one by its default', () => {
    const stored = { strategy: 'greedy', thinkMs: 250, pauseMs: -5, depth: 99, playouts: 500, continueAfterWin: 'yes', extra: 1 };
    expect(normalizeSettings(stored)).toEqual({
      ...DEFAULT_SETTINGS,
      strategy: 'greedy',
      thinkMs: 250,
      playouts: 500,
    });
  });

  it('accepts a fixed depth and null for the time budget', () => {
    expect(normalizeSettings({ depth: 3 }).depth).toBe(3);
    expect(normalizeSettings({ depth: null }).depth).toBeNull();
  });

  it('always returns valid settings, whatever is stored', () => {
    fc.assert(
      fc.property(fc.anything(), (stored) => {
        expect(SettingsSchema.safeParse(normalizeSettings(stored)).success).toBe(true);
      }),
    );
  });
});
