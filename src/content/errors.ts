/** The content script's two errors: one the user reads as it is, one that only says "interrupted". */

/** An error the user should read as it is (state 'error', message = its text). */
export class DriverError extends Error {
  override name = 'DriverError';
}

/** A search or a wait ended because the run was stopped or paused (not a failure). */
export class Interrupted extends Error {
  override name = 'AbortError';
}
