/**
 * A copy of a built extension whose packaged network (assets/4x6-<hash>.ntn) is corrupt or missing, for the
 * browser tests of the fallback: the production build stays as it is, the test damages its own copy.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The packaged network's file name in `extensionDir`'s assets (exactly one). */
function networkAsset(extensionDir: string): string {
  const found = readdirSync(join(extensionDir, 'assets')).filter((name) => name.endsWith('.ntn'));
  if (found.length !== 1) throw new Error(`${extensionDir}/assets holds ${found.length} network files, expected 1`);
  return found[0];
}

export interface DamagedBuild {
  readonly dir: string;
  remove(): void;
}

/**
 * Copy `extensionDir` and damage its network: `corrupt` flips bytes in its weights (the header stays valid, so
 * the decoder gets as far as the checksum), `missing` deletes it.
 */
export function buildWithDamagedNetwork(extensionDir: string, damage: 'corrupt' | 'missing'): DamagedBuild {
  const dir = mkdtempSync(join(tmpdir(), `2048-autopilot-${damage}-network-`));
  cpSync(extensionDir, dir, { recursive: true });
  const file = join(dir, 'assets', networkAsset(dir));
  if (damage === 'missing') unlinkSync(file);
  else {
    const bytes = readFileSync(file);
    for (let at = bytes.length - 4096; at < bytes.length; at += 512) bytes[at] ^= 0x5a;
    writeFileSync(file, bytes);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
