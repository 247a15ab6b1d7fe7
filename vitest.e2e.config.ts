import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // webextension-polyfill refuses to load outside an extension: the harness (Node) gets a stand-in.
    alias: {
      'webextension-polyfill': fileURLToPath(new URL('./scripts/no-browser.ts', import.meta.url)),
      '#webextension-polyfill': fileURLToPath(new URL('./scripts/no-browser.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
