/**
 * The Firefox manifest, derived from the one manifest.json (the Chrome manifest) at build time, so the two
 * builds never drift apart: same name, version, icons, popup, commands, content security policy and
 * host permissions; only what Firefox needs differently changes.
 *
 * - background: an event page (`background.scripts`) instead of a service worker; Firefox's MV3
 *   background can start Web Workers itself, so it needs no offscreen document;
 * - permissions: the Chrome build's minus `offscreen` and `sidePanel` (Chrome-only APIs), never one more;
 * - the panel beside the page: Chrome's `side_panel.default_path` becomes Firefox's
 *   `sidebar_action.default_panel` (the same page; its title and icon are the action's);
 * - browser_specific_settings.gecko: the add-on id, the oldest Firefox it was tested on, and the data
 *   collection declaration every new Firefox add-on carries (this one collects nothing);
 * - minimum_chrome_version is Chrome's own key: dropped; so are cross_origin_embedder_policy and
 *   cross_origin_opener_policy, which make Chrome's extension pages cross-origin isolated: Firefox does not
 *   isolate an add-on's pages with them (its event page reports crossOriginIsolated false either way, checked
 *   with firefox-esr 153), so its solver workers keep one copy of the network each.
 */

/** The add-on's id on addons.mozilla.org and in about:debugging (also the key of its storage). */
export const GECKO_ID = '2048-autopilot@2048-autopilot.github.io';

/**
 * The oldest Firefox the Firefox build was tested on: Debian's firefox-esr 153, which `npm test` drives
 * (MV3 event page with module workers, scripting.executeScript in the MAIN world, storage.session,
 * optional host permissions and the data collection declaration all exist there).
 */
export const FIREFOX_MIN_VERSION = '153.0';

/** Permissions Firefox does not know (Chrome-only APIs). */
const CHROME_ONLY_PERMISSIONS: ReadonlySet<string> = new Set(['offscreen', 'sidePanel']);

/** The manifest keys this transform reads or writes; every other key is copied as it is. */
export interface ManifestLike {
  readonly manifest_version: number;
  readonly background?: { readonly service_worker?: string; readonly scripts?: readonly string[]; readonly type?: string };
  readonly permissions?: readonly string[];
  readonly minimum_chrome_version?: string;
  readonly side_panel?: { readonly default_path?: string };
  readonly action?: { readonly default_title?: string; readonly default_icon?: unknown };
  readonly [key: string]: unknown;
}

export interface FirefoxManifest extends ManifestLike {
  readonly background: { readonly scripts: readonly string[]; readonly type?: string };
  readonly permissions: readonly string[];
  readonly sidebar_action?: { readonly default_panel: string; readonly default_title?: string; readonly default_icon?: unknown };
  readonly browser_specific_settings: {
    readonly gecko: {
      readonly id: string;
      readonly strict_min_version: string;
      readonly data_collection_permissions: { readonly required: readonly ['none'] };
    };
  };
}

/** The Firefox variant of an MV3 manifest whose background is a service worker (see the file comment). */
export function firefoxManifest(chrome: ManifestLike): FirefoxManifest {
  if (chrome.manifest_version !== 3) throw new Error(`firefoxManifest: expected a Manifest V3, got version ${chrome.manifest_version}`);
  const worker = chrome.background?.service_worker;
  if (!worker) throw new Error('firefoxManifest: the manifest has no background.service_worker to turn into an event page');
  const {
    minimum_chrome_version: _chromeOnly,
    cross_origin_embedder_policy: _embedder,
    cross_origin_opener_policy: _opener,
    side_panel: sidePanel,
    ...rest
  } = chrome;
  const panel = sidePanel?.default_path;
  return {
    ...rest,
    ...(panel
      ? {
          sidebar_action: {
            default_panel: panel,
            ...(chrome.action?.default_title ? { default_title: chrome.action.default_title } : {}),
            ...(chrome.action?.default_icon ? { default_icon: chrome.action.default_icon } : {}),
          },
        }
      : {}),
    background: { scripts: [worker], ...(chrome.background?.type ? { type: chrome.background.type } : {}) },
    permissions: (chrome.permissions ?? []).filter((permission) => !CHROME_ONLY_PERMISSIONS.has(permission)),
    browser_specific_settings: {
      gecko: {
        id: GECKO_ID,
        strict_min_version: FIREFOX_MIN_VERSION,
        data_collection_permissions: { required: ['none'] },
      },
    },
  };
}
