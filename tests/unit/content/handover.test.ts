// @vitest-environment jsdom
/**
 * From one content script of a page to the next across an extension update (src/content/handover.ts):
 * they meet on the window; only an orphaned script answers, only with the installation's key, only to
 * the nonce it was asked with — the page can neither forge a handover nor replay one.
 */
import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { answerLaterScripts, askEarlierScripts, handedGames } from '../../../src/content/handover';
import { hmacSha256Hex } from '../../../src/content/hmac';
import { makeToken } from '../../../src/shared/bridge-protocol';
import type { GameRecord } from '../../../src/shared/messages';

const record: GameRecord = { gameId: 'g-1', site: 'a.test', adapter: 'classic', strategy: 'expectimax', score: 10, bestTile: 8, moves: 3, ms: 100, desyncs: 0, endedAt: 1_700_000_000_000, outcome: 'stopped' };

function page(): Window {
  return new JSDOM('<!DOCTYPE html><html><body></body></html>', { url: 'http://127.0.0.1/' }).window as unknown as Window;
}

describe('handover between content scripts', () => {
  it('an orphaned script stands down and hands its games to the next one; a live one does not answer', () => {
    const win = page();
    const key = makeToken(43);
    let orphaned = false;
    let stoodDown = 0;
    answerLaterScripts(win, key, () => orphaned, () => stoodDown++, () => ({ games: [record], resume: record }));
    expect(askEarlierScripts(win, key)).toBeNull();
    expect(stoodDown).toBe(0);
    orphaned = true;
    const handed = askEarlierScripts(win, key);
    expect(stoodDown).toBe(1);
    expect(handedGames(handed)).toEqual({ games: [record], resume: record });
    // Once only.
    expect(askEarlierScripts(win, key)).toBeNull();
  });

  it('takes nothing without the key, nothing forged, nothing replayed', () => {
    const win = page();
    const key = makeToken(43);
    const seen: string[] = [];
    win.addEventListener('__2048autopilot:handover', (e) => seen.push(String((e as CustomEvent).detail)));
    answerLaterScripts(win, key, () => true, () => undefined, () => ({ games: [record], resume: null }));
    // Another installation's key: the answer does not verify.
    expect(askEarlierScripts(win, makeToken(43))).toBeNull();
    expect(seen).toHaveLength(1);
    // The page answers every request itself: a forged tag, and the real answer replayed (an old nonce).
    win.addEventListener('__2048autopilot:stand-down', (e) => {
      const nonce = String((e as CustomEvent).detail);
      const forged = JSON.stringify({ nonce, games: [{ ...record, gameId: 'forged' }], resume: null });
      win.dispatchEvent(new (win as Window & typeof globalThis).CustomEvent('__2048autopilot:handover', { detail: `${forged}~${hmacSha256Hex(makeToken(43), forged)}` }));
      win.dispatchEvent(new (win as Window & typeof globalThis).CustomEvent('__2048autopilot:handover', { detail: seen[0] }));
    });
    expect(askEarlierScripts(win, key)).toBeNull();
    expect(handedGames({ games: [{ junk: true }, record], resume: 'x' })).toEqual({ games: [record], resume: undefined });
  });
});
