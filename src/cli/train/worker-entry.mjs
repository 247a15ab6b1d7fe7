// Entry of a trainer thread (see ../bench-worker-entry.mjs for why it loads the TypeScript with tsImport).
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
