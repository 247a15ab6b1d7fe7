/**
 * The popup's update line: after an update to a newer version (src/background/onboarding.ts leaves the
 * note), "Updated to 0.2 — what's new" links to the release notes; reading them (the link) or closing the
 * line (×) removes the note for good.
 */
import { UPDATE_NOTE_STORAGE_KEY, noteToShow } from '../shared/onboarding';
import { shortVersion } from '../shared/version';
import { browser } from '../platform/runtime';
import { t } from './i18n';
import { opensInTab, releaseNotesUrl } from './pages';

/** Show the note in `line` (a hidden element with a link and a close button) if there is one for this version. */
export async function showUpdateNote(line: HTMLElement): Promise<void> {
  const version = browser.runtime.getManifest().version;
  const stored = (await browser.storage.local.get(UPDATE_NOTE_STORAGE_KEY))[UPDATE_NOTE_STORAGE_KEY];
  const note = noteToShow(stored, version);
  if (!note) return;
  const link = line.querySelector('a');
  const close = line.querySelector('button');
  if (!link || !close) return;
  const done = (): void => {
    line.hidden = true;
    void browser.storage.local.remove(UPDATE_NOTE_STORAGE_KEY);
  };
  link.textContent = t('updateNote', shortVersion(note.version));
  opensInTab(link, releaseNotesUrl(note.version), done);
  close.addEventListener('click', done);
  line.hidden = false;
}
