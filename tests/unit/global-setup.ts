/** Builds the WebAssembly modules once before the unit tests (a no-op when they are up to date). */
export async function setup(): Promise<void> {
  await import('../../build/build-wasm.mjs');
}
