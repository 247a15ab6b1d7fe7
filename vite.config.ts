/**
 * Build of the extension (vite + @crxjs/vite-plugin): dist/ is the unpacked extension.
 *
 * - The manifest is the plain manifest.json.
 * - The content script is injected on demand by the background (chrome.scripting.executeScript({files}));
 *   the background imports it with `?script`, and `standaloneFiles` makes it one self-contained classic
 *   script (IIFE, no imports). The main-world agent is no file: a function injected with its arguments
 *   (src/background/inject.ts), its parts written into its body (build/vite-main-world.ts).
 * - The offscreen document is not named in the manifest: it is an extra build input. Its solver workers
 *   are ES-module workers (`new Worker(new URL(...), {type: 'module'})`).
 * - The learned network (models/4x6.ntn) is an asset the solver host imports with `?url`; the build fails
 *   when the file is missing (build/packaged-network.ts).
 * - `vite build --mode firefox` builds the Firefox variant into dist-firefox/ from the manifest that
 *   build/firefox-manifest.ts derives (an event page instead of the service worker, a gecko id, no
 *   offscreen permission); crxjs's `browser: 'firefox'` emits the background loader for it. The
 *   `__EXTENSION_BROWSER__` constant tells src/platform/runtime.ts which browser the build is for; the
 *   Firefox build has no offscreen document (its background event page hosts the solver); its sidebar is
 *   the side panel's page.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import type { ManifestV3Export } from '@crxjs/vite-plugin';
// Written as Node's own loader will read a config (JSON with its type, files with their extension): Vite warns
// at every build about a config it could not load that way.
import manifest from './manifest.json' with { type: 'json' };
import packageJson from './package.json' with { type: 'json' };
import { firefoxManifest } from './build/firefox-manifest.ts';
import { noStringEvaluation } from './build/vite-no-eval.ts';
import { mainWorldAgentParts } from './build/vite-main-world.ts';
import { packagedNetwork } from './build/packaged-network.ts';

const { version } = packageJson;

/**
 * The manifest of a build: manifest.json with package.json's version (the one place it is written). The test
 * builds (dist-e2e/, dist-e2e-firefox/: these builds plus host access to the loopback addresses) are copies
 * made by build/test-builds.mjs; the store builds (dist/, dist-firefox/, release/*.zip) never carry those hosts.
 */
function manifestFor(): Omit<typeof manifest, 'host_permissions'> & { version: string; host_permissions: string[] } {
  return { ...manifest, version, host_permissions: [...manifest.host_permissions] };
}

/** The extension's own pages no manifest key names (src/shared/onboarding.ts opens them): both builds. */
const ONBOARDING_PAGES = { welcome: 'src/ui/welcome/index.html', document: 'src/ui/welcome/document.html' };

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

/**
 * Web Workers have no extension API: the solver worker imports the protocol module for its schemas, and
 * webextension-polyfill would refuse to load there, so workers get the stand-in (src/platform/no-browser.ts).
 */
function noBrowserInWorkers(): Plugin {
  return {
    name: 'no-browser-in-workers',
    enforce: 'pre',
    resolveId(id) {
      return id === 'webextension-polyfill' || id === '#webextension-polyfill' ? resolve('src/platform/no-browser.ts') : null;
    },
  };
}

/** What differs between the two builds: Chrome `dist/` (default mode) and Firefox `dist-firefox/` (mode "firefox"). */
export function browserTarget(mode: string): {
  browser: 'chrome' | 'firefox';
  manifest: object;
  outDir: string;
  target: string;
  pages: Record<string, string>;
} {
  const chrome = manifestFor();
  return mode === 'firefox'
    ? { browser: 'firefox', manifest: firefoxManifest(chrome), outDir: 'dist-firefox', target: 'firefox128', pages: { panel: 'src/ui/panel/index.html', ...ONBOARDING_PAGES } }
    : { browser: 'chrome', manifest: chrome, outDir: 'dist', target: 'chrome116', pages: { offscreen: 'src/offscreen/offscreen.html', ...ONBOARDING_PAGES } };
}

export default defineConfig(({ mode }) => {
  const target = browserTarget(mode);
  return {
    plugins: [
      noStringEvaluation(),
      mainWorldAgentParts(),
      packagedNetwork(fileURLToPath(new URL('.', import.meta.url))),
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
        // Pages crxjs does not take from the manifest: Chrome's offscreen solver host (Firefox needs none),
        // Firefox's sidebar (crxjs builds Chrome's side panel from side_panel, not sidebar_action), and
        // the welcome and documents pages.
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
