/**
 * From one content script of a page to the next across an extension update. In Chromium the content
 * script injected after an update runs in a new isolated world: it cannot see the one before, which is
 * still there (orphaned: its extension APIs are gone) with the game it was playing and the records it
 * could not send. The two meet on the page's window:
 *
 * - The new script, as it starts (before the background injects its main-world agent), fires
 *   STAND_DOWN_EVENT with a fresh nonce. Any earlier script of the page that has lost its extension
 *   stands down at once — its agent leaves with it, so a page holds one agent at most — and answers on
 *   HANDOVER_EVENT with its records and its game in progress, tagged with an HMAC under the handover key
 *   (a random key the background keeps in storage.local, which survives the update, and hands to every
 *   content script with its injection). A script whose extension is alive ignores the request.
 * - The new script takes only an answer whose tag is right and which carries its own nonce: the page,
 *   which sees these events, can neither forge a handover nor replay an old one (it can only block one:
 *   the background's own record of the game stands then: src/background/live-games.ts). What travels is
 *   the page's own game, nothing secret.
 *
 * Events are dispatched synchronously: the answer has arrived when `askEarlierScripts` returns.
 */
import { hmacSha256Hex, sameText } from './hmac';
import { makeToken } from '../shared/bridge-protocol';
import { GameRecordSchema } from '../shared/messages';
import type { GameRecord } from '../shared/messages';

const STAND_DOWN_EVENT = '__2048autopilot:stand-down';
const HANDOVER_EVENT = '__2048autopilot:handover';

/** What an orphaned script hands over: plain data (checked again by the receiver). */
export interface Handover {
  readonly games: readonly unknown[];
  readonly resume: unknown;
}

/** The valid records of a handover (an earlier version's may not all read), and its game to go on with. */
export function handedGames(handover: Handover | null): { games: GameRecord[]; resume: GameRecord | undefined } {
  const games: GameRecord[] = [];
  for (const item of handover?.games ?? []) {
    const parsed = GameRecordSchema.safeParse(item);
    if (parsed.success) games.push(parsed.data);
  }
  const resume = GameRecordSchema.safeParse(handover?.resume);
  return { games, resume: resume.success ? resume.data : undefined };
}

function detailOf(event: Event): unknown {
  return (event as CustomEvent<unknown>).detail;
}

/**
 * Ask the earlier content scripts of this page (orphaned by an update) to stand down, and take what one
 * hands over (null when none answers, or none with the right tag).
 */
export function askEarlierScripts(win: Window, key: string | undefined): Handover | null {
  const nonce = makeToken(22);
  let handed: Handover | null = null;
  const onAnswer = (event: Event): void => {
    const detail = detailOf(event);
    if (!key || typeof detail !== 'string' || detail.length > 20_000_000) return;
    const cut = detail.lastIndexOf('~');
    if (cut < 0 || !sameText(hmacSha256Hex(key, detail.slice(0, cut)), detail.slice(cut + 1))) return;
    try {
      const data = JSON.parse(detail.slice(0, cut)) as { nonce?: unknown; games?: unknown; resume?: unknown };
      if (data.nonce !== nonce || !Array.isArray(data.games)) return;
      handed = { games: data.games as unknown[], resume: data.resume ?? null };
    } catch {
      // Not ours.
    }
  };
  const CustomEventCtor = (win as Window & typeof globalThis).CustomEvent;
  win.addEventListener(HANDOVER_EVENT, onAnswer);
  try {
    win.dispatchEvent(new CustomEventCtor(STAND_DOWN_EVENT, { detail: nonce }));
  } finally {
    win.removeEventListener(HANDOVER_EVENT, onAnswer);
  }
  return handed;
}

/**
 * Answer a later script's request once this one is orphaned (`orphaned()`): stand down, then hand over
 * what `handover()` gives, tagged under `key`. Returns a function that stops listening.
 */
export function answerLaterScripts(win: Window, key: string | undefined, orphaned: () => boolean, standDown: () => void, handover: () => Handover): () => void {
  const CustomEventCtor = (win as Window & typeof globalThis).CustomEvent;
  const onRequest = (event: Event): void => {
    const nonce = detailOf(event);
    if (typeof nonce !== 'string' || nonce.length > 64 || !orphaned()) return;
    standDown();
    win.removeEventListener(STAND_DOWN_EVENT, onRequest);
    if (!key) return;
    const { games, resume } = handover();
    if (games.length === 0 && !resume) return;
    const text = JSON.stringify({ nonce, games, resume });
    win.dispatchEvent(new CustomEventCtor(HANDOVER_EVENT, { detail: `${text}~${hmacSha256Hex(key, text)}` }));
  };
  win.addEventListener(STAND_DOWN_EVENT, onRequest);
  return () => win.removeEventListener(STAND_DOWN_EVENT, onRequest);
}
