/**
 * Stands in for webextension-polyfill where there is no extension API: in Node (the vitest configs'
 * alias, package.json's `#webextension-polyfill` import for the CLI run by tsx, tsconfig.node.json's
 * paths for the demo) and in the solver's Web Workers (a build plugin in vite.config.ts). The real module
 * refuses to load there, and those places import the protocol module only for its schemas.
 *
 * A unit test that stubs a fake `chrome` global (vi.stubGlobal) gets it as `browser`: each use reads the
 * global at that moment. Any other use of the browser says so instead of passing.
 */
const noBrowser = new Proxy(
  {},
  {
    get(_target, name) {
      const chrome = (globalThis as { chrome?: Record<PropertyKey, unknown> }).chrome;
      if (chrome && typeof chrome === 'object' && name in chrome) return chrome[name];
      throw new Error(`no browser here (browser.${String(name)} was used outside an extension)`);
    },
  },
);

export default noBrowser;
