import { defineConfig } from 'vitest/config';
import { browserTier } from './vitest.shared';

/**
 * The Chromium end-to-end tier: dist-e2e/ in headless Chromium (npm run test:e2e), one file at a time. Two
 * at a time took only ~13 % less wall time on 2 cores, and the two browsers with their solver workers
 * starved each other: a run on a slow day missed a 60 s wait for a game to reach 2048.
 */
export default defineConfig(browserTier('tests/e2e/**/*.test.ts'));
