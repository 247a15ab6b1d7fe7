/**
 * First run and updates, as pure decisions (no browser API): the welcome page opens once, on the first
 * install; an update to a newer version leaves a note that the popup shows as one line ("Updated to 0.2 —
 * what's new") until it is read or dismissed. src/background/onboarding.ts wires them to
 * `runtime.onInstalled`; src/ui/update-note.ts shows the note.
 *
 * Both marks live in storage.local, so they survive browser restarts and go with an uninstall (a new
 * install then welcomes again).
 */
import { z } from 'zod';
import { compareVersions, parseVersion } from './version';

/** The welcome page ("How it works"), a path inside the extension. */
export const WELCOME_PAGE = 'src/ui/welcome/index.html';
/** The page that shows CHANGELOG.md (`?doc=changelog`) or PRIVACY.md (`?doc=privacy`). */
export const DOCUMENT_PAGE = 'src/ui/welcome/document.html';

/** storage.local: when the welcome page was opened on install (its presence is what keeps it from opening twice). */
export const WELCOME_STORAGE_KEY = 'welcomed';
/** storage.local: the update the popup has not told about yet. */
export const UPDATE_NOTE_STORAGE_KEY = 'updateNote';

const UpdateNoteSchema = z.object({
  /** The version installed now. */
  version: z.string().refine((v) => parseVersion(v) !== null),
  /** The version before the first update the person has not been told about. */
  from: z.string().refine((v) => parseVersion(v) !== null),
});
export type UpdateNote = z.infer<typeof UpdateNoteSchema>;

/** What `runtime.onInstalled` reports (both browsers; Firefox adds `temporary`). */
export interface InstalledDetails {
  readonly reason: string;
  readonly previousVersion?: string;
}

export interface InstalledEffect {
  /** Open the welcome page (and remember that it was opened). */
  readonly openWelcome: boolean;
  /** The note to store for the popup, or null to leave the stored one as it is. */
  readonly note: UpdateNote | null;
}

/** A stored note, or null when there is none or it does not validate. */
export function readUpdateNote(stored: unknown): UpdateNote | null {
  const parsed = UpdateNoteSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * What an install event does. `welcomed`: the welcome page was opened before (a browser that reports an
 * install again, as a reloaded temporary add-on can, does not open it twice). `pending`: the note not read
 * yet, if any: a second update before it was read keeps its `from`, so the notes cover both.
 *
 * Only a first install welcomes; only an update to a newer version leaves a note (a reload of the same
 * version, a downgrade or a browser update says nothing).
 */
export function installedEffect(details: InstalledDetails, version: string, welcomed: boolean, pending: UpdateNote | null): InstalledEffect {
  if (details.reason === 'install') return { openWelcome: !welcomed, note: null };
  if (details.reason !== 'update' || !details.previousVersion) return { openWelcome: false, note: null };
  let newer: boolean;
  try {
    newer = compareVersions(version, details.previousVersion) > 0;
  } catch {
    return { openWelcome: false, note: null };
  }
  if (!newer) return { openWelcome: false, note: null };
  return { openWelcome: false, note: { version, from: pending?.from ?? details.previousVersion } };
}

/** The note the popup should show now: the stored one when it is about the version installed now. */
export function noteToShow(stored: unknown, version: string): UpdateNote | null {
  const note = readUpdateNote(stored);
  return note && note.version === version ? note : null;
}
