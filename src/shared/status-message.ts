/**
 * What a run's status says, as a code with parameters: the content script, the background and the solver
 * host send codes, and the pages word them in the user's language (`status_<code>` in public/_locales;
 * src/ui/status-view.ts). A parameter is a name of the extension's own (an adapter, a strategy, a move),
 * a number, or a diagnostic detail of the extension's own making; never text from a page: a failure to
 * read a board travels as a `detail` code (READ_FAILURES, worded by `readFailure_<code>` in the locales)
 * with numbers only. A unit test checks that every code has its message in every locale.
 */
import { z } from 'zod';

export const STATUS_CODES = [
  // The content script's run.
  'stopped',
  'pausedYouMoved',
  'pausedTyping', // $1: the kind of field (TYPING_FIELDS)
  'pausedPowerup',
  'pausedUnknownState',
  'desync',
  'gameOver',
  'wonStopped',
  'wonNoControl',
  'wonStillShown',
  'noBoard', // $1: the adapters tried
  'cannotRead', // $1: the adapter, $2: the detail (a READ_FAILURES code)
  'moveIgnored', // $1: the move, $2: how often it was sent
  'alreadyPlaying',
  'solverUnreachable', // $1: the failure
  'solverFailed', // $1: the failure
  'solverMalformed', // $1: the strategy, $2: the failure
  'failed', // $1: an unexpected failure's kind (its error's name)
  'pageScriptFailed',
  'pageScriptNoAnswer',
  // The solver host's notes on a move that did not come from the full search.
  'partsFailedMoves', // $1: failed parts, $2: all parts, $3: why, $4: the moves compared
  'partsFailedPlayouts', // $1: failed parts, $2: all parts, $3: why, $4: the playouts that survived
  'solverFallback', // $1: why, $2: the fallback strategy
  'wasmUnavailable',
  // The solver host's learned network, when it is not in use.
  'networkNoMemory',
  'networkLoadFailed', // $1: the failure
  'networkWorkerFailed',
  // The background.
  'stoppedReloaded',
  'stoppedLeft',
  'stoppedClosed',
  'browserPage',
  'storePage',
  'noPermission',
  'tabGone',
  'errorPage',
  'cannotStart', // $1: the browser's reason
  'scriptNoAnswer',
  'pageNoAnswer', // $1: the failure
] as const;

export type StatusCode = (typeof STATUS_CODES)[number];

/** Why a board could not be read: the locale message `readFailure_<code>` says it, with its numbers. */
export const READ_FAILURES = [
  'boardSize', // $1 × $2: the rows and columns found
  'cellNotTile', // $1, $2: the cell's row and column
  'tileAboveCanvasLimit', // $1, $2: the cell's row and column
  'canvasSize', // $1 × $2: the canvas's pixels
  'canvasTooSmall',
  'noBoardColour',
  'canvasUnreadable',
  'canvasProtected',
  'boardGone',
  'tooManyTiles', // $1: how many
  'noTiles',
  'tileOutside',
  'tilesMoving',
  'boardChanged',
  'tooFewTiles',
  'notAGrid',
  'savedStateUnreadable',
  'notPublished',
  'noPageScript',
  'invalidBoard',
] as const;
export type ReadFailure = (typeof READ_FAILURES)[number];

/** The kinds of field that take typed text (`pausedTyping`'s parameter). */
export type TypingField = 'input' | 'textarea' | 'select' | 'editable' | 'document' | 'shadow';

/** The most parameters a code takes, and the longest a parameter may be. */
const MAX_PARAMS = 4;
export const STATUS_PARAM_MAX = 200;

export const StatusMessageSchema = z.object({
  code: z.enum(STATUS_CODES),
  params: z.array(z.string().max(STATUS_PARAM_MAX)).max(MAX_PARAMS).optional(),
  /** A reading's failure, worded by the pages and given as the message's last parameter. */
  detail: z
    .object({
      failure: z.enum(READ_FAILURES),
      values: z.array(z.number().int().min(-1e9).max(1e9)).max(4).optional(),
    })
    .optional(),
});
export type StatusMessage = z.infer<typeof StatusMessageSchema>;
export type StatusDetail = NonNullable<StatusMessage['detail']>;

/** A status message; parameters are cut to STATUS_PARAM_MAX characters (an error's text can be anything). */
export function statusMessage(code: StatusCode, ...params: (string | number)[]): StatusMessage {
  if (params.length === 0) return { code };
  return { code, params: params.map((param) => bound(String(param))) };
}

function bound(text: string): string {
  return text.length <= STATUS_PARAM_MAX ? text : `${text.slice(0, STATUS_PARAM_MAX - 1)}…`;
}

/** The message with a reading's failure as its detail. */
export function withDetail(message: StatusMessage, detail: StatusDetail): StatusMessage {
  return { ...message, detail };
}

/** The name of an unexpected error, as `failed` carries it (a standard name, never the error's text). */
export function errorKind(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  return /^[A-Z][A-Za-z]{0,40}(Error|Exception)$/.test(name) ? name : 'Error';
}

/** The locale message of a code. */
export function statusMessageKey(code: StatusCode): string {
  return `status_${code}`;
}

/** A status message in plain words for logs and errors (code and parameters; the pages word it). */
export function describeStatus(message: StatusMessage): string {
  const detail = message.detail ? [`${message.detail.failure}${message.detail.values?.length ? ` ${message.detail.values.join(',')}` : ''}`] : [];
  const params = [...(message.params ?? []), ...detail];
  return params.length > 0 ? `${message.code}: ${params.join('; ')}` : message.code;
}
