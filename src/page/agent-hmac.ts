/**
 * The main-world agent's HMAC-SHA-256, computed by hand with operators only (the threat model's rule 1: the
 * secret meets no method, no getter, nothing the page can hook): a part of the agent (src/page/main-world.ts),
 * written into its body by the build (build/vite-main-world.ts); self-contained, no import but types, no
 * module-level binding. src/content/hmac.ts computes the same tag on the content script's side.
 */

/**
 * The tag of a text of printable ASCII characters under `secret`: HMAC-SHA-256 as 64 hex digits. `code`: the
 * characters' codes (agentText's table), by which the secret and the text are read as bytes.
 */
export function agentHmac(secret: string, code: Record<string, number>): (text: string) => string {
  const K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ];
  const W = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const H = [0, 0, 0, 0, 0, 0, 0, 0];
  const DIGEST = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const HEX = '0123456789abcdef';

  /** SHA-256 of `length` bytes given by `byteAt`, into DIGEST. */
  const sha256 = (byteAt: (i: number) => number, length: number): void => {
    H[0] = 0x6a09e667; H[1] = 0xbb67ae85; H[2] = 0x3c6ef372; H[3] = 0xa54ff53a;
    H[4] = 0x510e527f; H[5] = 0x9b05688c; H[6] = 0x1f83d9ab; H[7] = 0x5be0cd19;
    const total = ((length + 8) >>> 6) * 64 + 64;
    const bitsHigh = (length / 0x20000000) >>> 0;
    const bitsLow = (length * 8) >>> 0;
    for (let offset = 0; offset < total; offset += 64) {
      for (let t = 0; t < 16; t++) {
        let word = 0;
        for (let b = 0; b < 4; b++) {
          const i = offset + t * 4 + b;
          let v = 0;
          if (i < length) v = byteAt(i) & 255;
          else if (i === length) v = 0x80;
          else if (i >= total - 8) {
            const k = i - (total - 8);
            v = k < 4 ? (bitsHigh >>> (24 - 8 * k)) & 255 : (bitsLow >>> (24 - 8 * (k - 4))) & 255;
          }
          word = (word << 8) | v;
        }
        W[t] = word >>> 0;
      }
      for (let t = 16; t < 64; t++) {
        const a = W[t - 15];
        const b = W[t - 2];
        const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        W[t] = (W[t - 16] + s0 + W[t - 7] + s1) >>> 0;
      }
      let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
      for (let t = 0; t < 64; t++) {
        const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const ch = (e & f) ^ (~e & g);
        const t1 = (h + S1 + ch + K[t] + W[t]) >>> 0;
        const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const maj = (a & b) ^ (a & c) ^ (b & c);
        const t2 = (S0 + maj) >>> 0;
        h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      H[0] = (H[0] + a) >>> 0; H[1] = (H[1] + b) >>> 0; H[2] = (H[2] + c) >>> 0; H[3] = (H[3] + d) >>> 0;
      H[4] = (H[4] + e) >>> 0; H[5] = (H[5] + f) >>> 0; H[6] = (H[6] + g) >>> 0; H[7] = (H[7] + h) >>> 0;
    }
    for (let i = 0; i < 32; i++) DIGEST[i] = (H[i >>> 2] >>> (24 - 8 * (i & 3))) & 255;
  };

  return (text: string): string => {
    const keyByte = (i: number): number => (i < secret.length ? code[secret[i]] : 0);
    sha256((i) => (i < 64 ? keyByte(i) ^ 0x36 : code[text[i - 64]]), 64 + text.length);
    const inner = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 32; i++) inner[i] = DIGEST[i];
    sha256((i) => (i < 64 ? keyByte(i) ^ 0x5c : inner[i - 64]), 96);
    let out = '';
    for (let i = 0; i < 32; i++) out += HEX[DIGEST[i] >>> 4] + HEX[DIGEST[i] & 15];
    return out;
  };
}
