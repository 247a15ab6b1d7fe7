/**
 * Build of the extension (vite + @crxjs/vite-plugin): dist/ is the unpacked extension.
 *
 * - The manifest is the plain manifest.json.
 * - The content script and the MAIN-world script are injected on demand by the background
 *   (chrome.scripting.executeScript({files})); the background imports them with `?script`, and
 *   `standaloneFiles` makes each one self-contained classic script (IIFE, no imports).
 * - The offscreen document is not named in the manifest: it is an extra build input. Its solver workers
 *   are ES-module workers (`new Worker(new URL(...), {type: 'module'})`).
 * - `vite build --mode firefox` builds the Firefox variant into dist-firefox/ from the manifest that
 *   scripts/firefox-manifest.ts derives (an event page instead of the service worker, a gecko id, no
 *   offscreen permission); crxjs's `browser: 'firefox'` emits the background loader for it. The
 *   `__EXTENSION_BROWSER__` constant tells src/platform/runtime.ts which browser the build is for; the
 *   Firefox build has no offscreen document (its background event page hosts the solver).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import type { ManifestV3Export } from '@crxjs/vite-plugin';
import manifest from './manifest.json';
import { firefoxManifest } from './scripts/firefox-manifest';
import { noStringEvaluation } from './scripts/vite-no-eval';

const INJECTED_SCRIPTS = ['src/content/index.ts', 'src/page/main-world.ts'];

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

/**
 * Web Workers have no extension API: the solver worker imports the protocol module for its schemas, and
 * webextension-polyfill would refuse to load there, so workers get the stand-in (scripts/no-browser.ts).
 */
function noBrowserInWorkers(): Plugin {
  return {
    name: 'no-browser-in-workers',
    enforce: 'pre',
    resolveId(id) {
      return id === 'webextension-polyfill' ? resolve('scripts/no-browser.ts') : null;
    },
  };
}

/** What differs between the Chrome build (`dist/`) and the Firefox build (`dist-firefox/`, mode "firefox"). */
function browserTarget(mode: string): {
  browser: 'chrome' | 'firefox';
  manifest: object;
  outDir: string;
  target: string;
  pages: Record<string, string>;
} {
  return mode === 'firefox'
    ? { browser: 'firefox', manifest: firefoxManifest(manifest), outDir: 'dist-firefox', target: 'firefox128', pages: {} }
    : { browser: 'chrome', manifest, outDir: 'dist', target: 'chrome116', pages: { offscreen: 'src/offscreen/offscreen.html' } };
}

export default defineConfig(({ mode }) => {
  const target = browserTarget(mode);
  return {
    plugins: [
      noStringEvaluation(),
      crx({
        manifest: target.manifest as ManifestV3Export,
        browser: target.browser,
        contentScripts: { standaloneFiles: INJECTED_SCRIPTS },
      }),
      keepInjectedScriptsPrivate(),
    ],
    build: {
      outDir: target.outDir,
      emptyOutDir: true,
      target: target.target,
      sourcemap: false,
      rolldownOptions: {
        // Pages the manifest does not name: Chrome's offscreen solver host (Firefox needs none).
        input: target.pages,
      },
    },
    // The browser the build is for, read by src/platform/runtime.ts only.
    define: { __EXTENSION_BROWSER__: JSON.stringify(target.browser) },
    worker: {
      format: 'es',
      plugins: () => [noStringEvaluation(), noBrowserInWorkers()],
    },
    server: { port: 5173, strictPort: true, hmr: { port: 5173 } },
  };
});
