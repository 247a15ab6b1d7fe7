/**
 * The learned network the extension ships: models/4x6.ntn, imported by the solver host as an asset
 * (`?url`: emitted under assets/, fetched from the package at the first search that uses it, no network use).
 * This plugin makes a build without the file fail at once with a message that says what is missing, and
 * tells the host the file's size (`__NETWORK_FILE_BYTES__`), since extension resources carry no
 * Content-Length for the progress line.
 *
 * To measure a candidate network in the extension (its load, its memory: bench/network-memory.ts) without
 * replacing the committed one, build with AUTOPILOT_NETWORK=path/to/4x6.ntn: that file is packaged instead.
 * Release builds never set it (tests/e2e/package.test.ts holds the zips to models/4x6.ntn).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The shipped network, relative to the repository root. */
export const NETWORK_FILE = 'models/4x6.ntn';

/** The variable naming another network file to package in its place (measurements only). */
const OVERRIDE_VARIABLE = 'AUTOPILOT_NETWORK';

export function packagedNetwork(root: string, override: string | undefined = process.env[OVERRIDE_VARIABLE]): Plugin {
  const file = override ? resolve(override) : resolve(root, NETWORK_FILE);
  return {
    name: 'packaged-network',
    enforce: 'pre',
    config() {
      if (!existsSync(file)) {
        throw new Error(
          override
            ? `${OVERRIDE_VARIABLE}=${override}: no such network file.`
            : `${NETWORK_FILE} is missing: the extension ships the learned network and cannot be built without it. ` +
                'It is committed at that path (a trained network: npm run train, docs on the learned evaluation).',
        );
      }
      return { define: { __NETWORK_FILE_BYTES__: JSON.stringify(statSync(file).size) } };
    },
    resolveId(source) {
      if (override && source.endsWith(`${NETWORK_FILE}?url`)) return `${file}?url`;
      return null;
    },
  };
}
