/**
 * What each page and script of the Chrome build loads (`npm run build` first): the entry, every chunk it
 * imports statically (followed through the chunks), its stylesheets and modulepreloads, raw and gzip.
 *
 *   npx tsx bench/bundle-sizes.ts [--dir dist]
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseCommandLine } from '../src/cli/args';

const dist = resolve(parseCommandLine(process.argv.slice(2), { dir: { type: 'string' } }).string('dir') ?? 'dist');
if (!existsSync(join(dist, 'manifest.json'))) {
  console.error(`bundle-sizes: no build in ${dist} (run npm run build)`);
  process.exit(1);
}

/** Files a script imports statically: `import ... from "./x.js"`, `import "./x.js"`, `export ... from`. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)) found.add(resolve(dirname(file), match[1]));
  return [...found];
}

function closure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    if (file.endsWith('.js')) todo.push(...imports(file));
  }
  return seen;
}

function fromHtml(page: string): string[] {
  const html = readFileSync(join(dist, page), 'utf8');
  return [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => (m[1].startsWith('/') ? join(dist, m[1]) : resolve(dirname(join(dist, page)), m[1])));
}

const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8')) as { background?: { service_worker?: string } };
const assets = join(dist, 'assets');
const worker = (name: RegExp): string[] =>
  existsSync(assets)
    ? readdirSync(assets)
        .filter((file) => name.test(file))
        .map((file) => join(assets, file))
    : [];
const targets: [string, string[]][] = [
  ['popup', fromHtml('src/ui/popup/index.html')],
  ['side panel', fromHtml('src/ui/panel/index.html')],
  ['offscreen solver host', fromHtml('src/offscreen/offscreen.html')],
  ['service worker', manifest.background?.service_worker ? [join(dist, manifest.background.service_worker)] : []],
  ['content script', [join(dist, 'src/content/index.js')]],
  ['solver worker', worker(/^worker-(?!pool-).*\.js$/)],
];
const kib = (n: number): string => `${Math.round(n / 1024)} KiB`;
for (const [name, entries] of targets) {
  const files = closure(entries);
  let raw = 0;
  let gz = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gz += gzipSync(bytes).length;
  }
  console.log(`${name.padEnd(22)} ${kib(raw).padStart(8)} (${kib(gz)} gzip), ${files.size} files`);
}
