/**
 * The endgame-table builder worker (issue 15): a module Web Worker of the solver host that builds the
 * tables it is asked for with the WebAssembly builder (build/tables.wasm, an asset of the package) and
 * hands each one back in its checksummed stored form, reporting progress on the way. It runs beside the
 * search workers, so play goes on (without tables) while it builds.
 */
import { TableBuilder } from '../engine/tables/builder';
import { layoutOf } from '../engine/tables/formation';
import { serializeTable } from '../engine/tables/store';
import tablesWasmUrl from '../engine/wasm/build/tables.wasm?url';
import { parseTablesWorkerRequest } from './tables-protocol';
import type { TablesWorkerRequest, TablesWorkerResponse } from './tables-protocol';

interface BuilderScope {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: TablesWorkerResponse, transfer?: Transferable[]): void;
}

const scope = self as unknown as BuilderScope;

async function build(request: TablesWorkerRequest): Promise<void> {
  try {
    const response = await fetch(tablesWasmUrl);
    if (!response.ok) throw new Error(`the table builder could not be loaded (HTTP ${response.status})`);
    const builder = new TableBuilder(await WebAssembly.compile(await response.arrayBuffer()));
    const weights = request.specs.map((spec) => {
      const layout = layoutOf(spec);
      return layout.chunkCount * layout.chunkSize;
    });
    const total = weights.reduce((a, b) => a + b, 0);
    let before = 0;
    let shown = -1;
    for (const [index, spec] of request.specs.entries()) {
      const report = builder.build(spec, ({ fraction }) => {
        const overall = (before + fraction * weights[index]!) / total;
        const percent = Math.floor(overall * 100);
        if (percent !== shown) {
          shown = percent;
          scope.postMessage({ type: 'progress', fraction: Math.min(1, overall) });
        }
      });
      before += weights[index]!;
      const bytes = serializeTable(report.table) as Uint8Array<ArrayBuffer>; // a fresh buffer of its own
      scope.postMessage({ type: 'table', index, bytes }, [bytes.buffer]);
    }
  } catch (err) {
    scope.postMessage({ type: 'error', error: err instanceof Error ? err.message : String(err) });
  }
}

scope.onmessage = (event: MessageEvent) => {
  const request = parseTablesWorkerRequest(event.data);
  if (request) void build(request);
};
