// The signed-in session as kept in the browser, and the "session ended" signal.
// Lives in the api layer (not in AuthProvider) because the fetch wrapper needs the token and must
// be able to end the session on a 401 without importing React.

import type { User } from './types';

/** The one fixed localStorage key for the session (spec 000 §3: "persisted locally under a fixed key"). */
export const AUTH_STORAGE_KEY = 'mailclient.auth';

export interface StoredAuth {
  token: string | null;
  user: User | null;
}

function looksLikeUser(u: unknown): u is User {
  return (
    typeof u === 'object' &&
    u !== null &&
    typeof (u as User).username === 'string' &&
    typeof (u as User).name === 'string'
  );
}

/** Reads the stored session; anything malformed counts as "nothing stored". */
export function readStoredAuth(): StoredAuth {
  try {
    const raw = localStorage.getItem(AUTH_STORAGE_KEY);
    if (!raw) return { token: null, user: null };
    const parsed = JSON.parse(raw) as Partial<StoredAuth>;
    return {
      token: typeof parsed.token === 'string' && parsed.token ? parsed.token : null,
      user: looksLikeUser(parsed.user) ? parsed.user : null,
    };
  } catch {
    return { token: null, user: null };
  }
}

export function writeStoredAuth(auth: StoredAuth): void {
  try {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(auth));
  } catch {
    // Storage full or disabled (private mode): the session still works until the tab closes.
  }
}

export function clearStoredAuth(): void {
  try {
    localStorage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    /* see writeStoredAuth */
  }
}

export function getToken(): string | null {
  return readStoredAuth().token;
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** AuthProvider subscribes here so that any 401 on an authenticated call signs the user out. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

export function emitUnauthorized(): void {
  for (const l of [...unauthorizedListeners]) l();
}

const loggedOutListeners = new Set<Listener>();

/** Called when the user logs out on purpose (not on a 401): what the browser keeps for them goes. */
export function onLoggedOut(listener: Listener): () => void {
  loggedOutListeners.add(listener);
  return () => {
    loggedOutListeners.delete(listener);
  };
}

export function emitLoggedOut(): void {
  for (const l of [...loggedOutListeners]) l();
}
