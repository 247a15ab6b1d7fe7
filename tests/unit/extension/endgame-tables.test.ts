/**
 * The extension's endgame tables (issue 15): the IndexedDB store (fake-indexeddb) never trusts a broken
 * record, the host builds only what is missing in a builder worker (here a fake one running the real
 * WebAssembly builder in this thread), play is never held up meanwhile, and a ready table answers a 4x4
 * expectimax request on a board that fits its formation.
 */
import { readFileSync } from 'node:fs';
import { IDBFactory } from 'fake-indexeddb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Grid, MoveChoice } from '../../../src/engine/index';
import { TableBuilder } from '../../../src/engine/tables/builder';
import { fullSum } from '../../../src/engine/tables/formation';
import type { TableSpec } from '../../../src/engine/tables/formation';
import { TABLE_FORMAT_VERSION, serializeTable } from '../../../src/engine/tables/store';
import type { EndgameTable } from '../../../src/engine/tables/table';
import { TablesStatusSchema } from '../../../src/shared/messages';
import type { TablesStatus } from '../../../src/shared/messages';
import { EndgameTables, solveWithTables } from '../../../src/solver/endgame';
import type { BuilderWorker } from '../../../src/solver/endgame';
import { TableStore } from '../../../src/solver/table-store';
import type { TablesWorkerRequest, TablesWorkerResponse } from '../../../src/solver/tables-protocol';
import { TABLES_WASM_FILE } from '../../../src/cli/wasm-files';

const exact = (formation: TableSpec['formation'], goal: number): TableSpec => ({ formation, goal, maxSum: fullSum({ formation, goal, maxSum: 0 }) });
const ROWS8_32 = exact('rows8', 5);
const TINY4 = exact('tiny4', 5);
const SPECS = [ROWS8_32, TINY4];

/** A board in the rows8 formation, anchor 32, two 16s next to it: "left" merges them into the goal. */
const FITTING: Grid = { rows: 4, cols: 4, cells: [4096, 2048, 1024, 512, 32, 64, 128, 256, 16, 16, 0, 0, 0, 0, 0, 0] };

let wasm: Buffer;
const built = new Map<string, EndgameTable>();
beforeAll(() => {
  wasm = readFileSync(TABLES_WASM_FILE);
  const builder = new TableBuilder(wasm);
  for (const spec of SPECS) built.set(spec.formation, builder.build(spec).table);
});

/** A builder worker that runs the real builder here, answering as src/solver/tables-worker.ts does. */
class FakeBuilder implements BuilderWorker {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  requests: TablesWorkerRequest[] = [];
  terminated = false;
  constructor(private readonly fail = false) {}
  postMessage(message: TablesWorkerRequest): void {
    this.requests.push(message);
    setTimeout(() => {
      const post = (data: TablesWorkerResponse): void => this.onmessage?.({ data });
      if (this.fail) return post({ type: 'error', error: 'out of memory' });
      const builder = new TableBuilder(wasm);
      message.specs.forEach((spec, index) => {
        const report = builder.build(spec, ({ fraction }) => post({ type: 'progress', fraction: (index + fraction) / message.specs.length }));
        post({ type: 'table', index, bytes: serializeTable(report.table) as Uint8Array<ArrayBuffer> });
      });
    }, 0);
  }
  terminate(): void {
    this.terminated = true;
  }
}

let factory: IDBFactory;
beforeEach(() => {
  factory = new IDBFactory();
});

function host(builders: FakeBuilder[], statuses: TablesStatus[] = [], fail = false): EndgameTables {
  return new EndgameTables({
    specs: SPECS,
    openStore: () => TableStore.open(factory),
    createBuilder: () => {
      const builder = new FakeBuilder(fail);
      builders.push(builder);
      return builder;
    },
    onChange: (status) => statuses.push(status),
  });
}

describe('the IndexedDB table store', () => {
  it('gives back what it stored, checked', async () => {
    const store = await TableStore.open(factory);
    const table = built.get('rows8')!;
    await store.save(table);
    const loaded = await store.load(ROWS8_32);
    expect(loaded.table).not.toBeNull();
    expect(Array.from(loaded.table!.directory)).toEqual(Array.from(table.directory));
    expect(loaded.table!.entries).toEqual(table.entries);
    expect(await store.load(TINY4)).toEqual({ table: null, reason: 'not stored yet' });
    store.close();
  });

  it.each([
    ['a flipped entry byte', (b: Uint8Array) => { b[b.length - 1] ^= 1; return b; }, /checksum/],
    ['a cut-off record (a partial write)', (b: Uint8Array) => b.slice(0, b.length - 100), /truncated|size/],
    ['another format version', (b: Uint8Array) => { new DataView(b.buffer).setUint32(8, TABLE_FORMAT_VERSION + 1, true); return b; }, /format version/],
    ['a table of another goal', (b: Uint8Array) => { new DataView(b.buffer).setUint32(16, 6, true); return b; }, /another formation, goal/],
    ['not a table', () => new TextEncoder().encode('hello'), /bad magic/],
  ])('rejects %s and deletes the record', async (_name, spoil, reason) => {
    const store = await TableStore.open(factory);
    await store.saveBytes(ROWS8_32, spoil(serializeTable(built.get('rows8')!)));
    const loaded = await store.load(ROWS8_32);
    expect(loaded.table).toBeNull();
    expect(loaded.table === null && loaded.reason).toMatch(reason);
    expect(await store.load(ROWS8_32)).toEqual({ table: null, reason: 'not stored yet' });
    store.close();
  });

  it('rejects a record that is not bytes', async () => {
    const store = await TableStore.open(factory);
    await store.saveBytes(ROWS8_32, 'a string');
    expect(await store.load(ROWS8_32)).toEqual({ table: null, reason: 'the stored record is not table bytes' });
    store.close();
  });
});

describe('the endgame tables of the solver host', () => {
  it('builds what is missing in the background, stores it, and loads it next time without building', async () => {
    const builders: FakeBuilder[] = [];
    const statuses: TablesStatus[] = [];
    const tables = host(builders, statuses);
    expect(tables.status()).toBeUndefined();
    tables.ensure();
    expect(tables.status()).toEqual({ state: 'building', percent: 0 });
    expect(tables.choose('expectimax', FITTING, {})).toBeNull();
    await tables.whenSettled();
    expect(tables.status()).toEqual({ state: 'ready', percent: 100 });
    expect(builders).toHaveLength(1);
    expect(builders[0]!.requests).toEqual([{ type: 'build', specs: SPECS }]);
    expect(builders[0]!.terminated).toBe(true);
    const percents = statuses.filter((s) => s.state === 'building').map((s) => s.percent);
    expect(percents.length).toBeGreaterThan(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    for (const status of statuses) expect(TablesStatusSchema.safeParse(status).success).toBe(true);

    const again: FakeBuilder[] = [];
    const next = host(again);
    await next.whenSettled();
    expect(again).toHaveLength(0);
    expect(next.status()).toEqual({ state: 'ready', percent: 100 });
  });

  it('rebuilds only the table whose record is broken', async () => {
    const store = await TableStore.open(factory);
    await store.save(built.get('tiny4')!);
    const bytes = serializeTable(built.get('rows8')!);
    bytes[bytes.length - 5] ^= 0x40;
    await store.saveBytes(ROWS8_32, bytes);
    store.close();
    const builders: FakeBuilder[] = [];
    const tables = host(builders);
    await tables.whenSettled();
    expect(builders).toHaveLength(1);
    expect(builders[0]!.requests[0]!.specs).toEqual([ROWS8_32]);
    expect(tables.choose('expectimax', FITTING, {})?.move).toBe('left');
  });

  it('answers a fitting 4x4 expectimax board from the table, and nothing else', async () => {
    const tables = host([]);
    await tables.whenSettled();
    const choice = tables.choose('expectimax', FITTING, { timeMs: 20 });
    expect(choice).toMatchObject({ strategy: 'expectimax', move: 'left', values: { left: 1 }, depth: 0, nodes: 0, table: true });
    // Every orientation: the board mirrored left-right fits too, and the move is mirrored.
    const mirrored: Grid = { rows: 4, cols: 4, cells: [0, 1, 2, 3].flatMap((r) => FITTING.cells.slice(4 * r, 4 * r + 4).reverse()) };
    expect(tables.choose('expectimax', mirrored, {})?.move).toBe('right');
    expect(tables.choose('expectimax', FITTING, { reference: true })).toBeNull();
    expect(tables.choose('expectimax', FITTING, { rootMoves: ['left'] })).toBeNull();
    expect(tables.choose('montecarlo', FITTING, {})).toBeNull();
    const scattered: Grid = { rows: 4, cols: 4, cells: [2, 0, 0, 4, 0, 8, 0, 0, 0, 0, 16, 0, 2, 0, 0, 0] };
    expect(tables.choose('expectimax', scattered, {})).toBeNull();
  });

  it('never holds a move up: the search answers while the tables are built, with their progress', async () => {
    const tables = host([]);
    let searched = 0;
    const search = (): Promise<{ choice: MoveChoice }> => {
      searched++;
      return Promise.resolve({ choice: { strategy: 'expectimax', move: 'up', values: { up: 1 }, depth: 3, nodes: 10, ms: 1 } });
    };
    const request = { strategy: 'expectimax' as const, board: FITTING, options: {} };
    const first = await solveWithTables(tables, request, search);
    expect(searched).toBe(1);
    expect(first).toMatchObject({ choice: { move: 'up' }, tables: { state: 'building' } });
    await tables.whenSettled();
    const later = await solveWithTables(tables, request, search);
    expect(searched).toBe(1);
    expect(later).toMatchObject({ choice: { move: 'left', table: true }, tables: { state: 'ready', percent: 100 } });
  });

  it('says so when the build fails, and play goes on searching', async () => {
    const tables = host([], [], true);
    await tables.whenSettled();
    expect(tables.status()?.state).toBe('failed');
    expect(tables.choose('expectimax', FITTING, {})).toBeNull();
    const answer = await solveWithTables(tables, { strategy: 'expectimax', board: FITTING, options: {} }, () =>
      Promise.resolve({ choice: { strategy: 'expectimax' as const, move: 'up' as const, values: {}, depth: 1, nodes: 1, ms: 1 } }),
    );
    expect(answer).toMatchObject({ choice: { move: 'up' }, tables: { state: 'failed' } });
  });
});
