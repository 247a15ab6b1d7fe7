/**
 * Reading the packaged network: the file fetched whole with its bytes counted, the browser's native inflater
 * (DecompressionStream, which Node has too) with its progress, and a failure turned into the reason the pages
 * show.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NetworkFormatError } from '../../../src/engine/index';
import { NetworkLoadError, NetworkMemoryError, fetchNetworkFile, nativeInflate, networkFailure, networkFits } from '../../../src/solver/network-loader';

function bytes(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A response whose body arrives in `chunks` pieces, without a Content-Length (as extension resources come). */
function chunked(data: Uint8Array, chunks: number): Response {
  const size = Math.ceil(data.length / chunks);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= data.length) controller.close();
      else {
        controller.enqueue(data.slice(at, at + size));
        at += size;
      }
    },
  });
  return new Response(body);
}

describe('fetchNetworkFile', () => {
  it('reads the whole file, counting the bytes as they come', async () => {
    const data = bytes(100_000);
    const seen: [number, number][] = [];
    const file = await fetchNetworkFile('x.ntn', data.length, (read, expected) => seen.push([read, expected]), async () => chunked(data, 7));
    expect(file).toEqual(data);
    expect(seen).toHaveLength(7);
    expect(seen.map(([read]) => read)).toEqual([...seen.map(([read]) => read)].sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual([data.length, data.length]);
  });

  it('copes with a file longer than expected', async () => {
    const data = bytes(5_000);
    const file = await fetchNetworkFile('x.ntn', 1_000, () => undefined, async () => chunked(data, 3));
    expect(file).toEqual(data);
  });

  it('says why a file cannot be read: an HTTP status, or the fetch’s own failure', async () => {
    await expect(fetchNetworkFile('x.ntn', 10, () => undefined, async () => new Response(null, { status: 404 }))).rejects.toThrow(new NetworkLoadError('HTTP 404'));
    await expect(fetchNetworkFile('x.ntn', 10, () => undefined, () => Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow(NetworkLoadError);
    await expect(fetchNetworkFile('x.ntn', 10, () => undefined, () => Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow('Failed to fetch');
  });
});

describe('nativeInflate', () => {
  it('inflates a zlib stream, reporting the share of the input it has taken', async () => {
    const data = bytes(3_000_000);
    const fractions: number[] = [];
    const out = await nativeInflate((f) => fractions.push(f))(new Uint8Array(deflateSync(data)));
    expect(Buffer.from(out).equals(Buffer.from(data))).toBe(true); // toEqual walks 3 MB element by element: seconds
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('fails on a corrupt stream', async () => {
    await expect(nativeInflate()(bytes(1_000))).rejects.toThrow();
  });
});

describe('why the network is not in use', () => {
  it('an allocation that failed is "not enough memory"', () => {
    expect(networkFailure(new RangeError('Array buffer allocation failed'))).toEqual({ code: 'networkNoMemory' });
    expect(networkFailure(new RangeError('WebAssembly.Memory(): could not allocate memory'))).toEqual({ code: 'networkNoMemory' });
    expect(networkFailure(new NetworkMemoryError('the device reports 1 GiB'))).toEqual({ code: 'networkNoMemory' });
  });

  it('anything else is "did not load", with the failure’s own text', () => {
    expect(networkFailure(new NetworkFormatError('the network file is corrupt (header checksum mismatch)'))).toEqual({
      code: 'networkLoadFailed',
      params: ['the network file is corrupt (header checksum mismatch)'],
    });
    expect(networkFailure(new NetworkLoadError('HTTP 404'))).toEqual({ code: 'networkLoadFailed', params: ['HTTP 404'] });
    expect(networkFailure('odd')).toEqual({ code: 'networkLoadFailed', params: ['odd'] });
  });

  it('a device that reports less than 2 GiB does not load it; one that does not say does', () => {
    expect(networkFits(undefined)).toBe(true);
    expect(networkFits(0.5)).toBe(false);
    expect(networkFits(1)).toBe(false);
    expect(networkFits(2)).toBe(true);
    expect(networkFits(8)).toBe(true);
  });
});
