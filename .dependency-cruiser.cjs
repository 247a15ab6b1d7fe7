/**
 * The direction of imports in src/ (docs: architecture.md, "Layers"), checked by `npm run lint`:
 *
 *   engine ← coach ← shared ← platform          (pure, then the browser API)
 *   engine, shared ← solver ← {content, page, background, offscreen} ← ui (popup, panel and what they share)
 *   engine, solver, shared ← cli
 *
 * Each layer may import only the layers listed for it below (and npm packages); src/ never imports the
 * build helpers, benchmarks, tools or tests. Imports that only a bundler resolves (`?url`, `?script`) are
 * not files to check.
 */
const LAYERS = {
  engine: ['engine'],
  coach: ['engine', 'coach'],
  shared: ['engine', 'coach', 'shared'],
  platform: ['engine', 'shared', 'platform'],
  solver: ['engine', 'shared', 'solver'],
  page: ['engine', 'shared', 'page'],
  content: ['engine', 'coach', 'shared', 'platform', 'content'],
  offscreen: ['engine', 'shared', 'platform', 'solver', 'offscreen'],
  background: ['engine', 'shared', 'platform', 'solver', 'page', 'background'],
  ui: ['engine', 'coach', 'shared', 'platform', 'ui'],
  cli: ['engine', 'coach', 'shared', 'solver', 'cli'],
};

/** Files a layer names for the bundler rather than imports: the background injects the content script's
 *  built file into a tab (`import contentScript from '../content/index.ts?script'`: its URL); the documents
 *  page shows the project's own texts (`import changelog from '../../../CHANGELOG.md?raw'`: their words); the
 *  solver host fetches the packaged network (`import networkUrl from '../../models/4x6.ntn?url'`). */
const INJECTED = {
  background: ['^src/content/index\\.ts$'],
  ui: ['^(CHANGELOG\\.md|PRIVACY\\.md|LICENSE)$'],
  solver: ['^models/4x6\\.ntn$'],
};

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => ({
  name: `${layer}-imports-only-${allowed.join('-')}`,
  comment: `src/${layer}/ may import only ${allowed.map((name) => `src/${name}/`).join(', ')} and npm packages`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: {
    pathNot: [`^src/(${allowed.join('|')})/`, '(^|/)node_modules/', ...(INJECTED[layer] ?? [])],
    dependencyTypesNot: ['core'],
    couldNotResolve: false,
  },
}));

/** Node's own modules: only the CLI runs in Node. */
const nodeOnlyInCli = {
  name: 'node-modules-only-in-cli',
  comment: 'only src/cli/ (and the polyfill stand-in) may import node: modules; the rest runs in a browser',
  severity: 'error',
  from: { path: '^src/', pathNot: ['^src/cli/', '^src/platform/no-browser\\.ts$'] },
  to: { dependencyTypes: ['core'] },
};

/** The popup and the side panel share what lies in src/ui/ itself, never each other's files. */
const uiPages = [
  { name: 'popup-not-panel', severity: 'error', from: { path: '^src/ui/popup/' }, to: { path: '^src/ui/panel/' } },
  { name: 'panel-not-popup', severity: 'error', from: { path: '^src/ui/panel/' }, to: { path: '^src/ui/popup/' } },
  { name: 'ui-shared-not-pages', severity: 'error', from: { path: '^src/ui/[^/]+$' }, to: { path: '^src/ui/(popup|panel)/' } },
];

module.exports = {
  forbidden: [...layerRules, nodeOnlyInCli, ...uiPages],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/engine/wasm/(assembly|build)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
