import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/unit/global-setup.ts'],
    setupFiles: ['tests/unit/setup-i18n.ts'],
    testTimeout: 30_000,
  },
});
