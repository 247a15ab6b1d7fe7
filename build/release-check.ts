/**
 * Whether the tree may be released (pure, unit-tested; `npm run release` runs it first, build/release.ts):
 *
 * - package.json's version (the one place it is written: vite.config.ts copies it into both manifests)
 *   is MAJOR.MINOR.PATCH and newer than the last release: the highest `vX.Y.Z` tag that is not on the
 *   commit being released (so the release commit itself can be rebuilt), or, before the first tag, the
 *   newest released section of CHANGELOG.md below this version's;
 * - CHANGELOG.md has this version's section, `## [X.Y.Z] - YYYY-MM-DD`, as its newest release, saying
 *   what changed in Keep a Changelog's groups (Added, Changed, Deprecated, Removed, Fixed, Security).
 */
import { CHANGE_GROUPS, parseChangelog } from '../src/shared/changelog';
import { compareVersions, parseVersion } from '../src/shared/version';

export interface ReleaseFacts {
  /** package.json's version. */
  readonly version: string;
  /** The names of the repository's tags that are not on the commit being released (any names: others are ignored). */
  readonly earlierTags: readonly string[];
  /** CHANGELOG.md's text, or null when the file is missing. */
  readonly changelog: string | null;
}

const TAG = /^v(\d+\.\d+\.\d+)$/;

/** The version of the last release: the highest version tag, else the newest changelog release below `version`. */
export function lastRelease(facts: ReleaseFacts): string | null {
  const tagged = facts.earlierTags.flatMap((tag) => {
    const version = TAG.exec(tag)?.[1];
    return version && parseVersion(version) ? [version] : [];
  });
  const candidates =
    tagged.length > 0
      ? tagged
      : parseChangelog(facts.changelog ?? '')
          .map((section) => section.version)
          .filter((v) => parseVersion(v) !== null && v !== facts.version);
  return candidates.reduce<string | null>((best, v) => (best === null || compareVersions(v, best) > 0 ? v : best), null);
}

/** Why the tree may not be released: an empty list when it may. */
export function releaseProblems(facts: ReleaseFacts): string[] {
  const { version } = facts;
  if (parseVersion(version) === null) return [`package.json's version "${version}" is not MAJOR.MINOR.PATCH.`];
  const problems: string[] = [];
  const last = lastRelease(facts);
  if (last !== null && compareVersions(version, last) === 0) {
    problems.push(`The version is still ${version}, the last release's: bump it in package.json (e.g. npm version minor --no-git-tag-version).`);
  } else if (last !== null && compareVersions(version, last) < 0) {
    problems.push(`The version ${version} is older than the last release, ${last}.`);
  }
  if (facts.changelog === null) return [...problems, 'CHANGELOG.md is missing.'];
  const sections = parseChangelog(facts.changelog);
  const section = sections.find((s) => s.version === version);
  if (!section) {
    problems.push(`CHANGELOG.md has no section for ${version}: add "## [${version}] - YYYY-MM-DD" with what changed.`);
    return problems;
  }
  if (section.date === null) problems.push(`CHANGELOG.md's section for ${version} has no date ("## [${version}] - YYYY-MM-DD").`);
  const newest = sections.find((s) => s.version !== 'Unreleased');
  if (newest !== section) problems.push(`CHANGELOG.md's newest release is ${newest?.version}, not ${version}: the newest goes first.`);
  const unknown = section.groups.filter((g) => !(CHANGE_GROUPS as readonly string[]).includes(g.title)).map((g) => g.title);
  if (unknown.length > 0) problems.push(`CHANGELOG.md's section for ${version} has groups Keep a Changelog does not name: ${unknown.join(', ')}.`);
  if (section.groups.every((g) => g.items.length === 0)) problems.push(`CHANGELOG.md's section for ${version} lists no change.`);
  return problems;
}
