import { fileURLToPath } from 'node:url';
import type { ViteUserConfig as UserConfig } from 'vitest/config';

const standIn = fileURLToPath(new URL('./scripts/no-browser.ts', import.meta.url));

/** webextension-polyfill refuses to load outside an extension: Node (unit tests, the browser tiers' harness) gets a stand-in. */
export const NODE_RESOLVE: UserConfig['resolve'] = {
  alias: { 'webextension-polyfill': standIn, '#webextension-polyfill': standIn },
};

/**
 * A browser tier: `files` test files at a time (each drives its own browser with its own profile and an
 * ephemeral port, so files do not share state), generous time limits.
 */
export function browserTier(include: string, files = 1): UserConfig {
  return {
    resolve: NODE_RESOLVE,
    test: {
      include: [include],
      environment: 'node',
      testTimeout: 120_000,
      hookTimeout: 60_000,
      fileParallelism: files > 1,
      maxWorkers: files,
      pool: 'forks',
    },
  };
}
