// Where offline reading keeps its data (issue 39): four object stores of one IndexedDB database,
// behind the small `Kv` interface so the cache, queue and replay logic run the same over an
// in-memory map in the unit tests. A hand-written wrapper (~80 lines) rather than a library: the
// app needs get/put/delete/getAll/clear and nothing else.

import { OFFLINE_DB } from './db';

/** The stores: kept answers, their small index (for eviction), queued actions, and the owner. */
export type StoreName = 'responses' | 'index' | 'queue' | 'meta';
const STORES: StoreName[] = ['responses', 'index', 'queue', 'meta'];

export interface Kv {
  get<T>(store: StoreName, key: string): Promise<T | undefined>;
  put(store: StoreName, key: string, value: unknown): Promise<void>;
  del(store: StoreName, key: string): Promise<void>;
  /** Every value of a store in key order. */
  all<T>(store: StoreName): Promise<T[]>;
  /** Empties every store. */
  clear(): Promise<void>;
  close(): void;
}

/** The same over a Map (unit tests; a browser without IndexedDB). Values are copied as IndexedDB would. */
export function memoryKv(): Kv {
  const maps = new Map<StoreName, Map<string, unknown>>(STORES.map((s) => [s, new Map()]));
  const copy = <T>(v: T): T => (v === undefined ? v : structuredClone(v));
  const map = (s: StoreName) => maps.get(s) as Map<string, unknown>;
  return {
    get: async <T>(s: StoreName, k: string) => copy(map(s).get(k) as T | undefined),
    put: async (s, k, v) => void map(s).set(k, copy(v)),
    del: async (s, k) => void map(s).delete(k),
    all: async <T>(s: StoreName) =>
      [...map(s).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => copy(v) as T),
    clear: async () => maps.forEach((m) => m.clear()),
    close: () => undefined,
  };
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Opens (creating on first use) the browser's database; rejects where IndexedDB is unavailable. */
export async function openIdbKv(factory: IDBFactory = indexedDB): Promise<Kv> {
  const openAt = (version?: number) => {
    // Without a version: whatever version is there (a repaired one is past 1), or 1 when new.
    const open = version === undefined ? factory.open(OFFLINE_DB) : factory.open(OFFLINE_DB, version);
    open.onupgradeneeded = () => {
      for (const s of STORES) if (!open.result.objectStoreNames.contains(s)) open.result.createObjectStore(s);
    };
    return done(open);
  };
  let db = await openAt();
  // A database of that name without the stores (made by something else): add them.
  if (STORES.some((s) => !db.objectStoreNames.contains(s))) {
    const next = db.version + 1;
    db.close();
    db = await openAt(next);
  }
  // Another tab deleting the database (its logout) closes this connection rather than waiting.
  db.onversionchange = () => db.close();
  const tx = (s: StoreName | StoreName[], mode: IDBTransactionMode) => db.transaction(s, mode);
  const written = (t: IDBTransaction) =>
    new Promise<void>((resolve, reject) => {
      t.oncomplete = () => resolve();
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error ?? new Error('aborted'));
    });
  return {
    get: <T>(s: StoreName, k: string) => done(tx(s, 'readonly').objectStore(s).get(k)) as Promise<T | undefined>,
    put: (s, k, v) => {
      const t = tx(s, 'readwrite');
      t.objectStore(s).put(v, k);
      return written(t);
    },
    del: (s, k) => {
      const t = tx(s, 'readwrite');
      t.objectStore(s).delete(k);
      return written(t);
    },
    all: <T>(s: StoreName) => done(tx(s, 'readonly').objectStore(s).getAll()) as Promise<T[]>,
    clear: () => {
      const t = tx(STORES, 'readwrite');
      for (const s of STORES) t.objectStore(s).clear();
      return written(t);
    },
    close: () => db.close(),
  };
}
