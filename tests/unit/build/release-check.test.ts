import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lastRelease, releaseProblems } from '../../../build/release-check';

const CHANGELOG = `# Changelog

## [Unreleased]

## [0.3.0] - 2026-12-01

### Added

- Something new.

### Fixed

- Something old.

## [0.2.0] - 2026-11-27

### Added

- The welcome page.
`;

describe('the release check', () => {
  it('passes a bumped version whose section is the newest release', () => {
    expect(releaseProblems({ version: '0.3.0', earlierTags: ['v0.2.0'], changelog: CHANGELOG })).toEqual([]);
  });

  it('refuses an unchanged version (the last tag)', () => {
    expect(releaseProblems({ version: '0.2.0', earlierTags: ['v0.1.0', 'v0.2.0'], changelog: CHANGELOG })).toEqual([
      expect.stringMatching(/still 0\.2\.0, the last release's: bump it/),
      expect.stringMatching(/newest release is 0\.3\.0, not 0\.2\.0/),
    ]);
  });

  it('refuses a version older than the last release', () => {
    expect(releaseProblems({ version: '0.3.0', earlierTags: ['v1.0.0'], changelog: CHANGELOG })).toEqual([expect.stringMatching(/older than the last release, 1\.0\.0/)]);
  });

  it('refuses a missing section, or a missing file', () => {
    expect(releaseProblems({ version: '0.4.0', earlierTags: ['v0.3.0'], changelog: CHANGELOG })).toEqual([
      'CHANGELOG.md has no section for 0.4.0: add "## [0.4.0] - YYYY-MM-DD" with what changed.',
    ]);
    expect(releaseProblems({ version: '0.4.0', earlierTags: [], changelog: null })).toEqual(['CHANGELOG.md is missing.']);
  });

  it('refuses a section without a date, without a change, or with groups Keep a Changelog does not name', () => {
    const undated = '## [0.4.0]\n\n### Added\n\n- x\n';
    expect(releaseProblems({ version: '0.4.0', earlierTags: [], changelog: undated })).toEqual([expect.stringMatching(/no date/)]);
    const empty = '## [0.4.0] - 2026-12-02\n\nNothing yet.\n';
    expect(releaseProblems({ version: '0.4.0', earlierTags: [], changelog: empty })).toEqual([expect.stringMatching(/lists no change/)]);
    const odd = '## [0.4.0] - 2026-12-02\n\n### Improvements\n\n- x\n';
    expect(releaseProblems({ version: '0.4.0', earlierTags: [], changelog: odd })).toEqual([expect.stringMatching(/groups Keep a Changelog does not name: Improvements/)]);
  });

  it('refuses a version that is not MAJOR.MINOR.PATCH', () => {
    expect(releaseProblems({ version: '0.4', earlierTags: [], changelog: CHANGELOG })).toEqual([expect.stringMatching(/not MAJOR\.MINOR\.PATCH/)]);
  });

  it('takes the last release from the highest version tag, else from the changelog below this version', () => {
    expect(lastRelease({ version: '0.3.0', earlierTags: ['v0.1.0', 'v0.10.0', 'v0.9.1', 'nightly', 'v1.0'], changelog: CHANGELOG })).toBe('0.10.0');
    expect(lastRelease({ version: '0.3.0', earlierTags: [], changelog: CHANGELOG })).toBe('0.2.0');
    expect(lastRelease({ version: '0.3.0', earlierTags: [], changelog: '## [0.3.0] - 2026-12-01\n\n### Added\n\n- x\n' })).toBeNull();
  });

  it("passes the repository's own package.json and CHANGELOG.md before the first tag", () => {
    const root = new URL('../../../', import.meta.url);
    const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
    expect(releaseProblems({ version, earlierTags: [], changelog: readFileSync(new URL('CHANGELOG.md', root), 'utf8') })).toEqual([]);
  });
});
