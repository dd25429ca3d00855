// New mail, as the user's notification preferences ask (spec 001 §3): a toast (kept in the
// bell's log) with emailNotifications, the browser's notification with desktopNotifications
// (only while the app is not in front: in front, the toast is enough), and a short tone with
// soundNotifications. Inbox mail only: a copy landing in Sent is no news.

import type { Preferences } from '../../api/settings';
import { he } from '../../i18n/he';
import { notifyDesktop } from '../../session/desktopNotifications';
import type { ToastApi } from '../../session/Toasts';

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
