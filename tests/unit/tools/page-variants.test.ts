/**
 * The e2e pages that are the play2048-like fixture with scripts of their own (tests/e2e/pages/<name>/page.json),
 * served from one template: each variant's scripts in their places, the template's game and styles by absolute
 * URL (never a copy), and a folder without page.json served as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { renderVariant } from '../../harness/page-variants';
import { startStaticServer, testPageMounts } from '../../harness/static-server';
import type { StaticServer } from '../../harness/static-server';

const ROOT = resolve(import.meta.dirname, '../../..');
let server: StaticServer;

beforeAll(async () => {
  server = await startStaticServer(testPageMounts(ROOT));
});
afterAll(() => server.close());

async function page(path: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${server.origin}${path}`);
  return { status: response.status, html: await response.text() };
}

/** The template's markup without comments and scripts: what every variant must keep. */
function markup(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .filter((line) => !line.includes('<script'))
    .join('\n')
    .replace(/"\.\/assets\//g, '"/pages/play2048-like/assets/');
}

describe('e2e page variants', () => {
  it('agent-count: agents.js before any other script, the game modules, then count.js; the template markup unchanged', async () => {
    const { status, html } = await page('/e2e-pages/agent-count/');
    expect(status).toBe(200);
    const scripts = [...html.matchAll(/<script([^>]*)><\/script>/g)].map((m) => m[1].trim());
    expect(scripts).toEqual([
      'src="./agents.js"',
      'type="module" src="/pages/play2048-like/assets/consent-Cx81mPq2.js"',
      'type="module" crossorigin src="/pages/play2048-like/assets/index-Dq3x7Kfa.js"',
      'type="module" src="./count.js"',
    ]);
    const template = await readFile(join(ROOT, 'tests/fixtures/pages/play2048-like/index.html'), 'utf8');
    expect(markup(html)).toBe(markup(template));
    expect(html).toContain('counting the autopilot');
  });

  it("store-throws: store.js in place of the template's module scripts", async () => {
    const { html } = await page('/e2e-pages/store-throws/');
    const scripts = [...html.matchAll(/<script([^>]*)><\/script>/g)].map((m) => m[1].trim());
    expect(scripts).toEqual(['type="module" src="./store.js"']);
  });

  it('a folder with its own index.html is served as it is; a bad page.json is a 500 that says why', async () => {
    const plain = await page('/e2e-pages/plain/');
    expect(plain.html).toBe(await readFile(join(ROOT, 'tests/e2e/pages/plain/index.html'), 'utf8'));
    expect((await page('/e2e-pages/no-such-page/')).status).toBe(404);
    const dir = await mkdtemp(join(tmpdir(), 'variants-'));
    await mkdir(join(dir, 'bad'));
    await writeFile(join(dir, 'bad/page.json'), JSON.stringify({ of: 'tests/fixtures/pages/play2048-like', about: 'x', extra: 1 }));
    const other = await startStaticServer([{ prefix: '/v/', dir, renderIndex: (folder) => renderVariant(folder, ROOT, testPageMounts(ROOT)) }]);
    try {
      const response = await fetch(`${other.origin}/v/bad/`);
      expect(response.status).toBe(500);
      expect(await response.text()).toContain('extra');
    } finally {
      await other.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
