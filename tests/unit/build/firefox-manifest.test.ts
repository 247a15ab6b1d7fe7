import { describe, expect, it } from 'vitest';
import manifest from '../../../manifest.json';
import { FIREFOX_MIN_VERSION, GECKO_ID, firefoxManifest } from '../../../build/firefox-manifest';
import { findFirefox, firefoxPrefs } from '../../harness/firefox';
import { permissionHosts } from '../../../src/ui/status-view';

describe('firefoxManifest', () => {
  const firefox = firefoxManifest(manifest);

  it('turns the service worker into an event page script, keeping the module type', () => {
    expect(firefox.background).toEqual({ scripts: [manifest.background.service_worker], type: 'module' });
    expect('service_worker' in firefox.background).toBe(false);
  });

  it('declares the gecko id, the tested minimum version and that nothing is collected', () => {
    expect(firefox.browser_specific_settings.gecko).toEqual({
      id: GECKO_ID,
      strict_min_version: FIREFOX_MIN_VERSION,
      data_collection_permissions: { required: ['none'] },
    });
    expect(GECKO_ID).toMatch(/^[a-zA-Z0-9._-]+@[a-zA-Z0-9._-]+$/);
  });

  it('drops offscreen, sidePanel and Chrome-only keys and adds no permission', () => {
    expect(firefox.permissions).toEqual(manifest.permissions.filter((p) => p !== 'offscreen' && p !== 'sidePanel'));
    expect('side_panel' in firefox).toBe(false);
    expect(firefox.host_permissions).toEqual(manifest.host_permissions);
    expect(firefox.optional_host_permissions).toEqual(manifest.optional_host_permissions);
    expect('minimum_chrome_version' in firefox).toBe(false);
    // Firefox does not isolate an add-on's pages with them (its event page stays not isolated either way).
    expect('cross_origin_embedder_policy' in firefox).toBe(false);
    expect('cross_origin_opener_policy' in firefox).toBe(false);
    expect(firefox.commands).toEqual(manifest.commands);
    expect(firefox.content_security_policy).toEqual(manifest.content_security_policy);
  });

  it("shows the side panel's page as Firefox's sidebar, titled and drawn like the action", () => {
    expect(firefox.sidebar_action).toEqual({
      default_panel: manifest.side_panel.default_path,
      default_title: manifest.action.default_title,
      default_icon: manifest.action.default_icon,
    });
    const { side_panel: _none, ...withoutPanel } = manifest;
    expect('sidebar_action' in firefoxManifest(withoutPanel)).toBe(false);
  });

  it('refuses a manifest it cannot translate', () => {
    expect(() => firefoxManifest({ ...manifest, manifest_version: 2 })).toThrow(/Manifest V3/);
    expect(() => firefoxManifest({ ...manifest, background: { scripts: ['a.js'] } })).toThrow(/service_worker/);
  });
});

describe('Firefox launcher', () => {
  it('uses FIREFOX_PATH when it exists and reports none when it does not', () => {
    expect(findFirefox({ FIREFOX_PATH: process.execPath })).toBe(process.execPath);
    expect(findFirefox({ FIREFOX_PATH: '/no/such/firefox' })).toBeNull();
  });

  it('fixes the add-on UUID and controls whether hosts are granted at install', () => {
    const prefs = firefoxPrefs('a@b', '1234', false);
    expect(JSON.parse(String(prefs['extensions.webextensions.uuids']))).toEqual({ 'a@b': '1234' });
    expect(prefs['extensions.originControls.grantByDefault']).toBe(false);
  });
});

describe('what differs in Firefox at run time', () => {
  it('names the sites to allow in words', () => {
    expect(permissionHosts(['https://play2048.co/*', 'https://classic.play2048.co/*', 'http://127.0.0.1/*', 'http://localhost/*'])).toEqual([
      'play2048.co',
      'classic.play2048.co',
      '127.0.0.1',
      'localhost',
    ]);
    expect(permissionHosts(['https://*/*', 'http://*/*'])).toEqual(['*']);
  });
});
