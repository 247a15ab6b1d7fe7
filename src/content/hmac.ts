/**
 * HMAC-SHA-256 over the UTF-8 bytes of a text, for the content script.
 *
 * - `hmacTag` (asynchronous) is the browser's own HMAC (Web Crypto) wherever the content script has
 *   `crypto.subtle`, and the written-out one below where it has not: Chromium gives a content script on a
 *   plain-http page (not a secure context) no `crypto.subtle` (docs/research/2026-11-28-hostile-pages.md).
 *   The handover between content scripts (./handover.ts) uses it.
 * - `hmacSha256Hex` (synchronous, written out) checks what the main-world agent sends, message by message
 *   (src/page/main-world.ts computes the same tag with operators only, over printable ASCII), and names
 *   the events (./handover.ts, ../shared/bridge-protocol.ts).
 *
 * Both hash every character as its UTF-8 bytes: two different texts never share their bytes, so they never
 * share a tag (the earlier low-byte reading, `charCodeAt & 0xff`, let a page forge a handover's text).
 * tests/unit/content/hmac.test.ts holds both to node:crypto's tag.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

function sha256(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array((((bytes.length + 8) >>> 6) + 1) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of a text (a lone surrogate becomes U+FFFD, as in Web Crypto's callers). */
function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(encoder.encode(text));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** HMAC-SHA-256 of the UTF-8 bytes of `text` under those of `key`, as 64 lowercase hex digits (written out). */
export function hmacSha256Hex(key: string, text: string): string {
  const keyBytes = new Uint8Array(64);
  const rawKey = utf8(key);
  keyBytes.set(rawKey.length > 64 ? sha256(rawKey) : rawKey);
  const message = utf8(text);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = keyBytes[i] ^ 0x36;
    outer[i] = keyBytes[i] ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return hex(sha256(outer));
}

/** The part of Web Crypto `hmacTag` uses. */
export type Subtle = Pick<SubtleCrypto, 'importKey' | 'sign'>;

/** What this context has of Web Crypto (nothing outside a secure context). */
function ownSubtle(): Subtle | undefined {
  const crypto = (globalThis as { crypto?: { subtle?: Subtle } }).crypto;
  return crypto?.subtle ?? undefined;
}

/**
 * HMAC-SHA-256 of the UTF-8 bytes of `text` under those of `key`, as 64 lowercase hex digits: the
 * browser's own (Web Crypto) when `subtle` is there, the written-out one otherwise. Same tag either way.
 */
export async function hmacTag(key: string, text: string, subtle: Subtle | undefined = ownSubtle()): Promise<string> {
  if (!subtle) return hmacSha256Hex(key, text);
  const cryptoKey = await subtle.importKey('raw', utf8(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(new Uint8Array(await subtle.sign('HMAC', cryptoKey, utf8(text))));
}

/** Compare two strings in time independent of where they differ. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The name of an event on the page, derived from a key and the page's origin: 32 hex digits, nothing
 * fixed in it, different on every site and for every key (the main-world agent derives its own the same
 * way: src/page/main-world.ts). `purpose` tells apart the events of one key.
 */
export function derivedEventName(key: string, purpose: string, origin: string): string {
  return hmacSha256Hex(key, `${purpose}|${origin}`).slice(0, 32);
}
