import { defineConfig } from 'vitest/config';

/** The Firefox end-to-end tier: dist-firefox/ in headless Firefox ESR (npm run test:e2e:firefox). */
export default defineConfig({
  test: {
    include: ['tests/e2e-firefox/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
