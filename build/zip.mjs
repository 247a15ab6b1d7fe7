// Packs each built extension into a store-ready zip with manifest.json at the root of the archive:
// dist/ → release/2048-autopilot-<version>-chrome.zip (Chrome Web Store) and
// dist-firefox/ → release/2048-autopilot-<version>-firefox.zip (addons.mozilla.org).
// Run by `npm run build` after both `vite build`s.
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RELEASE = join(ROOT, 'release');
const BUILDS = [
  { dir: join(ROOT, 'dist'), browser: 'chrome' },
  { dir: join(ROOT, 'dist-firefox'), browser: 'firefox' },
];

/** Every file under `dir`, sorted, as paths relative to `base` with forward slashes. */
function listFiles(dir, base = dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path, base));
    else out.push(relative(base, path).split(sep).join('/'));
  }
  return out;
}

/** The stores' limit this project keeps to (issues 33 and 39; tests/e2e/package.test.ts checks it too). */
const MAX_ZIP_BYTES = 64 * 2 ** 20;

// A fixed timestamp keeps the archive reproducible for the same build.
const mtime = new Date('2024-01-01T00:00:00Z');
mkdirSync(RELEASE, { recursive: true });
for (const { dir, browser } of BUILDS) {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const files = listFiles(dir).filter((file) => !file.endsWith('.map') && !file.startsWith('.vite/'));
  // The network file is zlib-compressed already: stored as it is (deflating it again gains nothing and takes long).
  const entries = Object.fromEntries(files.map((file) => [file, [readFileSync(join(dir, file)), { mtime, ...(file.endsWith('.ntn') ? { level: 0 } : {}) }]]));
  const zipped = zipSync(entries, { level: 9 });
  const out = join(RELEASE, `2048-autopilot-${manifest.version}-${browser}.zip`);
  writeFileSync(out, zipped);
  console.log(`${relative(ROOT, out)}: ${files.length} files, ${(zipped.length / 1024).toFixed(1)} KiB (${(zipped.length / 2 ** 20).toFixed(1)} MiB)`);
  if (zipped.length > MAX_ZIP_BYTES) {
    console.error(`${relative(ROOT, out)} is over the ${MAX_ZIP_BYTES / 2 ** 20} MiB the stores allow this project: a smaller network is needed.`);
    process.exitCode = 1;
  }
}
