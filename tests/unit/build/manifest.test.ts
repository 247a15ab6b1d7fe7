import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shortcutKeys } from '../../../src/ui/status-view';

const manifest = JSON.parse(readFileSync(new URL('../../../manifest.json', import.meta.url), 'utf8')) as {
  manifest_version: number;
  permissions: string[];
  host_permissions: string[];
  optional_host_permissions: string[];
  content_security_policy: { extension_pages: string };
  commands: Record<string, { suggested_key?: { default?: string } }>;
  icons: Record<string, string>;
  action: { default_popup: string };
};

describe('manifest.json', () => {
  it('is MV3 with the few permissions it needs', () => {
    expect(manifest.manifest_version).toBe(3);
    expect([...manifest.permissions].sort()).toEqual(['activeTab', 'offscreen', 'scripting', 'sidePanel', 'storage']);
    // No standing host access: activeTab covers every gesture-started run; the loopback hosts the tests
    // need are added by the test builds only (build/test-builds.mjs).
    expect(manifest.host_permissions).toEqual([]);
    expect(manifest.optional_host_permissions).toEqual(['https://*/*', 'http://*/*']);
    expect(JSON.stringify(manifest)).not.toMatch(/<all_urls>|"tabs"|debugger|externally_connectable/);
  });

  it('declares the side panel and the shortcut that opens it', () => {
    const full = manifest as unknown as { side_panel: { default_path: string } };
    expect(full.side_panel.default_path).toBe('src/ui/panel/index.html');
    expect(manifest.commands['open-panel'].suggested_key?.default).toBe('Alt+Shift+P');
  });

  it('makes the extension pages cross-origin isolated (the offscreen document shares one memory with its workers)', () => {
    const full = manifest as unknown as Record<string, { value: string }>;
    expect(full.cross_origin_embedder_policy).toEqual({ value: 'require-corp' });
    expect(full.cross_origin_opener_policy).toEqual({ value: 'same-origin' });
  });

  it('has a strict CSP for extension pages: no plugins, no connection beyond the extension itself, WebAssembly kept', () => {
    const directives = new Map(
      manifest.content_security_policy.extension_pages.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect([...directives.keys()].sort()).toEqual(['connect-src', 'object-src', 'script-src']);
  });

  it('declares the keyboard commands', () => {
    expect(manifest.commands['toggle-solve'].suggested_key?.default).toBe('Alt+Shift+S');
    expect(manifest.commands.step.suggested_key?.default).toBe('Alt+Shift+Period');
    expect(manifest.commands._execute_action).toBeDefined();
  });

  it('has the popup show, before the browser says which keys are bound, the keys the manifest suggests', () => {
    const html = readFileSync(new URL('../../../src/ui/popup/index.html', import.meta.url), 'utf8');
    const shown = [...html.matchAll(/<span class="shortcut" data-command="([\w-]+)">(.*?)<\/span>/g)];
    expect(shown.map((m) => m[1]).sort()).toEqual(Object.keys(manifest.commands).sort());
    for (const [, command, keys] of shown) {
      const fallback = [...keys.matchAll(/<kbd>(.*?)<\/kbd>/g)].map((m) => m[1]);
      expect(fallback, command).toEqual(shortcutKeys(manifest.commands[command].suggested_key?.default));
    }
  });

  it('points at the popup the tests open and at existing icons', () => {
    expect(manifest.action.default_popup).toBe('src/ui/popup/index.html');
    for (const size of ['16', '32', '48', '128']) {
      const png = readFileSync(new URL(`../../../${manifest.icons[size]}`, import.meta.url));
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(Number(size)); // IHDR width
    }
  });
});
