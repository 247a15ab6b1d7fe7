/**
 * The learned network the extension ships: models/4x6.ntn, imported by the solver host as an asset
 * (`?url`: emitted under assets/, fetched from the package at the first search that uses it, no network use).
 * This plugin makes a build without the file fail at once with a message that says what is missing, and
 * tells the host the file's size (`__NETWORK_FILE_BYTES__`), since extension resources carry no
 * Content-Length for the progress line.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The shipped network, relative to the repository root. */
export const NETWORK_FILE = 'models/4x6.ntn';

export function packagedNetwork(root: string): Plugin {
  const file = resolve(root, NETWORK_FILE);
  return {
    name: 'packaged-network',
    config() {
      if (!existsSync(file)) {
        throw new Error(
          `${NETWORK_FILE} is missing: the extension ships the learned network and cannot be built without it. ` +
            'It is committed at that path (a trained network: npm run train, docs on the learned evaluation).',
        );
      }
      return { define: { __NETWORK_FILE_BYTES__: JSON.stringify(statSync(file).size) } };
    },
  };
}
