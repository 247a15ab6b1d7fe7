/** Builds the WebAssembly core once before the unit tests (a no-op when it is up to date). */
import { buildWasm } from '../../scripts/build-wasm.mjs';

export async function setup(): Promise<void> {
  await buildWasm({ quiet: true });
}
