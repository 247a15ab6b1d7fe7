/** The width and height a PNG's header (its IHDR chunk) declares; throws when the bytes are no PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((byte, i) => bytes[i] !== byte)) throw new Error('not a PNG (signature)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') throw new Error('not a PNG (no IHDR first)');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
