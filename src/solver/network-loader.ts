/**
 * Reading the packaged network (models/4x6.ntn, an asset of the extension): the file fetched from the package
 * with its bytes counted for the progress line, its zlib payload inflated by the browser's own
 * DecompressionStream (native: several times faster than a JavaScript inflater on 30+ MB), and a failure turned
 * into the reason the pages show ("not enough memory", "did not load"). No DOM: it runs in the host document
 * and in the solver workers alike (both have fetch and DecompressionStream), and in Node under test.
 */
import { NetworkFormatError } from '../engine/index';
import type { DecompressAsync } from '../engine/index';
import { statusMessage } from '../shared/status-message';
import type { StatusMessage } from '../shared/status-message';

/** Bytes handed to the inflater at a time (progress moves by this much of the payload). */
const INFLATE_CHUNK_BYTES = 1 << 20;

/**
 * Fetch `url` and read it whole, calling `onProgress(bytes read, expected bytes)` as chunks arrive. Extension
 * resources carry no Content-Length, so the caller says how many bytes to expect (the build knows the file).
 */
export async function fetchNetworkFile(
  url: string,
  expectedBytes: number,
  onProgress: (read: number, expected: number) => void = () => undefined,
  fetchFile: (url: string) => Promise<Response> = (u) => fetch(u),
): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetchFile(url);
  } catch (err) {
    throw new NetworkLoadError(err instanceof Error ? err.message : String(err));
  }
  if (!response.ok || !response.body) throw new NetworkLoadError(`HTTP ${response.status}`);
  const reader = response.body.getReader();
  let buffer = new Uint8Array(Math.max(1, expectedBytes));
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (read + value.length > buffer.length) {
      const larger = new Uint8Array(Math.max(buffer.length * 2, read + value.length));
      larger.set(buffer.subarray(0, read));
      buffer = larger;
    }
    buffer.set(value, read);
    read += value.length;
    onProgress(read, Math.max(read, expectedBytes));
  }
  return buffer.subarray(0, read);
}

/** The browser's native zlib inflater ("deflate" is RFC 1950, zlib), reporting the share of input consumed. */
export function nativeInflate(onProgress: (fraction: number) => void = () => undefined): DecompressAsync {
  return async (bytes) => {
    const stream = new DecompressionStream('deflate');
    const writer = stream.writable.getWriter();
    const writing = (async () => {
      for (let at = 0; at < bytes.length; at += INFLATE_CHUNK_BYTES) {
        // A copy of each chunk: the stream takes ArrayBuffer-backed views only.
        await writer.write(bytes.slice(at, Math.min(bytes.length, at + INFLATE_CHUNK_BYTES)));
        onProgress(Math.min(1, (at + INFLATE_CHUNK_BYTES) / bytes.length));
      }
      await writer.close();
    })();
    // A corrupt stream fails both sides: the reader reports it, the writer's failure must not go unhandled.
    writing.catch(() => undefined);
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = stream.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
    await writing;
    const out = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  };
}

/** The network file could not be fetched (missing from the package, unreadable). */
export class NetworkLoadError extends Error {
  override name = 'NetworkLoadError';
}

/** The device reports too little memory to hold the network and the workers' tables (see networkFits). */
export class NetworkMemoryError extends Error {
  override name = 'NetworkMemoryError';
}

/**
 * Devices that report less memory than this (navigator.deviceMemory, in GiB; Chrome rounds it down to 0.25,
 * 0.5, 1, 2, 4 or 8) do not load the network: 128 MiB of weights a stage (256 with two) and the workers'
 * tables are too much there.
 */
const MIN_DEVICE_MEMORY_GIB = 2;

/** Does a device with `deviceMemoryGiB` (undefined: the browser does not say) hold the network? */
export function networkFits(deviceMemoryGiB: number | undefined): boolean {
  return deviceMemoryGiB === undefined || !(deviceMemoryGiB < MIN_DEVICE_MEMORY_GIB);
}

/** An allocation that failed: a typed array, a WebAssembly memory or its growth (the core traps). */
function isOutOfMemory(err: unknown): boolean {
  if (err instanceof NetworkMemoryError) return true;
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return /out of memory|allocat|could not grow|RangeError.*(buffer|memory)|unreachable/i.test(text);
}

/** Why the network is not in use, as the pages word it: not enough memory, or the load failed (and how). */
export function networkFailure(err: unknown): StatusMessage {
  if (isOutOfMemory(err)) return statusMessage('networkNoMemory');
  if (err instanceof NetworkFormatError || err instanceof NetworkLoadError) return statusMessage('networkLoadFailed', err.message);
  return statusMessage('networkLoadFailed', err instanceof Error ? err.message : String(err));
}
