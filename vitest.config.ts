import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { NODE_RESOLVE } from './vitest.shared';
import { mainWorldAgentParts } from './build/vite-main-world';

export default defineConfig({
  resolve: NODE_RESOLVE,
  // The main-world agent's parts written into its body, as in the extension's builds: the tests run it from its source.
  plugins: [mainWorldAgentParts()],
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/unit/global-setup.ts'],
    setupFiles: ['tests/unit/setup-i18n.ts', 'tests/unit/setup-engine.ts'],
    // The files of a worker share their modules instead of importing them again each (jsdom, zod, the engine):
    // 40 of the tier's ~200 CPU seconds. What a file installs in the engine is reset before the next
    // (tests/unit/setup-engine.ts); a file that stubs a global or fakes the timers puts them back itself.
    isolate: false,
    // npm test runs this tier beside two browser lanes on 2 cores, where a CPU-bound test takes up to 5 times
    // its quiet time (the fuzzed DOMs: 3.7 s → 18.7 s): a limit with room for that.
    testTimeout: 60_000,
    // Vitest's default is one worker less than the cores: a single worker on this project's 2-core machines,
    // which ran the 53 files one after another (38 s). Two workers there: 22 s, the same tests.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
