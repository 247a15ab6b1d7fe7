import { defineConfig } from 'vitest/config';
import { browserTier } from './vitest.shared';

/** The Chromium end-to-end tier: dist-e2e/ in headless Chromium (npm run test:e2e). */
export default defineConfig(browserTier('tests/e2e/**/*.test.ts'));
