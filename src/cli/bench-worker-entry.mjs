// Entry of a bench worker thread. Node 20 does not run tsx's `--import` hooks for a worker's entry module
// (nodejs/node#47747, privatenumber/tsx#354), so this plain module loads the TypeScript worker with tsx's
// documented API, tsImport.
import { tsImport } from 'tsx/esm/api';

await tsImport('./bench-worker.ts', import.meta.url);
