/**
 * A tiny dependency-free static file server on 127.0.0.1 with an ephemeral port, for the end-to-end
 * tests, the demo and the overhead benchmark.
 *
 * Each mount maps a URL prefix (`/classic/`) to a folder; a request for a folder serves its index.html
 * (and `/classic` redirects to `/classic/` so relative URLs resolve). Paths are confined to their mount
 * folder. Every response carries `Cache-Control: no-store` so a reload always sees the files on disk,
 * unless its mount says otherwise (`no-cache` also refetches, yet leaves a page eligible for the
 * browser's back-forward cache, which `no-store` rules out).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { renderVariant } from './page-variants';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The Content-Type for a file name (application/octet-stream when unknown). */
export function mimeTypeOf(fileName: string): string {
  return MIME_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

export interface Mount {
  /** URL prefix, starting and ending with "/", e.g. "/classic/". */
  readonly prefix: string;
  /** Folder on disk served under that prefix. */
  readonly dir: string;
  /** The Cache-Control header of its files (default `no-store`). */
  readonly cacheControl?: string;
  /** The page of a folder that has no index.html (e.g. a variant of another page: ./page-variants.ts), or null. */
  readonly renderIndex?: (folder: string) => Promise<string | null>;
}

export interface StaticServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function serveFile(mount: Mount, relativePath: string, res: ServerResponse, headOnly: boolean): Promise<void> {
  const root = resolve(mount.dir);
  let filePath = resolve(join(root, relativePath));
  if (filePath !== root && !filePath.startsWith(root + sep)) {
    send(res, 403, 'Forbidden');
    return;
  }
  try {
    const info = await stat(filePath);
    let body: Buffer | undefined;
    if (info.isDirectory()) {
      const folder = filePath;
      filePath = join(folder, 'index.html');
      let rendered: string | null = null;
      try {
        rendered = mount.renderIndex && !(await exists(filePath)) ? await mount.renderIndex(folder) : null;
      } catch (err) {
        send(res, 500, `The page of ${relativePath} could not be made: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
      if (rendered !== null) body = Buffer.from(rendered, 'utf8');
    }
    body ??= await readFile(filePath);
    res.writeHead(200, {
      'Content-Type': mimeTypeOf(filePath),
      'Content-Length': String(body.length),
      'Cache-Control': mount.cacheControl ?? 'no-store',
    });
    res.end(headOnly ? undefined : body);
  } catch {
    send(res, 404, 'Not found');
  }
}

function handle(mounts: readonly Mount[], req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
  } catch {
    send(res, 400, 'Bad request');
    return;
  }
  if (pathname.includes('\0')) {
    send(res, 400, 'Bad request');
    return;
  }
  for (const mount of mounts) {
    if (pathname === mount.prefix.slice(0, -1)) {
      send(res, 301, 'Moved', { Location: mount.prefix });
      return;
    }
    if (pathname.startsWith(mount.prefix)) {
      void serveFile(mount, pathname.slice(mount.prefix.length), res, req.method === 'HEAD');
      return;
    }
  }
  send(res, 404, 'Not found');
}

/** Start serving the mounts on 127.0.0.1 at a free port. */
export async function startStaticServer(mounts: readonly Mount[]): Promise<StaticServer> {
  for (const mount of mounts) {
    if (!mount.prefix.startsWith('/') || !mount.prefix.endsWith('/')) {
      throw new Error(`Mount prefix must start and end with "/": ${mount.prefix}`);
    }
  }
  const server = createServer((req, res) => handle(mounts, req, res));
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/**
 * The test pages' mounts: the fixture pages at `/pages/` and the harness's own (tests/e2e/pages) at
 * `/e2e-pages/`, where a folder with a page.json is a variant of a fixture page (./page-variants.ts).
 */
export function testPageMounts(repoRoot: string): Mount[] {
  const templates = [
    { prefix: '/pages/', dir: join(repoRoot, 'tests/fixtures/pages') },
    { prefix: '/e2e-pages/', dir: join(repoRoot, 'tests/e2e/pages') },
  ];
  return [templates[0], { ...templates[1], renderIndex: (folder) => renderVariant(folder, repoRoot, templates) }];
}
