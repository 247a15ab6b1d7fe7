// The unit files outside the engine, the solver and the command line run without isolation (vitest.config.ts,
// project "shared"): the files of one worker share their modules. Each file starts from the engine a fresh
// process has: no learned network and no WebAssembly core installed, a time manager that has learnt nothing.
import { installNetwork } from '../../src/engine/network/installed';
import { installWasmCore } from '../../src/engine/wasm/core';
import { forgetSearches } from '../../src/engine/strategies/expectimax/index';

installNetwork(null);
installWasmCore(null);
forgetSearches();
