// Packs the built extension (dist/) into a store-ready zip: release/2048-autopilot-<version>.zip, with
// manifest.json at the root of the archive. Run by `npm run build` after `vite build`.
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const RELEASE = join(ROOT, 'release');

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

const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8'));
const files = listFiles(DIST).filter((file) => !file.endsWith('.map') && !file.startsWith('.vite/'));
// A fixed timestamp keeps the archive reproducible for the same build.
const mtime = new Date('2024-01-01T00:00:00Z');
const entries = Object.fromEntries(files.map((file) => [file, [readFileSync(join(DIST, file)), { mtime }]]));
const zipped = zipSync(entries, { level: 9 });
mkdirSync(RELEASE, { recursive: true });
const out = join(RELEASE, `2048-autopilot-${manifest.version}.zip`);
writeFileSync(out, zipped);
console.log(`${relative(ROOT, out)}: ${files.length} files, ${(zipped.length / 1024).toFixed(1)} KiB`);
