/** The content script's two errors: one the user reads (its status message), one that only says "interrupted". */
import { DeliveryError, StatusError } from '../shared/protocol';
import { errorKind, statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';

/** A failure the user reads: state 'error', its status message shown in the user's language. */
export class DriverError extends StatusError {
  override name = 'DriverError';
}

/**
 * The status message of any failure: its own when it has one, else `failed` with the error's kind — never
 * its text, which may hold what a page wrote.
 */
export function statusOfError(err: unknown): StatusMessage {
  if (err instanceof StatusError) return err.status;
  if (err instanceof DeliveryError && err.status) return err.status;
  return statusMessage('failed', errorKind(err));
}

/** A search or a wait ended because the run was stopped or paused (not a failure). */
export class Interrupted extends Error {
  override name = 'AbortError';
}
