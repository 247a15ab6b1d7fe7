/**
 * Installs and updates, for the welcome and update-note tests of both browser tiers: a copy of a built
 * extension whose version the test sets (an older one to install, then the real one as the update), and
 * what the pages must say.
 */
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseVersion, shortVersion } from '../../src/shared/version';
import { REPO_ROOT } from './common';

/** The version package.json gives the builds (the version an update brings in these tests). */
export const CURRENT_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** A version older than `version` ("0.2.0" → "0.1.0", "1.0.3" → "1.0.2", "1.0.0" → "0.9.0"). */
function olderVersion(version: string): string {
  const v = parseVersion(version);
  if (!v) throw new Error(`Not a version: ${version}`);
  if (v.patch > 0) return `${v.major}.${v.minor}.${v.patch - 1}`;
  if (v.minor > 0) return `${v.major}.${v.minor - 1}.0`;
  if (v.major > 0) return `${v.major - 1}.9.0`;
  throw new Error('0.0.0 has no older version');
}

/** The version installed first, the one the update leaves. */
export const PREVIOUS_VERSION = olderVersion(CURRENT_VERSION);

/** The popup's update line after the update (src/ui/update-note.ts, English). */
export const UPDATE_LINE = `Updated to ${shortVersion(CURRENT_VERSION)} — what's new`;

/** The welcome page's and the documents page's paths in the package (src/shared/onboarding.ts), and the pages that link them. */
export const WELCOME_PATH = 'src/ui/welcome/index.html';
export const DOCUMENT_PATH = 'src/ui/welcome/document.html';
export const POPUP_PATH = 'src/ui/popup/index.html';
export const PANEL_PATH = 'src/ui/panel/index.html';

/** A copy of the built extension `dir` in a temporary folder, with `version` in its manifest. */
export function extensionCopy(dir: string, version: string): { dir: string; remove(): void } {
  const copy = mkdtempSync(join(tmpdir(), '2048-autopilot-install-'));
  cpSync(dir, copy, { recursive: true });
  setVersion(copy, version);
  return { dir: copy, remove: () => rmSync(copy, { recursive: true, force: true }) };
}

/**
 * Write `version` into the manifest of the extension in `dir`, as an update replaces the files: the manifest
 * is a new file and the folder's time moves on (Firefox looks at the time to notice a changed add-on).
 */
export function setVersion(dir: string, version: string): void {
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { version: string };
  writeFileSync(`${path}.new`, `${JSON.stringify({ ...manifest, version }, null, 2)}\n`);
  renameSync(`${path}.new`, path);
  const later = new Date(Date.now() + 2_000);
  utimesSync(path, later, later);
  utimesSync(dir, later, later);
}

/**
 * Runs in the popup (self-contained: both drivers serialize it): its update line, hidden or not, and the
 * link's words.
 */
export function updateLine(): { hidden: boolean; link: string } {
  const line = document.getElementById('update-note') as HTMLElement;
  return { hidden: line.hidden, link: line.querySelector('a')?.textContent ?? '' };
}

/**
 * How long a test waits for a page that must not open (a second welcome page): the install event comes as
 * the background starts, before the test's first look.
 */
export const SETTLE_MS = 700;
