/**
 * The e2e tooling itself, without a browser: the static server (MIME types, index pages, redirects,
 * confinement to the mounted folder) and the browser lookup.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_BROWSER_MESSAGE, chromiumArgs, findChromium } from '../harness/chromium';
import { mimeTypeOf, startStaticServer } from '../harness/static-server';
import type { StaticServer } from '../harness/static-server';

let root: string;
let server: StaticServer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'static-server-test-'));
  mkdirSync(join(root, 'site/js'), { recursive: true });
  writeFileSync(join(root, 'site/index.html'), '<!DOCTYPE html><title>home</title>');
  writeFileSync(join(root, 'site/js/app.js'), 'export const answer = 42;');
  writeFileSync(join(root, 'secret.txt'), 'not served');
  server = await startStaticServer([{ prefix: '/game/', dir: join(root, 'site') }]);
});

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('static server', () => {
  it('listens on 127.0.0.1 at an ephemeral port', () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('serves JavaScript modules with a JavaScript MIME type', async () => {
    const res = await fetch(`${server.origin}/game/js/app.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await res.text()).toBe('export const answer = 42;');
  });

  it('serves a folder index and redirects the bare prefix', async () => {
    const index = await fetch(`${server.origin}/game/`);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await index.text()).toContain('<title>home</title>');
    const bare = await fetch(`${server.origin}/game`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/game/');
  });

  it('answers 404 outside the mounts and never leaves the mounted folder', async () => {
    expect((await fetch(`${server.origin}/other/`)).status).toBe(404);
    expect((await fetch(`${server.origin}/game/missing.js`)).status).toBe(404);
    const escaped = await fetch(`${server.origin}/game/..%2Fsecret.txt`);
    expect(escaped.status).toBe(403);
    expect(await escaped.text()).not.toContain('not served');
  });

  it('knows the usual MIME types', () => {
    expect(mimeTypeOf('a.mjs')).toMatch(/^text\/javascript/);
    expect(mimeTypeOf('a.CSS')).toMatch(/^text\/css/);
    expect(mimeTypeOf('a.woff2')).toBe('font/woff2');
    expect(mimeTypeOf('a.unknown')).toBe('application/octet-stream');
  });
});

describe('browser lookup', () => {
  it('uses CHROME_PATH when it exists and reports none when it does not', () => {
    expect(findChromium({ CHROME_PATH: process.execPath })).toBe(process.execPath);
    expect(findChromium({ CHROME_PATH: join(root, 'no-such-browser') })).toBeNull();
    expect(MISSING_BROWSER_MESSAGE).toContain('apt-get install -y chromium');
  });

  it('loads exactly the given extension', () => {
    const args = chromiumArgs('/x/dist');
    expect(args).toContain('--load-extension=/x/dist');
    expect(args).toContain('--disable-extensions-except=/x/dist');
  });
});
