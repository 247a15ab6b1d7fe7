/**
 * Endgame tables in the solver host (issue 15). On the first request the host asks `ensure()`: the tables
 * are read from IndexedDB (src/solver/table-store.ts); those missing or broken are built by a builder
 * worker (src/solver/tables-worker.ts) in the background and stored. Nothing waits for them: until they
 * are ready every move is searched, and each answer carries the tables' status (building and its
 * percent, ready, failed) for the popup. Once ready, a 4x4 expectimax request asks the tables first: when one fits the
 * board with success probability ≥ the handover threshold, its move is the answer (no search).
 *
 * The tables live once, in the host (the offscreen document), not in every search worker. Nothing here
 * touches the DOM or chrome.*: the store and the builder worker are injected (fakes in unit tests).
 */
import { legalMoves } from '../engine/index';
import type { MoveChoice, SearchOptions, StrategyName } from '../engine/types';
import type { Grid } from '../engine/types';
import { STANDARD_TABLE_SPECS, exactSpec } from '../engine/tables/formation';
import type { TableSpec } from '../engine/tables/formation';
import { TableStoreError, parseTable } from '../engine/tables/store';
import { lookup } from '../engine/tables/table';
import type { EndgameTable } from '../engine/tables/table';
import type { TablesStatus } from '../shared/messages';
import { parseTablesWorkerResponse } from './tables-protocol';
import type { TablesWorkerRequest } from './tables-protocol';
import type { StoredTable } from './table-store';

/** The handover threshold: the table plays when its success probability is at least this (README). */
export const TABLE_THRESHOLD = 0.5;

/** The extension's tables: those of the CLI (rows8 for anchors 32..512, block6 for 32 and 64), 102 MiB. */
export const EXTENSION_TABLE_SPECS: readonly TableSpec[] = STANDARD_TABLE_SPECS;

/** The test build's tables (dist-e2e): rows8 for anchors 32..256, built in seconds. */
export const TEST_TABLE_SPECS: readonly TableSpec[] = [exactSpec('rows8', 5), exactSpec('rows8', 6), exactSpec('rows8', 7), exactSpec('rows8', 8)];

/** The part of a Web Worker the builder needs (a real `Worker` fits). */
export interface BuilderWorker {
  postMessage(message: TablesWorkerRequest): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface TablesStoreLike {
  load(spec: TableSpec): Promise<StoredTable>;
  save(table: EndgameTable): Promise<void>;
}

export interface EndgameDeps {
  readonly specs: readonly TableSpec[];
  /** Opens the store; a store that cannot be opened means tables built for this session only. */
  openStore(): Promise<TablesStoreLike>;
  createBuilder(): BuilderWorker;
  readonly threshold?: number;
  /** Told of each change of status (tests, logging). */
  onChange?(status: TablesStatus): void;
  log?(text: string): void;
}

export class EndgameTables {
  private state: TablesStatus['state'] | 'idle' = 'idle';
  private percent = 0;
  private tables: EndgameTable[] = [];
  private started: Promise<void> | null = null;
  private builder: BuilderWorker | null = null;

  constructor(private readonly deps: EndgameDeps) {}

  /** Start loading / building once (returns at once; `whenSettled` waits for the end). */
  ensure(): void {
    if (!this.started) this.started = this.run();
  }

  /** Resolves when the tables are ready or failed (after `ensure`). */
  whenSettled(): Promise<void> {
    this.ensure();
    return this.started as Promise<void>;
  }

  /** The status for the popup; undefined before `ensure`. */
  status(): TablesStatus | undefined {
    if (this.state === 'idle') return undefined;
    return { state: this.state, percent: this.percent };
  }

  /** True while the tables are being prepared (the host stays open meanwhile). */
  get building(): boolean {
    return this.state === 'building';
  }

  /**
   * The table's move for a request, or null (search instead): 4x4 expectimax only, not in the reference
   * mode, not for a part of a split search (rootMoves), and only when a table fits with p ≥ threshold.
   */
  choose(strategy: StrategyName, board: Grid, options: SearchOptions): MoveChoice | null {
    if (this.state !== 'ready' || strategy !== 'expectimax' || options.reference || options.rootMoves) return null;
    if (board.rows !== 4 || board.cols !== 4) return null;
    const started = performance.now();
    const hit = lookup(this.tables, board);
    if (!hit || hit.probability < (this.deps.threshold ?? TABLE_THRESHOLD) || !legalMoves(board).includes(hit.move)) return null;
    return { strategy, move: hit.move, values: { [hit.move]: hit.probability }, depth: 0, nodes: 0, ms: performance.now() - started, table: true };
  }

  dispose(): void {
    this.builder?.terminate();
    this.builder = null;
  }

  private setStatus(state: TablesStatus['state'], percent: number): void {
    this.state = state;
    this.percent = Math.max(0, Math.min(100, Math.floor(percent)));
    this.deps.onChange?.({ state: this.state, percent: this.percent });
  }

  private async run(): Promise<void> {
    this.setStatus('building', 0);
    let store: TablesStoreLike | null = null;
    try {
      store = await this.deps.openStore();
    } catch (err) {
      this.deps.log?.(`endgame tables: no store (${err instanceof Error ? err.message : String(err)}); building for this session`);
    }
    const found: (EndgameTable | null)[] = [];
    for (const spec of this.deps.specs) {
      let stored: StoredTable = { table: null, reason: 'no store' };
      if (store) {
        try {
          stored = await store.load(spec);
        } catch (err) {
          stored = { table: null, reason: err instanceof Error ? err.message : String(err) };
        }
      }
      if (!stored.table) this.deps.log?.(`endgame table ${spec.formation}/${2 ** spec.goal}: rebuilding (${stored.reason})`);
      found.push(stored.table);
    }
    const missing = this.deps.specs.filter((_, i) => !found[i]);
    if (missing.length > 0) {
      try {
        const built = await this.build(missing);
        let next = 0;
        for (let i = 0; i < found.length; i++) if (!found[i]) found[i] = built[next++]!;
        if (store) {
          for (const table of built) {
            await store.save(table).catch((err: unknown) => this.deps.log?.(`endgame tables: not stored (${err instanceof Error ? err.message : String(err)})`));
          }
        }
      } catch (err) {
        this.deps.log?.(`endgame tables: the build failed (${err instanceof Error ? err.message : String(err)})`);
        this.setStatus('failed', this.percent);
        return;
      }
    }
    this.tables = found as EndgameTable[];
    this.setStatus('ready', 100);
  }

  private build(specs: readonly TableSpec[]): Promise<EndgameTable[]> {
    return new Promise((resolve, reject) => {
      const worker = this.deps.createBuilder();
      this.builder = worker;
      const tables: (EndgameTable | null)[] = specs.map(() => null);
      const finish = (error: Error | null): void => {
        worker.onmessage = null;
        worker.onerror = null;
        worker.terminate();
        if (this.builder === worker) this.builder = null;
        if (error) reject(error);
        else resolve(tables as EndgameTable[]);
      };
      worker.onerror = () => finish(new Error('the table builder crashed'));
      worker.onmessage = (event) => {
        const message = parseTablesWorkerResponse(event.data);
        if (!message) return;
        if (message.type === 'error') finish(new Error(message.error));
        else if (message.type === 'progress') this.setStatus('building', message.fraction * 100);
        else {
          const spec = specs[message.index];
          if (!spec) return finish(new Error('the table builder answered for a table it was not asked for'));
          try {
            tables[message.index] = parseTable(message.bytes, spec);
          } catch (err) {
            return finish(err instanceof TableStoreError ? new Error(`the built table is broken: ${err.message}`) : (err as Error));
          }
          if (tables.every((table) => table !== null)) finish(null);
        }
      };
      worker.postMessage({ type: 'build', specs: [...specs] });
    });
  }
}

/**
 * A host's answer to one request with the tables in front: starts them on first use, answers with the
 * table's move when one applies, else with `search()`; the answer carries the tables' status.
 */
export async function solveWithTables<A extends { readonly choice: MoveChoice }>(
  tables: EndgameTables,
  request: { readonly strategy: StrategyName; readonly board: Grid; readonly options: SearchOptions },
  search: () => Promise<A>,
): Promise<A | (A & { tables: TablesStatus })> {
  tables.ensure();
  const choice = tables.choose(request.strategy, request.board, request.options);
  const answer = choice ? ({ choice } as A) : await search();
  const status = tables.status();
  return status ? { ...answer, tables: status } : answer;
}
