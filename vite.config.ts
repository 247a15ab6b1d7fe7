/**
 * Build of the extension (vite + @crxjs/vite-plugin): dist/ is the unpacked extension.
 *
 * - The manifest is the plain manifest.json.
 * - The content script is injected on demand by the background (chrome.scripting.executeScript({files}));
 *   the background imports it with `?script`, and `standaloneFiles` makes it one self-contained classic
 *   script (IIFE, no imports). The main-world agent is no file: a function injected with its arguments
 *   (src/background/inject.ts).
 * - The offscreen document is not named in the manifest: it is an extra build input. Its solver workers
 *   are ES-module workers (`new Worker(new URL(...), {type: 'module'})`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import type { ManifestV3Export } from '@crxjs/vite-plugin';
import manifest from './manifest.json';

/**
 * `vite build --mode e2e` (npm run build:e2e) writes dist-e2e/: the same extension plus host access to the
 * loopback addresses the end-to-end tests, the demo and the overhead benchmark serve their pages on.
 * The store build (dist/, release/*.zip) never carries them.
 */
export const TEST_HOSTS = ['http://127.0.0.1/*', 'http://localhost/*'];

function manifestFor(mode: string): ManifestV3Export {
  if (mode !== 'e2e') return manifest as ManifestV3Export;
  return { ...manifest, host_permissions: [...(manifest.host_permissions ?? []), ...TEST_HOSTS] } as ManifestV3Export;
}

// The main-world agent is not a file: it is a function injected with its arguments (src/background/inject.ts).
const INJECTED_SCRIPTS = ['src/content/index.ts'];

/**
 * crxjs lists `?script` files as web-accessible to every http(s) page. chrome.scripting.executeScript
 * does not need that, and it would let any page detect the extension: drop those entries.
 */
function keepInjectedScriptsPrivate(): Plugin {
  let outDir = 'dist';
  return {
    name: 'keep-injected-scripts-private',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const path = join(outDir, 'manifest.json');
      const built = JSON.parse(readFileSync(path, 'utf8')) as { web_accessible_resources?: { resources: string[] }[] };
      const injected = new Set(INJECTED_SCRIPTS.map((file) => file.replace(/\.ts$/, '.js')));
      const kept = (built.web_accessible_resources ?? [])
        .map((entry) => ({ ...entry, resources: entry.resources.filter((file) => !injected.has(file)) }))
        .filter((entry) => entry.resources.length > 0);
      if (kept.length > 0) built.web_accessible_resources = kept;
      else delete built.web_accessible_resources;
      writeFileSync(path, `${JSON.stringify(built, null, 2)}\n`);
    },
  };
}

export default defineConfig(({ mode }) => ({
  plugins: [
    crx({
      manifest: manifestFor(mode),
      contentScripts: { standaloneFiles: INJECTED_SCRIPTS },
    }),
    keepInjectedScriptsPrivate(),
  ],
  build: {
    outDir: mode === 'e2e' ? 'dist-e2e' : 'dist',
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: false,
    rolldownOptions: {
      input: {
        offscreen: 'src/offscreen/offscreen.html',
      },
    },
  },
  worker: {
    format: 'es',
  },
  server: { port: 5173, strictPort: true, hmr: { port: 5173 } },
}));
