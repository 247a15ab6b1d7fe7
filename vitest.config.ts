import { defineConfig } from 'vitest/config';
import { NODE_RESOLVE } from './vitest.shared';

export default defineConfig({
  resolve: NODE_RESOLVE,
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/unit/global-setup.ts'],
    setupFiles: ['tests/unit/setup-i18n.ts'],
    testTimeout: 30_000,
  },
});
