// @vitest-environment jsdom
/**
 * From one content script of a page to the next across an extension update (src/content/handover.ts):
 * they meet on the window under event names derived from the installation's key and the origin; only an
 * orphaned script answers, only to a nonce of the token alphabet and length, tagged over UTF-8 bytes; the
 * first answer ends the listen; the low-byte collision that forged the earlier handover is refused.
 */
import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { answerLaterScripts, askEarlierScripts, handedGames, handoverEventNames, readAnswer } from '../../../src/content/handover';
import { hmacSha256Hex, hmacTag } from '../../../src/content/hmac';
import { makeToken } from '../../../src/shared/bridge-protocol';
import type { GameRecord } from '../../../src/shared/messages';

const record: GameRecord = { gameId: 'g-1', site: 'a.test', adapter: 'classic', strategy: 'expectimax', score: 10, bestTile: 8, moves: 3, ms: 100, desyncs: 0, endedAt: 1_700_000_000_000, outcome: 'stopped' };
const ORIGIN = 'http://127.0.0.1';

function page(url = `${ORIGIN}/`): Window & typeof globalThis {
  return new JSDOM('<!DOCTYPE html><html><body></body></html>', { url }).window as unknown as Window & typeof globalThis;
}

/** `text` with every character moved up by 256: the same low bytes, another text. */
const highTwin = (text: string): string => Array.from(text, (c) => String.fromCharCode(c.charCodeAt(0) + 0x100)).join('');

/** Answer every stand-down request on `win` with `answer(nonce)` (what a page that knew the names could do). */
function answerAs(win: Window & typeof globalThis, key: string, answer: (nonce: string) => string[] | Promise<string[]>): void {
  const names = handoverEventNames(key, ORIGIN);
  win.addEventListener(names.standDown, (e) => {
    const send = (details: string[]): void => {
      for (const detail of details) win.dispatchEvent(new win.CustomEvent(names.handover, { detail }));
    };
    const details = answer(String((e as CustomEvent).detail));
    // An answer at hand goes at once (before the orphan's, which is tagged asynchronously).
    if (Array.isArray(details)) send(details);
    else void details.then(send);
  });
}

describe('handover between content scripts', () => {
  it('an orphaned script stands down and hands its games to the next one; a live one does not answer', async () => {
    const win = page();
    const key = makeToken(43);
    let orphaned = false;
    let stoodDown = 0;
    answerLaterScripts(win, key, () => orphaned, () => stoodDown++, () => ({ games: [record], resume: record }));
    expect(await askEarlierScripts(win, key, 50)).toBeNull();
    expect(stoodDown).toBe(0);
    orphaned = true;
    const handed = await askEarlierScripts(win, key, 1_000);
    expect(stoodDown).toBe(1);
    expect(handedGames(handed)).toEqual({ games: [record], resume: record });
    // Once only.
    expect(await askEarlierScripts(win, key, 50)).toBeNull();
  });

  it('uses no fixed event name: names of 32 hex digits, derived from the key and the origin', () => {
    const key = makeToken(43);
    const a = handoverEventNames(key, 'https://a.test');
    const b = handoverEventNames(key, 'https://b.test');
    const other = handoverEventNames(makeToken(43), 'https://a.test');
    for (const name of [a.standDown, a.handover, b.standDown, b.handover, other.standDown]) expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set([a.standDown, a.handover, b.standDown, b.handover, other.standDown, other.handover]).size).toBe(6);
  });

  it('asks nothing and hears nothing without the key', async () => {
    const win = page();
    const fired: string[] = [];
    const original = win.dispatchEvent.bind(win);
    win.dispatchEvent = (event: Event) => (fired.push(event.type), original(event));
    expect(answerLaterScripts(win, undefined, () => true, () => undefined, () => ({ games: [record], resume: null }))).toBeTypeOf('function');
    expect(await askEarlierScripts(win, undefined, 10)).toBeNull();
    expect(fired).toEqual([]);
  });

  it('refuses the low-byte collision', async () => {
    const win = page();
    const key = makeToken(43);
    // The page's forgery: a text whose nonce is the asker's, then its own games, tagged with the tag of
    // a text of equal low bytes (which the old reading, charCodeAt & 0xff, could not tell apart).
    answerAs(win, key, async (nonce) => {
      const forged = `{"nonce":"${nonce}","games":[],"resume":null}`;
      const twin = forged.slice(0, 10 + nonce.length) + highTwin(forged.slice(10 + nonce.length));
      expect(Array.from(twin, (c) => c.charCodeAt(0) & 0xff)).toEqual(Array.from(forged, (c) => c.charCodeAt(0) & 0xff));
      return [`${forged}~${await hmacTag(key, twin)}`];
    });
    expect(await askEarlierScripts(win, key, 1_000)).toBeNull();
    // The same text with its own tag would have been taken: the tag alone refused it.
    const nonce = makeToken(22);
    const text = `{"nonce":"${nonce}","games":[],"resume":null}`;
    expect(await readAnswer(`${text}~${await hmacTag(key, text)}`, key, nonce)).toEqual({ games: [], resume: null });
    const twin = text.slice(0, 34) + highTwin(text.slice(34));
    expect(await readAnswer(`${text}~${await hmacTag(key, twin)}`, key, nonce)).toBeNull();
  });

  it('an orphan answers no nonce outside the alphabet and length (no text of the page’s choosing gets a tag)', async () => {
    const win = page();
    const key = makeToken(43);
    const names = handoverEventNames(key, ORIGIN);
    const answers: unknown[] = [];
    win.addEventListener(names.handover, (e) => answers.push((e as CustomEvent).detail));
    let stoodDown = 0;
    answerLaterScripts(win, key, () => true, () => stoodDown++, () => ({ games: [record], resume: null }));
    for (const nonce of [highTwin('N2","games":[],"resume":null,"x'), 'short', 'x'.repeat(23), `${'A'.repeat(21)}"`, 42]) {
      win.dispatchEvent(new win.CustomEvent(names.standDown, { detail: nonce }));
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(stoodDown).toBe(0);
    expect(answers).toEqual([]);
  });

  it('nothing forged, nothing replayed; the first wrong answer ends the listen', async () => {
    const win = page();
    const key = makeToken(43);
    const names = handoverEventNames(key, ORIGIN);
    const seen: string[] = [];
    win.addEventListener(names.handover, (e) => seen.push(String((e as CustomEvent).detail)));
    answerLaterScripts(win, key, () => true, () => undefined, () => ({ games: [record], resume: null }));
    // Another installation's key: the answer does not verify.
    expect(await askEarlierScripts(win, makeToken(43), 200)).toBeNull();
    // (It listened under other names: the orphan heard nothing and still waits.)
    expect(seen).toHaveLength(0);
    // A wrong answer first, then the orphan's right one: the first ends the listen.
    let checks = 0;
    answerAs(win, key, (nonce) => {
      checks++;
      const forged = JSON.stringify({ nonce, games: [{ ...record, gameId: 'forged' }], resume: null });
      return [`${forged}~${hmacSha256Hex(makeToken(43), forged)}`];
    });
    expect(await askEarlierScripts(win, key, 1_000)).toBeNull();
    expect(checks).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    // The orphan did answer (after the forgery): its answer, replayed to a later request, is refused (old nonce).
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const real = seen.find((d) => d.includes('"g-1"')) as string;
    expect(real).toBeDefined();
    const win2 = page();
    answerAs(win2, key, async () => [real]);
    expect(await askEarlierScripts(win2, key, 1_000)).toBeNull();
    // Too long, or not starting with the nonce: refused before any hashing.
    expect(await readAnswer(`${'x'.repeat(22_000_001)}`, key, 'n')).toBeNull();
    expect(handedGames({ games: [{ junk: true }, record], resume: 'x' })).toEqual({ games: [record], resume: undefined });
  });
});
