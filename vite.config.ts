/**
 * Build of the extension (vite + @crxjs/vite-plugin): dist/ is the unpacked extension.
 *
 * - The manifest is the plain manifest.json.
 * - The content script and the MAIN-world script are injected on demand by the background
 *   (chrome.scripting.executeScript({files})); the background imports them with `?script`, and
 *   `standaloneFiles` makes each one self-contained classic script (IIFE, no imports).
 * - The offscreen document is not named in the manifest: it is an extra build input. Its solver workers
 *   are ES-module workers (`new Worker(new URL(...), {type: 'module'})`).
 */
import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import type { ManifestV3Export } from '@crxjs/vite-plugin';
import manifest from './manifest.json';

export default defineConfig({
  plugins: [
    crx({
      manifest: manifest as ManifestV3Export,
      contentScripts: { standaloneFiles: ['src/content/index.ts', 'src/page/main-world.ts'] },
    }),
  ],
  build: {
    outDir: 'dist',
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
});
