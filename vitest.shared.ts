import { fileURLToPath } from 'node:url';
import type { ViteUserConfig as UserConfig } from 'vitest/config';

const standIn = fileURLToPath(new URL('./src/platform/no-browser.ts', import.meta.url));

/** webextension-polyfill refuses to load outside an extension: Node (unit tests, the browser tiers' harness) gets a stand-in. */
export const NODE_RESOLVE: UserConfig['resolve'] = {
  alias: { 'webextension-polyfill': standIn, '#webextension-polyfill': standIn },
};

/** A browser tier: one file at a time (each drives one browser), generous time limits. */
export function browserTier(include: string): UserConfig {
  return {
    resolve: NODE_RESOLVE,
    test: { include: [include], environment: 'node', testTimeout: 120_000, hookTimeout: 60_000, fileParallelism: false, pool: 'forks' },
  };
}
