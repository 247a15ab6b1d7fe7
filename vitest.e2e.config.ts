import { defineConfig } from 'vitest/config';
import { browserTier } from './vitest.shared';

/**
 * The Chromium end-to-end tier: dist-e2e/ in headless Chromium (npm run test:e2e), two files at a time: the
 * tests mostly wait on pages (animations, settling, games played to a tile), so two browsers side by side
 * take about half the wall time on 2 cores.
 */
export default defineConfig(browserTier('tests/e2e/**/*.test.ts', 2));
