// Sign-in state (spec 000 §3/§4). At start the stored user and token are read from localStorage;
// both present → signed in at once (no spinner on every reload), then the token is checked in the
// background with GET /api/app/me — a 401 there (or on any authenticated call) signs the user out.
// `loading` is true only when there is a token but no usable user, which needs the server's answer.

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { SWRConfig, useSWRConfig } from 'swr';
import { api } from '../api/client';
import { keys } from '../api/keys';
import {
  AUTH_STORAGE_KEY,
  clearStoredAuth,
  emitLoggedOut,
  getToken,
  onUnauthorized,
  readStoredAuth,
  writeStoredAuth,
} from '../api/session';
import type { MeResponse, User } from '../api/types';
import { he } from '../i18n/he';
import { dropPushAtLogout } from './pushAtLogout';
import { useToast } from './Toasts';

export interface AuthContextValue {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  loading: boolean;
  /** Stores a successful login. */
  signIn: (token: string, user: User) => void;
  /** Ends the session on the server, clears it here and goes to /login. */
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

interface State {
  token: string | null;
  user: User | null;
  loading: boolean;
}

function initialState(): State {
  const { token, user } = readStoredAuth();
  if (token && user) return { token, user, loading: false };
  if (token) return { token, user: null, loading: true };
  return { token: null, user: null, loading: false };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>(initialState);
  const navigate = useNavigate();
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const signedIn = useRef(false);
  signedIn.current = state.token !== null && state.user !== null;

  // Cached responses, toasts and notifications belong to the previous user; drop them whenever
  // the session changes hands.
  const clearCache = useCallback(() => {
    void mutate(() => true, undefined, { revalidate: false });
    toast.clearAll();
  }, [mutate, toast]);

  const clearSession = useCallback(() => {
    clearStoredAuth();
    clearCache();
    setState({ token: null, user: null, loading: false });
  }, [clearCache]);

  const signIn = useCallback(
    (token: string, user: User) => {
      clearCache();
      writeStoredAuth({ token, user });
      setState({ token, user, loading: false });
    },
    [clearCache],
  );

  const logout = useCallback(async () => {
    // Clear the local session first, so the signed-in pages unmount and stop polling before
    // the server revokes the token (a poll landing after the revocation would be a 401).
    const token = getToken();
    // What the browser keeps for offline reading (issue 39) goes with the session.
    emitLoggedOut();
    clearSession();
    navigate('/login', { replace: true });
    if (!token) return;
    await dropPushAtLogout(token);
    try {
      await api('/api/app/logout', { method: 'POST', token });
    } catch {
      // Offline or already expired: the local session is gone all the same.
    }
  }, [clearSession, navigate]);

  // Any 401 on an authenticated call: the token is dead, so is the session.
  useEffect(
    () =>
      onUnauthorized(() => {
        const wasSignedIn = signedIn.current;
        clearSession();
        if (wasSignedIn) toast.warning(he.errors.sessionExpired);
      }),
    [clearSession, toast],
  );

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== AUTH_STORAGE_KEY && e.key !== null) return;
      const { token, user } = readStoredAuth();
      setState(token && user ? { token, user, loading: false } : { token: null, user: null, loading: false });
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  // Background check of the stored token; also refreshes the stored user (name or role may change).
  const { data: me, error: meError } = useSWR<MeResponse>(state.token ? keys.me() : null, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });

  useEffect(() => {
    if (!me?.user || !state.token) return;
    const u = me.user;
    const cur = state.user;
    if (cur && cur.id === u.id && cur.name === u.name && cur.username === u.username && cur.role === u.role)
      return;
    writeStoredAuth({ token: state.token, user: u });
    setState({ token: state.token, user: u, loading: false });
  }, [me, state.token, state.user]);

  useEffect(() => {
    // Could not verify a token that came without a user (e.g. offline): start over at the login screen.
    if (meError && state.loading) clearSession();
  }, [meError, state.loading, clearSession]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user: state.user,
      token: state.token,
      isAuthenticated: state.token !== null && state.user !== null,
      loading: state.loading,
      signIn,
      logout,
    }),
    [state, signIn, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/**
 * Wraps the signed-in screens in an SWR cache of their own, made anew for each session token:
 * nothing cached for one user can show to the next, and no entry is left half-cleared (signing
 * out and in again without a reload once left a list waiting on a cleared entry forever).
 * It sits inside RequireAuth, so signing in mounts it fresh rather than remounting the login page.
 */
export function SessionScope({ children }: { children: ReactNode }) {
  const { token } = useAuth();
  return (
    <SWRConfig key={token ?? 'signed-out'} value={{ provider: () => new Map() }}>
      {children}
    </SWRConfig>
  );
}
