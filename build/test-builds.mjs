// The test builds, after the store builds (npm run build:e2e runs npm run build first): dist-e2e/ and
// dist-e2e-firefox/ are dist/ and dist-firefox/ copied, their manifest given host access to the loopback
// addresses the end-to-end tests, the demo and the overhead benchmark serve their pages on (TEST_HOSTS).
// Nothing else differs: the store extension, byte for byte, is what the browser tests load (two more
// `vite build`s made the same files, 10–20 s of every npm test). The store builds and their zips never
// carry these hosts (tests/e2e/package.test.ts).
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Host access the test builds add: the loopback addresses the test pages are served on. */
const TEST_HOSTS = ['http://127.0.0.1/*', 'http://localhost/*'];

/** Each store build and its test build. */
const BUILDS = [
  { store: 'dist', test: 'dist-e2e' },
  { store: 'dist-firefox', test: 'dist-e2e-firefox' },
];

for (const { store, test } of BUILDS) {
  const from = join(ROOT, store);
  const to = join(ROOT, test);
  if (!existsSync(join(from, 'manifest.json'))) {
    console.error(`test-builds: ${store}/manifest.json not found: run npm run build first.`);
    process.exit(1);
  }
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(to, 'manifest.json'), 'utf8'));
  manifest.host_permissions = [...(manifest.host_permissions ?? []), ...TEST_HOSTS];
  writeFileSync(join(to, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
