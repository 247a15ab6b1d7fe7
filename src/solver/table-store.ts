/**
 * The extension's store of endgame tables (issue 15): IndexedDB, one record per table, each record the
 * checksummed bytes of src/engine/tables/store.ts (the format of the CLI's disk cache), keyed by
 * `tableKey(spec)` (formation, goal, bound and format version).
 *
 * Never trusted: a record that is missing, not bytes, of another format version, truncated or failing its
 * checksum reads as absent (and is deleted), so the caller rebuilds it. A table is written in one
 * transaction, so a build cut short leaves no half record; a table already written survives. The database
 * itself is versioned (TABLES_DB_VERSION): an upgrade from an older layout drops the old records.
 *
 * IndexedDB is reached through an injected factory (`indexedDB` in a page or worker, fake-indexeddb in
 * unit tests).
 */
import type { TableSpec } from '../engine/tables/formation';
import { TableStoreError, parseTable, serializeTable, tableKey } from '../engine/tables/store';
import type { EndgameTable } from '../engine/tables/table';

export const TABLES_DB_NAME = '2048-autopilot-tables';
export const TABLES_DB_VERSION = 1;
const STORE = 'tables';

export type StoredTable = { readonly table: EndgameTable } | { readonly table: null; readonly reason: string };

function done(request: IDBRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

export class TableStore {
  private constructor(private readonly db: IDBDatabase) {}

  /** Open (creating or upgrading) the tables database. */
  static open(factory: IDBFactory, name = TABLES_DB_NAME): Promise<TableStore> {
    return new Promise((resolve, reject) => {
      const request = factory.open(name, TABLES_DB_VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        // Any older layout is dropped whole: its tables are rebuilt, never converted.
        for (const old of Array.from(db.objectStoreNames)) db.deleteObjectStore(old);
        db.createObjectStore(STORE);
      };
      request.onsuccess = () => resolve(new TableStore(request.result));
      request.onerror = () => reject(request.error ?? new Error('IndexedDB: the tables database could not be opened'));
      request.onblocked = () => reject(new Error('IndexedDB: the tables database is blocked by an older connection'));
    });
  }

  /** The stored table of `spec`, or null and why (a broken record is deleted). */
  async load(spec: TableSpec): Promise<StoredTable> {
    const key = tableKey(spec);
    const raw = await done(this.db.transaction(STORE, 'readonly').objectStore(STORE).get(key));
    if (raw === undefined) return { table: null, reason: 'not stored yet' };
    let reason: string;
    if (!(raw instanceof Uint8Array) && !(raw instanceof ArrayBuffer)) reason = 'the stored record is not table bytes';
    else {
      try {
        return { table: parseTable(raw instanceof Uint8Array ? raw : new Uint8Array(raw), spec) };
      } catch (err) {
        if (!(err instanceof TableStoreError)) throw err;
        reason = err.message;
      }
    }
    await this.remove(spec);
    return { table: null, reason };
  }

  /** Store `table` (one transaction: all of it or nothing). */
  async save(table: EndgameTable): Promise<void> {
    await this.saveBytes(table.spec, serializeTable(table));
  }

  /** Store serialized bytes under `spec` as they are (tests use it to plant broken records). */
  async saveBytes(spec: TableSpec, bytes: Uint8Array | ArrayBuffer | string): Promise<void> {
    const transaction = this.db.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).put(bytes, tableKey(spec));
    await committed(transaction);
  }

  async remove(spec: TableSpec): Promise<void> {
    const transaction = this.db.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).delete(tableKey(spec));
    await committed(transaction);
  }

  close(): void {
    this.db.close();
  }
}
