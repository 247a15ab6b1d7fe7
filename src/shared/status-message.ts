/**
 * What a run's status says, as a code with parameters: the content script, the background and the solver
 * host send codes, and the pages word them in the user's language (`status_<code>` in public/_locales;
 * src/ui/status-view.ts). A parameter is a name, a number or a diagnostic detail (an error's own text),
 * never a sentence. A unit test checks that every code has its message in every locale.
 */
import { z } from 'zod';

export const STATUS_CODES = [
  // The content script's run.
  'stopped',
  'pausedYouMoved',
  'pausedTyping', // $1: the focused element's tag
  'pausedPowerup',
  'pausedUnknownState',
  'desync',
  'gameOver',
  'wonStopped',
  'wonNoControl',
  'wonStillShown',
  'noBoard', // $1: the adapters tried
  'cannotRead', // $1: the adapter, $2: what it found
  'moveIgnored', // $1: the move, $2: how often it was sent
  'alreadyPlaying',
  'solverUnreachable', // $1: the failure
  'solverFailed', // $1: the failure
  'solverMalformed', // $1: the strategy, $2: the failure
  'failed', // $1: an unexpected failure's own text
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

/** The most parameters a code takes, and the longest a parameter may be. */
const MAX_PARAMS = 4;
export const STATUS_PARAM_MAX = 200;

export const StatusMessageSchema = z.object({
  code: z.enum(STATUS_CODES),
  params: z.array(z.string().max(STATUS_PARAM_MAX)).max(MAX_PARAMS).optional(),
});
export type StatusMessage = z.infer<typeof StatusMessageSchema>;

/** A status message; parameters are cut to STATUS_PARAM_MAX characters (an error's text can be anything). */
export function statusMessage(code: StatusCode, ...params: (string | number)[]): StatusMessage {
  if (params.length === 0) return { code };
  return { code, params: params.map((param) => bound(String(param))) };
}

function bound(text: string): string {
  return text.length <= STATUS_PARAM_MAX ? text : `${text.slice(0, STATUS_PARAM_MAX - 1)}…`;
}

/** The locale message of a code. */
export function statusMessageKey(code: StatusCode): string {
  return `status_${code}`;
}

/** A status message in plain words for logs and errors (code and parameters; the pages word it). */
export function describeStatus(message: StatusMessage): string {
  return message.params && message.params.length > 0 ? `${message.code}: ${message.params.join('; ')}` : message.code;
}
