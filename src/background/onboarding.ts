/**
 * The background's part of the first run and of updates (the decisions are src/shared/onboarding.ts):
 * on the first install, open the welcome page once; after an update to a newer version, leave the note
 * the popup shows. Registered at the background's top level, as `runtime.onInstalled` requires.
 */
import { UPDATE_NOTE_STORAGE_KEY, WELCOME_PAGE, WELCOME_STORAGE_KEY, installedEffect, readUpdateNote } from '../shared/onboarding';
import type { InstalledDetails } from '../shared/onboarding';
import { browser } from '../platform/runtime';

async function onInstalled(details: InstalledDetails): Promise<void> {
  const version = browser.runtime.getManifest().version;
  const stored = await browser.storage.local.get([WELCOME_STORAGE_KEY, UPDATE_NOTE_STORAGE_KEY]);
  const effect = installedEffect(details, version, stored[WELCOME_STORAGE_KEY] !== undefined, readUpdateNote(stored[UPDATE_NOTE_STORAGE_KEY]));
  if (effect.note) await browser.storage.local.set({ [UPDATE_NOTE_STORAGE_KEY]: effect.note });
  if (effect.openWelcome) {
    // Marked first: a second install event (a reloaded temporary add-on) finds the mark and opens nothing.
    await browser.storage.local.set({ [WELCOME_STORAGE_KEY]: { at: Date.now(), version } });
    await browser.tabs.create({ url: browser.runtime.getURL(WELCOME_PAGE) });
  }
}

/** Listen for installs and updates (call once, at the background's top level). */
export function listenForInstalls(): void {
  browser.runtime.onInstalled.addListener((details) => {
    onInstalled(details).catch(() => undefined);
  });
}
