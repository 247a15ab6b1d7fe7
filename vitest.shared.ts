import { fileURLToPath } from 'node:url';
import type { ViteUserConfig as UserConfig } from 'vitest/config';

const standIn = fileURLToPath(new URL('./src/platform/no-browser.ts', import.meta.url));

/** webextension-polyfill refuses to load outside an extension: Node (unit tests, the browser tiers' harness) gets a stand-in. */
export const NODE_RESOLVE: UserConfig['resolve'] = {
  alias: { 'webextension-polyfill': standIn, '#webextension-polyfill': standIn },
};

/** A browser tier: one file at a time (each drives one browser), generous time limits. */
export function browserTier(include: string | readonly string[], exclude: readonly string[] = []): UserConfig {
  return {
    resolve: NODE_RESOLVE,
    test: {
      include: typeof include === 'string' ? [include] : [...include],
      ...(exclude.length > 0 ? { exclude: [...exclude] } : {}),
      environment: 'node',
      testTimeout: 120_000,
      hookTimeout: 60_000,
      fileParallelism: false,
      pool: 'forks',
      // The files of a lane share one process's modules (playwright-core, puppeteer-core, zod, the harness) instead
      // of importing them again each: ~0.7 CPU s a file (4 files: 20.0 → 17.1 CPU s). Nothing of the harness keeps
      // state at module level; each file starts and closes its own browser.
      isolate: false,
    },
  };
}

/**
 * The Chromium tier's lanes (vitest.e2e.config.ts, a project each): `npm test` runs each lane beside the
 * others (tools/parallel.mjs), one file at a time within it, so that two browsers play side by side; `npm run
 * test:e2e` runs them all, one file at a time. The `main` lane holds every file the others do not name. They
 * are balanced by measured time with the Firefox tier and the unit tier that share their lanes
 * (docs/benchmarks.md, "Tests").
 */
export const CHROMIUM_LANES = {
  /** Before the Firefox tier: the hostile pages' hundreds of new games and thousands of moves. */
  hostile: ['tests/e2e/hostile-history.test.ts'],
  /**
   * After the unit tier, whose two workers load the cores most: Solve on every fixture page, and the bounds
   * on long tasks (a task's wall time on the page grows with the load: 315 ms against 200 beside the unit tier).
   */
  late: ['tests/e2e/sites.test.ts', 'tests/e2e/hardening.test.ts'],
} as const satisfies Record<string, readonly string[]>;
