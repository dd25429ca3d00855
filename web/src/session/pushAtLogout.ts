// Signing out of a browser ends its push notifications for that user (issue 39): the browser's
// subscription is removed from the user's devices and unsubscribed, so whoever signs in next on
// this browser (a household's shared tablet) never gets the previous user's mail on screen. Part
// of the session layer: the logout runs it with the token before the server revokes it.

import { api } from '../api/client';
import type { PushOverview } from '../api/generated';

/** This browser's push subscription, if the browser has push and one is made. */
async function browserSubscription(): Promise<PushSubscription | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || typeof PushManager === 'undefined') return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Removes this browser from the user's devices and unsubscribes it; failures leave the rest of the logout alone. */
export async function dropPushAtLogout(token: string): Promise<void> {
  try {
    const sub = await browserSubscription();
    if (!sub) return;
    const overview = await api<PushOverview>('/api/push', { token });
    const mine = overview.devices.find((d) => d.endpoint === sub.endpoint);
    if (mine) await api(`/api/push/devices/${mine.id}`, { method: 'DELETE', token });
    await sub.unsubscribe();
  } catch {
    // Offline or no push: the server's device stays until the push service reports it gone.
  }
}
