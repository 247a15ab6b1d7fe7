/**
 * Limits shared by every layer (engine, protocol, page bridge, adapters, settings, CLI), in one place.
 */
export const BOARD_LIMITS = {
  /** Sides of a board the engine plays (rows and columns alike). */
  minSize: 2,
  maxSize: 8,
  /**
   * Smallest side the autopilot plays, on a page (adapters) or in the CLI: a 2×2 "board" on a page is
   * far more likely something else (a 2×2 grid of buttons), and a 2×2 game ends in a few moves.
   */
  minPlayedSize: 3,
  /** Largest tile value: boards larger than 4×4 can hold tiles above 32768. */
  maxTile: 1 << 17,
} as const;

/** Search options accepted from any caller (protocol, CLI); the popup's settings offer narrower ranges. */
export const SEARCH_LIMITS = {
  depth: { min: 1, max: 12 },
  timeMs: { min: 1, max: 600_000 },
  playouts: { min: 1, max: 100_000 },
} as const;

/** The think time per move of the strategies with a time budget when none is given (ms). */
export const DEFAULT_TIME_MS = 100;
