/**
 * The engine's public API: rules on any board size, a seeded random source, the six strategies and
 * the merge of a search split over workers. Pure TypeScript; imports nothing outside src/engine.
 */
export * from './types';
export { createRng } from './rng';
export {
  applyMove,
  isGameOver,
  isSuccessor,
  legalMoves,
  maxTile,
  newGame,
  sameGrid,
  spawnRandomTile,
  tileSum,
  validateGrid,
} from './grid';
export { mergeChoices } from './merge';
export type { ChanceEstimate } from './chance';
export { estimateChance } from './chance';
export { TimeBank } from './time-bank';
export { STRATEGIES, getStrategy } from './strategies/index';
export { forgetSearches } from './strategies/expectimax/index';
export type { WasmCore } from './wasm/core';
export { createSharedMemory, installWasmCore, instantiateSharedWasmCore, instantiateWasmCore, instantiateWasmCoreAsync } from './wasm/core';
export type { DecompressAsync, Network } from './network/format';
export { NetworkFormatError, decodeNetwork, decodeNetworkAsync, describeNetworkFile } from './network/format';
export { installNetwork } from './network/installed';
export type { NetworkDescriptor } from './wasm/network';
export { attachNetwork, createNetworkMemory } from './wasm/network';
export type { SharedTable, SplitPlan } from './split';
export { MAX_SPLIT_THREADS, createSplitBuffer, estimateRootCosts, mergeSearched, mergeSplit, planSplit, resetSplit, sequentialPlan, workSplit } from './split';
export type { SplitHost, SplitSearch } from './split-session';
export { SplitSession, splitSearchable } from './split-session';
