/**
 * What earlier versions left in the browser and this one no longer uses, removed when a session starts
 * (after an update, a reload, a browser restart: src/background/live-games.ts isNewSession).
 *
 * - The endgame tables' IndexedDB database: versions that built the tables in the extension stored them
 *   there (up to ~100 MB); the tables are the command line's alone now (docs: engine.md, "Endgame tables").
 *   Deleting a database that does not exist is a no-op.
 */
export const OLD_TABLES_DATABASE = '2048-autopilot-tables';

/** Delete the old tables' database; resolves when the browser is done (or refused), never rejects. */
export function deleteOldTables(factory: Pick<IDBFactory, 'deleteDatabase'> | undefined = globalThis.indexedDB): Promise<void> {
  if (!factory) return Promise.resolve();
  return new Promise((done) => {
    try {
      const request = factory.deleteDatabase(OLD_TABLES_DATABASE);
      const finish = (): void => done();
      request.onsuccess = finish;
      request.onerror = finish;
      request.onblocked = finish;
    } catch {
      done();
    }
  });
}
