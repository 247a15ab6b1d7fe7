import { defineConfig } from 'vitest/config';
import { browserTier } from './vitest.shared.ts';

/** The Firefox end-to-end tier: dist-e2e-firefox/ in headless Firefox ESR (npm run test:e2e:firefox). */
export default defineConfig(browserTier('tests/e2e-firefox/**/*.test.ts'));
