// New mail, as the user's notification preferences ask (spec 001 §3): a toast (kept in the
// bell's log) with emailNotifications, the browser's notification with desktopNotifications
// (only while the app is not in front: in front, the toast is enough), and a short tone with
// soundNotifications. Inbox mail only: a copy landing in Sent is no news.

import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import type { ToastApi } from '../Toasts';

export interface NewMail {
  folder: string;
  count: number;
  /** Brought by a mailbox's first sync: its history, not news. */
  initial?: boolean;
}

export function isNewMail(data: unknown): data is NewMail {
  const d = data as Partial<NewMail> | null;
  return !!d && typeof d.folder === 'string' && typeof d.count === 'number' && d.count > 0;
}

export function desktopSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Asks for the browser's permission (call from a click: browsers ignore it otherwise). */
export async function askDesktopPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!desktopSupported()) return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

function inFront(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/**
 * The browser's notification, when the user asked for them (desktopNotifications), allowed them,
 * and the app is not in front (in front, the toast is enough). Returns whether it was shown.
 */
export function notifyDesktop(wanted: boolean, title: string, body: string, tag: string): boolean {
  if (!wanted || !desktopSupported() || Notification.permission !== 'granted' || inFront()) return false;
  try {
    new Notification(title, { body, tag, lang: 'he', dir: 'rtl' });
    return true;
  } catch {
    /* some browsers only allow notifications from a service worker */
    return false;
  }
}

let audio: AudioContext | null = null;

/** Two short soft beeps, made on the spot (no sound file to ship or fetch). */
export function playNewMailTone(): void {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    const ctx = audio;
    for (const [at, freq] of [
      [0, 880],
      [0.16, 1175],
    ] as const) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, ctx.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.15, ctx.currentTime + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + at + 0.14);
      osc.connect(gain).connect(ctx.destination);
      osc.start(ctx.currentTime + at);
      osc.stop(ctx.currentTime + at + 0.15);
    }
  } catch {
    /* no audio output: the toast still shows */
  }
}

/** What the preferences ask for `count` new mails in the inbox; returns what was done. */
export function announceNewMail(
  count: number,
  prefs: Pick<Preferences, 'emailNotifications' | 'desktopNotifications' | 'soundNotifications'>,
  toast: Pick<ToastApi, 'info'>,
  folderName: string,
): { toast: boolean; desktop: boolean; sound: boolean } {
  const text = he.newMail.toast(count, folderName);
  const done = { toast: false, desktop: false, sound: false };
  if (prefs.emailNotifications) {
    toast.info(text);
    done.toast = true;
  }
  done.desktop = notifyDesktop(prefs.desktopNotifications, he.newMail.desktopTitle, text, 'mailclient-new-mail');
  if (prefs.soundNotifications) {
    playNewMailTone();
    done.sound = true;
  }
  return done;
}
