// "Not now" on the auto-archive prompt lasts for the sign-in session: remembered in this tab's
// sessionStorage (it survives a reload) under a tag of the session token, so the next sign-in —
// another user's or a new one — sees the prompt again. The token itself is not copied.

const STORAGE_KEY = 'mailclient.inboxZero.autoArchiveDismissed';

/** FNV-1a, 32 bits: enough to tell sessions apart, useless to recover the token. */
function sessionTag(token: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

export function isAutoArchiveDismissed(token: string | null): boolean {
  if (!token) return false;
  try {
    return sessionStorage.getItem(STORAGE_KEY) === sessionTag(token);
  } catch {
    return false;
  }
}

export function dismissAutoArchive(token: string | null): void {
  if (!token) return;
  try {
    sessionStorage.setItem(STORAGE_KEY, sessionTag(token));
  } catch {
    // Storage disabled: the prompt stays hidden until the panel is shown again.
  }
}
