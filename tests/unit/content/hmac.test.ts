/**
 * The content script's HMAC (src/content/hmac.ts): over UTF-8 bytes, the same tag from the browser's own
 * Web Crypto and from the written-out one, both equal to node:crypto's; two texts whose characters share
 * their low bytes (the forgery of the earlier `charCodeAt & 0xff` reading) never share a tag.
 */
import { describe, expect, it } from 'vitest';
import { createHmac, webcrypto } from 'node:crypto';
import { derivedEventName, hmacSha256Hex, hmacTag } from '../../../src/content/hmac';
import type { Subtle } from '../../../src/content/hmac';

const node = (key: string, text: string): string => createHmac('sha256', Buffer.from(key, 'utf8')).update(Buffer.from(text, 'utf8')).digest('hex');

/** `text` with every character moved up by 256: the same low bytes, another text. */
const highTwin = (text: string): string => Array.from(text, (c) => String.fromCharCode(c.charCodeAt(0) + 0x100)).join('');

describe('HMAC-SHA-256 over UTF-8 bytes', () => {
  const key = 'k3y-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn';
  const texts = ['', 'a', '{"nonce":"x"}', 'ä ö ü ß — 😀 \u0100\u0141', 'x'.repeat(1000), highTwin('N2","games":[],"resume":null,"x')];

  it('equals node:crypto’s, written out and with Web Crypto, for ASCII and for any other text', async () => {
    for (const text of texts) {
      expect(hmacSha256Hex(key, text)).toBe(node(key, text));
      expect(await hmacTag(key, text, webcrypto.subtle as unknown as Subtle)).toBe(node(key, text));
      expect(await hmacTag(key, text, undefined)).toBe(node(key, text));
    }
    // A key longer than a block (64 bytes) is hashed first, by both.
    const long = 'ü'.repeat(40);
    expect(hmacSha256Hex(long, 'x')).toBe(node(long, 'x'));
    expect(await hmacTag(long, 'x', webcrypto.subtle as unknown as Subtle)).toBe(node(long, 'x'));
  });

  it('two texts with equal low bytes have different tags', async () => {
    const forged = '{"nonce":"N2","games":[],"resume":null,"x';
    const asked = `{"nonce":"${highTwin('N2","games":[],"resume":null,"x')}`;
    // Equal low bytes, character for character.
    expect(Array.from(asked, (c) => c.charCodeAt(0) & 0xff)).toEqual(Array.from(forged, (c) => c.charCodeAt(0) & 0xff));
    expect(hmacSha256Hex(key, asked)).not.toBe(hmacSha256Hex(key, forged));
    expect(await hmacTag(key, asked, webcrypto.subtle as unknown as Subtle)).not.toBe(await hmacTag(key, forged, webcrypto.subtle as unknown as Subtle));
  });

  it('uses Web Crypto when there is one', async () => {
    let signed = 0;
    const real = webcrypto.subtle as unknown as Subtle;
    const subtle = {
      importKey: real.importKey.bind(real),
      sign: (...args: Parameters<Subtle['sign']>) => {
        signed++;
        return real.sign(...args);
      },
    } as Subtle;
    expect(await hmacTag(key, 'text', subtle)).toBe(node(key, 'text'));
    expect(signed).toBe(1);
  });

  it('derives event names of 32 hex digits, one per key, purpose and origin', () => {
    const name = derivedEventName(key, 'to-page', 'https://a.test');
    expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(name).toBe(node(key, 'to-page|https://a.test').slice(0, 32));
    expect(derivedEventName(key, 'to-page', 'https://b.test')).not.toBe(name);
    expect(derivedEventName(key, 'to-content', 'https://a.test')).not.toBe(name);
    expect(derivedEventName(`${key}x`, 'to-page', 'https://a.test')).not.toBe(name);
  });
});
