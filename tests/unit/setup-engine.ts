// The unit tier runs its files without isolation (vitest.config.ts, `isolate: false`): the files of one worker
// share their modules. Each file starts from the engine a fresh process has: no learned network and no
// WebAssembly core installed (a file that installs one may leave it behind).
import { installNetwork } from '../../src/engine/network/installed';
import { installWasmCore } from '../../src/engine/wasm/core';

installNetwork(null);
installWasmCore(null);
