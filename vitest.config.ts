import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // webextension-polyfill refuses to load outside an extension: unit tests get a stand-in.
    alias: {
      'webextension-polyfill': fileURLToPath(new URL('./scripts/no-browser.ts', import.meta.url)),
      '#webextension-polyfill': fileURLToPath(new URL('./scripts/no-browser.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/unit/global-setup.ts'],
    setupFiles: ['tests/unit/setup-i18n.ts'],
    testTimeout: 30_000,
  },
});
