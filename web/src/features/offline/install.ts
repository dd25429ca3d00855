// Offline reading's small part in the first chunk (issue 39): plugs the lazily loaded layer into
// the API client for the signed-in user, and deletes the browser's copy on logout. The layer's
// code (layer.ts and what it uses) loads in parallel with the first page's requests; the client
// waits for it only when a request fails for want of the server.

import { setOfflineLayer } from '../../api/client';
import { onLoggedOut } from '../../api/session';
import { deleteOfflineDb, openIdbKv } from './kv';
import { mailCap } from './limits';
import type { OfflineHandle } from './layer';
import { setOfflineState } from './state';

let current: { userId: string; layer: Promise<OfflineHandle | null> } | null = null;

/**
 * The layer of the signed-in user (started on first call), or null for nobody signed in.
 * `preference` reads the user's `offlineMessages` at each write.
 */
export function offlineLayerFor(userId: string | null, preference: () => unknown): Promise<OfflineHandle | null> | null {
  if (userId === null) {
    stop();
    return null;
  }
  if (current?.userId === userId) return current.layer;
  stop();
  const layer = start(userId, preference);
  current = { userId, layer };
  setOfflineLayer(layer);
  return layer;
}

async function start(userId: string, preference: () => unknown): Promise<OfflineHandle | null> {
  if (typeof indexedDB === 'undefined') return null;
  try {
    const { createOfflineLayer } = await import('./layer');
    const kv = await openIdbKv();
    const handle = await createOfflineLayer(kv, userId, () => mailCap(preference()));
    setOfflineState({ active: true });
    return handle;
  } catch {
    return null; // private mode, storage refused: the app works online as before
  }
}

function stop(): void {
  if (!current) return;
  const { layer } = current;
  current = null;
  setOfflineLayer(null);
  setOfflineState({ active: false, pending: 0, problems: [] });
  void layer.then((l) => l?.close());
}

// Logging out deletes everything kept (mail, queue) once the connection is closed.
onLoggedOut(() => {
  const layer = current?.layer;
  stop();
  void (layer ?? Promise.resolve(null)).then(() => deleteOfflineDb());
});
