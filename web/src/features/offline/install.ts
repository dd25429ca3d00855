// Offline reading's small part in the first chunk (issue 39): plugs the lazily loaded layer into
// the API client for the signed-in user, and deletes the browser's copy on logout. The layer's
// code (layer.ts and what it uses) loads after the first paint (LOAD_AFTER_MS; the inbox's first
// scripts stay those of scripts/bundle-budget.mjs), or at once when a request fails for want of
// the server; answers that came before it are handed to it then (at most MAX_EARLY).

import { setOfflineLayer, type OfflineLayer } from '../../api/client';
import { onLoggedOut } from '../../api/session';
import { deleteOfflineDb } from './db';
import { mailCap } from './limits';
import type { OfflineHandle } from './layer';
import { setOfflineState } from './state';

let current: { userId: string; layer: Promise<OfflineHandle | null>; cancel: () => void } | null = null;

/** How long after sign-in (or a reload) the layer's code loads when nothing asks for it sooner. */
const LOAD_AFTER_MS = 2_500;
/** Answers kept in memory for the layer until it loads. */
const MAX_EARLY = 100;

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
  let kick = () => undefined as void;
  const kicked = new Promise<void>((resolve) => (kick = resolve));
  const timer = window.setTimeout(kick, LOAD_AFTER_MS);
  let cancelled = false;
  const layer = kicked.then(() => (cancelled ? null : start(userId, preference, () => cancelled)));
  const early: Parameters<OfflineLayer['answered']>[] = [];
  let loaded: OfflineHandle | null = null;
  void layer.then((l) => {
    loaded = l;
    window.clearTimeout(timer);
    for (const args of early.splice(0)) l?.answered(...args);
  });
  const front: OfflineLayer = {
    answered: (...args) => {
      if (loaded) loaded.answered(...args);
      else if (early.length < MAX_EARLY) early.push(args);
    },
    unreachable: async (path, options) => {
      kick();
      return (await layer)?.unreachable(path, options);
    },
  };
  const cancel = () => {
    cancelled = true;
    kick();
  };
  current = { userId, layer, cancel };
  setOfflineLayer(Promise.resolve(front));
  return layer;
}

async function start(userId: string, preference: () => unknown, cancelled: () => boolean): Promise<OfflineHandle | null> {
  if (typeof indexedDB === 'undefined') return null;
  try {
    const { createOfflineLayer, openIdbKv } = await import('./layer');
    const kv = await openIdbKv();
    const handle = await createOfflineLayer(kv, userId, () => mailCap(preference()));
    if (cancelled()) return handle; // stop() closes it
    setOfflineState({ active: true });
    return handle;
  } catch {
    return null; // private mode, storage refused: the app works online as before
  }
}

function stop(): void {
  if (!current) return;
  const { layer, cancel } = current;
  current = null;
  // Not loaded yet: it never will be (and the promise settles, so logout's deletion runs).
  cancel();
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
