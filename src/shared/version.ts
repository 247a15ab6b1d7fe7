/**
 * The extension's version numbers (pure): semantic versions `MAJOR.MINOR.PATCH`, as package.json, both
 * built manifests and CHANGELOG.md write them. Read by the background (what an update changed), the popup
 * (its update line) and the release check (build/release-check.ts).
 */

export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** `"1.2.3"` → its three numbers; null for anything else (no pre-release or build suffix: the stores take none). */
export function parseVersion(text: string): Version | null {
  const match = SEMVER.exec(text.trim());
  return match ? { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) } : null;
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. Throws on a text that is no version. */
export function compareVersions(a: string, b: string): number {
  const va = parseVersion(a);
  const vb = parseVersion(b);
  if (!va || !vb) throw new Error(`Not a version: ${va ? b : a}`);
  return va.major - vb.major || va.minor - vb.minor || va.patch - vb.patch;
}

/** How a person reads a version: "0.2.0" → "0.2", "1.4.2" → "1.4.2" (texts that are no version stay as they are). */
export function shortVersion(text: string): string {
  const v = parseVersion(text);
  if (!v) return text;
  return v.patch === 0 ? `${v.major}.${v.minor}` : `${v.major}.${v.minor}.${v.patch}`;
}
