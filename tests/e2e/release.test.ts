/**
 * What `npm run release` packs, without a browser (after `npm run build`): both builds carry package.json's
 * version (the one place it is written), and the source package for addons.mozilla.org's review holds the
 * sources, the lock file and the build instructions at its root, and nothing built.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sourceZip } from '../../build/release';
import { REPO_ROOT } from './support/harness';

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

describe('a release', () => {
  it("both builds carry package.json's version", () => {
    for (const dir of ['dist', 'dist-firefox', 'dist-e2e', 'dist-e2e-firefox']) {
      expect(JSON.parse(readFileSync(join(REPO_ROOT, dir, 'manifest.json'), 'utf8')).version, dir).toBe(version);
    }
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'manifest.json'), 'utf8')).version).toBeUndefined();
  });

  it('the source package has what a reviewer builds from, the instructions at its root, and nothing built', () => {
    const files = unzipSync(sourceZip(REPO_ROOT).bytes);
    const names = Object.keys(files);
    for (const needed of ['REVIEWERS.md', 'package.json', 'package-lock.json', 'manifest.json', 'vite.config.ts', 'build/build-wasm.mjs', 'src/ui/welcome/index.html', 'public/_locales/en/messages.json', 'LICENSE']) {
      expect(names).toContain(needed);
    }
    expect(names.filter((name) => /^(node_modules|dist[^/]*|release)\//.test(name))).toEqual([]);
    const instructions = strFromU8(files['REVIEWERS.md']);
    expect(instructions).toContain('npm ci');
    expect(instructions).toContain('npm run build');
    expect(instructions).toContain('dist-firefox/');
  });
});
