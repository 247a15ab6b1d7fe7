/**
 * What the builds contain (runs after `npm run build` and `npm run build:e2e`, no browser):
 * the store packages (dist/, dist-firefox/ and both release/*.zip) carry no test-only host; the test builds
 * (dist-e2e/, dist-e2e-firefox/) are the same extensions plus the loopback hosts; no build names a standing host.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/harness';

const LOOPBACK = /127\.0\.0\.1|localhost/;

interface BuiltManifest {
  host_permissions?: string[];
  optional_host_permissions?: string[];
  permissions?: string[];
}

function manifestOf(dir: string): BuiltManifest {
  return JSON.parse(readFileSync(join(REPO_ROOT, dir, 'manifest.json'), 'utf8')) as BuiltManifest;
}

function releaseZip(browser: 'chrome' | 'firefox'): string {
  const dir = join(REPO_ROOT, 'release');
  const zips = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.zip')) : [];
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  const name = `2048-autopilot-${version}-${browser}.zip`;
  expect(zips).toContain(name);
  return join(dir, name);
}

/** Each store build and its test build. */
const BUILDS = [
  { browser: 'chrome', store: 'dist', test: 'dist-e2e' },
  { browser: 'firefox', store: 'dist-firefox', test: 'dist-e2e-firefox' },
] as const;

describe.each(BUILDS)('the $browser store package', ({ browser, store }) => {
  it(`${store}/manifest.json has no loopback host and no standing host access`, () => {
    const manifest = manifestOf(store);
    expect(JSON.stringify(manifest)).not.toMatch(LOOPBACK);
    expect(manifest.host_permissions ?? []).toEqual([]);
    expect(manifest.permissions).toContain('activeTab');
  });

  it(`the ${browser} release zip has no loopback host in any file`, () => {
    const files = unzipSync(readFileSync(releaseZip(browser)));
    expect(Object.keys(files)).toContain('manifest.json');
    for (const [name, bytes] of Object.entries(files)) {
      if (!/\.(json|js|html|css)$/.test(name)) continue;
      expect(`${name}: ${LOOPBACK.test(strFromU8(bytes)) ? 'has a loopback host' : 'clean'}`).toBe(`${name}: clean`);
    }
  });
});

/** The stores' limit this project keeps to (issues 33 and 39): each release zip at most 64 MiB, the network (two stages) included. */
const MAX_ZIP_BYTES = 64 * 2 ** 20;

describe.each(BUILDS)('the $browser release zip', ({ browser }) => {
  it('carries the learned network, stored as it is (already compressed), and stays within 64 MiB', () => {
    const zip = readFileSync(releaseZip(browser));
    expect(zip.length).toBeLessThanOrEqual(MAX_ZIP_BYTES);
    const files = unzipSync(zip);
    const networks = Object.keys(files).filter((name) => /^assets\/4x6-[\w-]+\.ntn$/.test(name));
    expect(networks).toHaveLength(1);
    expect(Buffer.from(files[networks[0]]).equals(readFileSync(join(REPO_ROOT, 'models/4x6.ntn')))).toBe(true);
  });
});

describe('the main world', () => {
  it('has no file of its own in the builds (the agent is a function injected with its arguments)', () => {
    for (const dir of BUILDS.flatMap((b) => [b.store, b.test])) expect(existsSync(join(REPO_ROOT, dir, 'src/page/main-world.js'))).toBe(false);
  });
});

describe.each(BUILDS)('the $browser test build', ({ store: storeDir, test: testDir }) => {
  it(`${testDir}/ is the store extension plus the loopback hosts`, () => {
    const store = manifestOf(storeDir);
    const test = manifestOf(testDir);
    expect(test.host_permissions).toEqual([...(store.host_permissions ?? []), 'http://127.0.0.1/*', 'http://localhost/*']);
    const { host_permissions: _a, ...storeRest } = store;
    const { host_permissions: _b, ...testRest } = test;
    expect(testRest).toEqual(storeRest);
  });
});
