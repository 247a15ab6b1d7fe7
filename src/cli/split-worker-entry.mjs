// Entry of a split-search worker thread (see bench-worker-entry.mjs for why it loads the TypeScript with tsImport).
import { tsImport } from 'tsx/esm/api';

await tsImport('./split-worker.ts', import.meta.url);
