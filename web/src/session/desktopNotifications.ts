// The browser's desktop notifications (spec 001 §3 "desktopNotifications"): whether the browser
// has them, asking for its permission (from the preferences card's switch), and showing one while
// the app is not in front. Part of the session layer: the live channel's notices and the
// preferences card both use it.

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
