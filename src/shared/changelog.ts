/**
 * CHANGELOG.md in Keep a Changelog form (https://keepachangelog.com/en/1.1.0/), as data (pure):
 *
 *   ## [Unreleased]                  (optional: changes not released yet)
 *   ## [0.2.0] - 2026-11-27          (one section per release, newest first)
 *   ### Added                        (groups: Added, Changed, Deprecated, Removed, Fixed, Security)
 *   - what changed, for the people who use it
 *
 * Read by the release check (build/release-check.ts: the version has its section) and by the release notes
 * page (src/ui/welcome/document.ts: each release's heading gets an anchor the popup's update line links to).
 */
import { parseMarkdown, plainText } from './markdown';
import type { Block, Inline } from './markdown';
import { parseVersion } from './version';

export const CHANGE_GROUPS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'] as const;

interface ChangelogGroup {
  readonly title: string;
  readonly items: readonly (readonly Inline[])[];
}

export interface ChangelogSection {
  /** "0.2.0", or "Unreleased". */
  readonly version: string;
  /** "2026-11-27", or null (Unreleased, or a heading without a date). */
  readonly date: string | null;
  readonly groups: readonly ChangelogGroup[];
  /** Paragraphs and lists outside a `###` group. */
  readonly loose: readonly Block[];
}

/** `[0.2.0] - 2026-11-27`, `0.2.0 - 2026-11-27`, `[Unreleased]`. */
const RELEASE_HEADING = /^\[?([^\]\s]+)\]?(?:\s+[-–—]\s+(\d{4}-\d{2}-\d{2}))?$/;

/** The anchor of a release's section on the notes page: "v0.2.0". */
export function releaseAnchor(version: string): string {
  return `v${version}`;
}

/** A `## ` heading's version and date, or null when it is no release heading. */
export function releaseHeading(text: string): { version: string; date: string | null } | null {
  const match = RELEASE_HEADING.exec(text.trim());
  if (!match) return null;
  const version = match[1];
  if (version !== 'Unreleased' && parseVersion(version) === null) return null;
  return { version, date: match[2] ?? null };
}

/** Every `## ` section of the changelog, in the order written. */
export function parseChangelog(source: string): ChangelogSection[] {
  const sections: { version: string; date: string | null; groups: { title: string; items: (readonly Inline[])[] }[]; loose: Block[] }[] = [];
  for (const block of parseMarkdown(source)) {
    const current = sections.at(-1);
    if (block.kind === 'heading' && block.level <= 2) {
      const release = block.level === 2 ? releaseHeading(block.text) : null;
      if (release) sections.push({ ...release, groups: [], loose: [] });
      continue;
    }
    if (!current) continue;
    if (block.kind === 'heading') {
      current.groups.push({ title: plainText(block.inline), items: [] });
    } else if (block.kind === 'list' && current.groups.length > 0) {
      current.groups[current.groups.length - 1].items.push(...block.items);
    } else {
      current.loose.push(block);
    }
  }
  return sections;
}
