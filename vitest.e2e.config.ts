import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { CHROMIUM_LANES, browserTier } from './vitest.shared.ts';

/**
 * The Chromium end-to-end tier: dist-e2e/ in headless Chromium (npm run test:e2e), one file at a time, in
 * lanes (vitest.shared.ts CHROMIUM_LANES): a project each, which npm test runs side by side (`--project`), each
 * lane one file at a time. Two files of one lane at a time took only ~13 % less wall time on 2 cores, and the
 * two browsers with their solver workers starved each other: a run on a slow day missed a 60 s wait for a game
 * to reach 2048. Lanes pair a browser with a tier that waits in other ways (Firefox, the unit tests).
 */
const ALL = 'tests/e2e/**/*.test.ts';

function lane(name: string, include: string | readonly string[], exclude: readonly string[] = []): TestProjectInlineConfiguration {
  const tier = browserTier(include, exclude);
  return { ...tier, test: { ...tier.test, name } };
}

export default defineConfig({
  test: {
    fileParallelism: false,
    projects: [lane('main', ALL, Object.values(CHROMIUM_LANES).flat()), ...Object.entries(CHROMIUM_LANES).map(([name, files]) => lane(name, files))],
  },
});
