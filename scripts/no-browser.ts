/**
 * Stands in for webextension-polyfill where there is no extension API: in Node (the vitest configs'
 * alias, tsconfig.node.json's paths for the scripts run by tsx) and in the solver's Web Workers (a build
 * plugin in vite.config.ts). The real module refuses to load there, and those places import the protocol
 * module only for its schemas. Any use of the browser from Node
 * says so instead of passing.
 */
const noBrowser = new Proxy(
  {},
  {
    get(_target, name) {
      throw new Error(`unit tests have no browser (browser.${String(name)} was used)`);
    },
  },
);

export default noBrowser;
