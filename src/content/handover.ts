/**
 * From one content script of a page to the next across an extension update. In Chromium the content
 * script injected after an update runs in a new isolated world: it cannot see the one before, which is
 * still there (orphaned: its extension APIs are gone) with the game it was playing and the records it
 * could not send. The two meet on the page's window:
 *
 * - Both know the handover key (a random key the background keeps in storage.local, which survives the
 *   update, and hands to every content script with its injection). The two event names are derived from
 *   it and the page's origin (./hmac.ts derivedEventName): nothing fixed, nothing a page can guess, so a
 *   page can neither listen for them nor ask an old script anything; without the key nothing is sent.
 * - The new script, as it starts (before the background injects its main-world agent), fires the
 *   stand-down event with a fresh nonce (NONCE_LENGTH characters of the token alphabet). Any earlier
 *   script of the page that has lost its extension stands down at once — its agent leaves with it, so a
 *   page holds one agent at most — and answers on the handover event with its records and its game in
 *   progress, tagged with HMAC-SHA-256 (Web Crypto where there is one: ./hmac.ts hmacTag) under the key
 *   over the text's UTF-8 bytes. A script whose extension is alive does not answer; a request whose nonce
 *   is not of the alphabet and length is ignored.
 * - The new script listens for HANDOVER_WAIT_MS at most and takes only the first answer: one of at most
 *   MAX_HANDOVER characters that starts with its own nonce (checked before any hashing) and whose tag is
 *   right. The first answer ends the listen whatever it holds, so a wrong one costs one check and stops
 *   every later one. What travels is the page's own game, nothing secret.
 */
import { derivedEventName, hmacTag, sameText } from './hmac';
import { makeToken } from '../shared/bridge-protocol';
import { GameRecordSchema } from '../shared/messages';
import type { GameRecord } from '../shared/messages';

/** Characters of a nonce (the token alphabet: A–Z, a–z, 0–9, - and _). */
const NONCE_LENGTH = 22;
const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** The longest answer read (20 records waiting and the game in progress, each at most 1 MB). */
const MAX_HANDOVER = 22_000_000;
/** How long a new script waits for an answer (the old one tags it asynchronously). */
const HANDOVER_WAIT_MS = 2_000;

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

/** The two event names of the handover on this page, under `key`. */
export function handoverEventNames(key: string, origin: string): { standDown: string; handover: string } {
  return { standDown: derivedEventName(key, 'stand-down', origin), handover: derivedEventName(key, 'handover', origin) };
}

function detailOf(event: Event): unknown {
  return (event as CustomEvent<unknown>).detail;
}

function originOf(win: Window): string {
  return win.location.origin;
}

/** The handover in `answer` when it is the answer to `nonce` under `key` (one HMAC at most), else null. */
export async function readAnswer(answer: unknown, key: string, nonce: string): Promise<Handover | null> {
  if (typeof answer !== 'string' || answer.length > MAX_HANDOVER) return null;
  // The text starts with the nonce asked for: anything else is refused before any hashing.
  if (!answer.startsWith(`{"nonce":"${nonce}",`)) return null;
  const cut = answer.lastIndexOf('~');
  if (cut < 0 || answer.length - cut - 1 !== 64) return null;
  const text = answer.slice(0, cut);
  if (!sameText(await hmacTag(key, text), answer.slice(cut + 1))) return null;
  try {
    const data = JSON.parse(text) as { nonce?: unknown; games?: unknown; resume?: unknown };
    if (data.nonce !== nonce || !Array.isArray(data.games)) return null;
    return { games: data.games as unknown[], resume: data.resume ?? null };
  } catch {
    return null;
  }
}

/**
 * Ask the earlier content scripts of this page (orphaned by an update) to stand down, and take what one
 * hands over: null when none answers within `waitMs`, or the first answer is not right.
 */
export function askEarlierScripts(win: Window, key: string | undefined, waitMs = HANDOVER_WAIT_MS): Promise<Handover | null> {
  if (!key) return Promise.resolve(null);
  const names = handoverEventNames(key, originOf(win));
  const nonce = makeToken(NONCE_LENGTH);
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: unknown): void => {
      if (done) return;
      done = true;
      win.removeEventListener(names.handover, onAnswer);
      clearTimeout(timer);
      readAnswer(answer, key, nonce).then(resolve, () => resolve(null));
    };
    // The first answer ends the listen, whatever it holds.
    const onAnswer = (event: Event): void => finish(detailOf(event));
    const timer = setTimeout(() => finish(null), waitMs);
    win.addEventListener(names.handover, onAnswer);
    const CustomEventCtor = (win as Window & typeof globalThis).CustomEvent;
    try {
      win.dispatchEvent(new CustomEventCtor(names.standDown, { detail: nonce }));
    } catch {
      finish(null);
    }
  });
}

/**
 * Answer a later script's request once this one is orphaned (`orphaned()`): stand down, then hand over
 * what `handover()` gives, tagged under `key`. Returns a function that stops listening. Without a key
 * there is nothing to listen for.
 */
export function answerLaterScripts(win: Window, key: string | undefined, orphaned: () => boolean, standDown: () => void, handover: () => Handover): () => void {
  if (!key) return () => undefined;
  const names = handoverEventNames(key, originOf(win));
  const CustomEventCtor = (win as Window & typeof globalThis).CustomEvent;
  const onRequest = (event: Event): void => {
    const nonce = detailOf(event);
    if (typeof nonce !== 'string' || !NONCE_PATTERN.test(nonce) || !orphaned()) return;
    standDown();
    win.removeEventListener(names.standDown, onRequest);
    const { games, resume } = handover();
    if (games.length === 0 && !resume) return;
    const text = JSON.stringify({ nonce, games, resume });
    void hmacTag(key, text)
      .then((tag) => win.dispatchEvent(new CustomEventCtor(names.handover, { detail: `${text}~${tag}` })))
      .catch(() => undefined);
  };
  win.addEventListener(names.standDown, onRequest);
  return () => win.removeEventListener(names.standDown, onRequest);
}
