// The offline database's name, and deleting it (logout): the part of kv.ts the first chunk needs.

/** The IndexedDB database offline reading keeps its data in. */
export const OFFLINE_DB = 'mailclient-offline';

/** Deletes the database (logout); resolves when it is gone or could not be (no IndexedDB). */
export function deleteOfflineDb(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<void> {
  if (!factory) return Promise.resolve();
  return new Promise((resolve) => {
    const req = factory.deleteDatabase(OFFLINE_DB);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}
