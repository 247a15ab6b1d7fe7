import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { NODE_RESOLVE } from './vitest.shared.ts';
import { mainWorldAgentParts } from './build/vite-main-world.ts';

/**
 * The unit tests of what keeps state between searches (the engine's installed network, WebAssembly core and
 * time manager, the solver and the command line that install them): each file in a fresh module graph.
 */
const ISOLATED = ['tests/unit/engine/**/*.test.ts', 'tests/unit/solver/**/*.test.ts', 'tests/unit/cli/**/*.test.ts'];

export default defineConfig({
  resolve: NODE_RESOLVE,
  // The main-world agent's parts written into its body, as in the extension's builds: the tests run it from its source.
  plugins: [mainWorldAgentParts()],
  test: {
    environment: 'node',
    globalSetup: ['tests/unit/global-setup.ts'],
    // npm test runs this tier beside two browser lanes on 2 cores, where a CPU-bound test takes up to 5 times
    // its quiet time (the fuzzed DOMs: 3.7 s → 18.7 s): a limit with room for that.
    testTimeout: 60_000,
    // Vitest's default is one worker less than the cores: a single worker on this project's 2-core machines,
    // which ran the 53 files one after another (38 s). Two workers there: 22 s, the same tests.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, setupFiles: ['tests/unit/setup-i18n.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['tests/unit/**/*.test.ts'],
          exclude: ISOLATED,
          // The other files of a worker share their modules instead of importing them again each (jsdom, zod):
          // ~40 of the tier's ~200 CPU seconds. The engine is put back as a fresh process has it before each
          // file (tests/unit/setup-engine.ts); a file that stubs a global or fakes the timers puts them back itself.
          isolate: false,
          setupFiles: ['tests/unit/setup-i18n.ts', 'tests/unit/setup-engine.ts'],
        },
      },
    ],
  },
});
