import { describe, expect, it } from 'vitest';
import { installedEffect, noteToShow, readUpdateNote } from '../../../src/shared/onboarding';
import { compareVersions, parseVersion, shortVersion } from '../../../src/shared/version';

describe('versions', () => {
  it('parses MAJOR.MINOR.PATCH only, and compares numerically', () => {
    expect(parseVersion('0.2.0')).toEqual({ major: 0, minor: 2, patch: 0 });
    for (const text of ['0.2', '1.2.3-beta', '01.2.3', 'v1.2.3', '']) expect(parseVersion(text), text).toBeNull();
    expect(compareVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.2.3', '1.3.0')).toBeLessThan(0);
    expect(() => compareVersions('1.2', '1.2.0')).toThrow(/Not a version: 1\.2/);
  });

  it('reads a version as a person does: without a .0 patch', () => {
    expect(shortVersion('0.2.0')).toBe('0.2');
    expect(shortVersion('1.4.2')).toBe('1.4.2');
    expect(shortVersion('odd')).toBe('odd');
  });
});

describe('what an install event does', () => {
  it('a first install opens the welcome page once', () => {
    expect(installedEffect({ reason: 'install' }, '0.2.0', false, null)).toEqual({ openWelcome: true, note: null });
    expect(installedEffect({ reason: 'install' }, '0.2.0', true, null)).toEqual({ openWelcome: false, note: null });
  });

  it('an update to a newer version leaves a note and opens nothing', () => {
    expect(installedEffect({ reason: 'update', previousVersion: '0.1.0' }, '0.2.0', true, null)).toEqual({ openWelcome: false, note: { version: '0.2.0', from: '0.1.0' } });
    // An update the welcome page never saw (installed before it existed) welcomes no one either.
    expect(installedEffect({ reason: 'update', previousVersion: '0.1.0' }, '0.2.0', false, null).openWelcome).toBe(false);
  });

  it('a second update before the note was read keeps where it started', () => {
    const pending = { version: '0.2.0', from: '0.1.0' };
    expect(installedEffect({ reason: 'update', previousVersion: '0.2.0' }, '0.3.0', true, pending).note).toEqual({ version: '0.3.0', from: '0.1.0' });
  });

  it('a reload of the same version, a downgrade, a browser update or a strange version says nothing', () => {
    for (const details of [
      { reason: 'update', previousVersion: '0.2.0' },
      { reason: 'update', previousVersion: '0.3.0' },
      { reason: 'update' },
      { reason: 'update', previousVersion: 'x' },
      { reason: 'chrome_update' },
      { reason: 'browser_update' },
      { reason: 'shared_module_update' },
    ]) {
      expect(installedEffect(details, '0.2.0', true, null), JSON.stringify(details)).toEqual({ openWelcome: false, note: null });
    }
  });
});

describe('the note the popup shows', () => {
  it('is the stored one when it is about the version installed now', () => {
    const note = { version: '0.2.0', from: '0.1.0' };
    expect(noteToShow(note, '0.2.0')).toEqual(note);
    expect(noteToShow(note, '0.3.0')).toBeNull();
    expect(noteToShow(undefined, '0.2.0')).toBeNull();
  });

  it('is never one that does not validate', () => {
    for (const stored of [{ version: '0.2', from: '0.1.0' }, { version: '0.2.0' }, 'note', 42, null]) expect(readUpdateNote(stored)).toBeNull();
  });
});
