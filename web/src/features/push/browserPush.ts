// This browser's side of Web Push: whether it can, asking its permission, and its subscription
// (made with the server's public key through the service worker's PushManager). A subscription
// made with another key (the server's identity changed) is replaced. The device's name is guessed
// from the user agent (the settings' device-info parsing).

import { browserFromUserAgent, platformFromUserAgent } from '../../lib/deviceInfo';
import { hePush } from '../../i18n/push';

export type PushSupport = 'ok' | 'unsupported' | 'insecure';

/** Whether this page can subscribe: a secure context with a service worker, PushManager and notifications. */
export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || !window.isSecureContext) return 'insecure';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return 'ok';
}

/** The permission was refused (or dismissed). */
export class PushDenied extends Error {}

/** base64url → bytes (the server's key, as the browser wants it). */
export function fromBase64Url(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function sameKey(key: ArrayBuffer | null | undefined, publicKey: string): boolean {
  if (!key) return false;
  const a = new Uint8Array(key);
  const b = fromBase64Url(publicKey);
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** This browser's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() !== 'ok') return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Asks the permission and subscribes this browser with the server's key (call from a click). */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushDenied();
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, publicKey)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(publicKey) });
  return sub.toJSON();
}

const SYSTEMS: Record<string, string> = { iOS: 'iPhone/iPad', macOS: 'Mac' };

/** "Chrome, Android": the device's name in the list. */
export function deviceLabel(ua: string, maxTouchPoints = 0): string {
  const browser = browserFromUserAgent(ua)?.name ?? hePush.unknownBrowser;
  const platform = platformFromUserAgent(ua, maxTouchPoints);
  return hePush.deviceName(browser, platform ? (SYSTEMS[platform] ?? platform) : '');
}
