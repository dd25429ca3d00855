// The signed-in user's preferences, kept on the server and synced live (spec 001 §4, §7):
// loaded once per session, applied to the page (theme, density, scale, time zone), changed
// optimistically and saved one change at a time on the latest version the client knows. A 409
// queues a conflict for the user to decide; any other failure reverts the change and says so.
// The live channel hands in the other sessions' changes (`remoteChanged`) and this session's
// lost races (`remoteConflict`).

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { ApiError, errorMessage } from '../../../api/client';
import {
  conflictOf,
  isHistoryKey,
  rollbackSettings,
  saveSettings,
  settingsKeys,
  type Preferences,
  type SettingsChanged,
  type SettingsConflictResponse,
  type SettingsSyncResponse,
} from '../../../api/settings';
import { useToast } from '../../../session/Toasts';
import { readScale } from '../../../session/scale';
import { heSettingsSync } from '../../../i18n/settingsSync';
import {
  type Choice,
  type PendingConflict,
  conflictId,
  needsDecision,
  pendingOf,
  resolutionUpdate,
  withConflict,
} from './conflicts';
import {
  DEFAULT_PREFERENCES,
  applyPreferences,
  cachePreferences,
  groupOf,
  readCachedPreferences,
} from './prefs';

/** Spec 001 §4. */
export type SyncState = 'idle' | 'syncing' | 'conflict' | 'error';

export interface SettingsSync {
  prefs: Preferences;
  /** The server's version the client knows (0: never changed). */
  version: number;
  loaded: boolean;
  status: SyncState;
  lastError: string | null;
  conflicts: PendingConflict[];
  /** Changes some keys now and saves them; false when the save failed (and was reverted). */
  update: (patch: Partial<Preferences>) => Promise<boolean>;
  /** Resolves a conflict: per key mine or theirs ("accept mine" is every key mine). */
  resolve: (id: string, choices: Record<string, Choice>) => Promise<boolean>;
  /** "Accept theirs": keeps the server's values. */
  acceptTheirs: (id: string) => void;
  rollback: (version: number) => Promise<boolean>;
  /** Another session's change, or null when changes were missed (`settings_stale`): re-read. */
  remoteChanged: (event: SettingsChanged | null) => void;
  remoteConflict: (event: SettingsConflictResponse) => void;
}

interface ServerState {
  version: number;
  values: Preferences;
}

/** Outside a session (and in tests of single components): the local preferences, not saved. */
const LOCAL: SettingsSync = {
  prefs: DEFAULT_PREFERENCES,
  version: 0,
  loaded: false,
  status: 'idle',
  lastError: null,
  conflicts: [],
  update: async () => false,
  resolve: async () => false,
  acceptTheirs: () => {},
  rollback: async () => false,
  remoteChanged: () => {},
  remoteConflict: () => {},
};

const SettingsContext = createContext<SettingsSync>(LOCAL);

export function useSettingsSync(): SettingsSync {
  return useContext(SettingsContext);
}

/** Any part of the sync, without a server (tests of what uses it). */
export function SettingsContextForTests({ value, children }: { value: Partial<SettingsSync>; children: ReactNode }) {
  const merged = useMemo<SettingsSync>(() => ({ ...LOCAL, ...value }), [value]);
  return <SettingsContext.Provider value={merged}>{children}</SettingsContext.Provider>;
}

/** Fixed preferences, without a server (tests of single screens). */
export function StaticPreferences({ prefs, children }: { prefs: Partial<Preferences>; children: ReactNode }) {
  const value = useMemo<SettingsSync>(
    () => ({ ...LOCAL, prefs: { ...DEFAULT_PREFERENCES, ...prefs }, loaded: true }),
    [prefs],
  );
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function usePreferences(): Preferences {
  return useContext(SettingsContext).prefs;
}

function without<T extends object>(obj: T, keys: string[]): T {
  const out = { ...obj } as Record<string, unknown>;
  for (const k of keys) delete out[k];
  return out as T;
}

export function SettingsProvider({ children }: { children: ReactNode }) {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const { data, mutate: reload } = useSWR<SettingsSyncResponse>(settingsKeys.current(), {
    revalidateOnFocus: true,
  });
  const [server, setServer] = useState<ServerState | null>(null);
  const [overlay, setOverlay] = useState<Partial<Preferences>>({});
  // 'conflict' is not a phase: it is any conflict waiting for the user.
  const [phase, setPhase] = useState<'idle' | 'syncing' | 'error'>('idle');
  const [lastError, setLastError] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<PendingConflict[]>([]);
  const serverRef = useRef<ServerState | null>(null);
  // Refusals already announced ('settings rejected'): the 409 and the /ws event are one.
  const rejectedIds = useRef(new Set<string>());
  serverRef.current = server;
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const cached = useMemo(readCachedPreferences, []);

  /** Newer server state wins; an older answer only adds the keys it saved. */
  const adopt = useCallback((next: ServerState, saved: Partial<Preferences> = {}) => {
    setServer((prev) => {
      if (!prev || next.version >= prev.version) return next;
      return { version: prev.version, values: { ...prev.values, ...saved } };
    });
  }, []);

  useEffect(() => {
    if (data && typeof data.version === 'number' && data.syncedSettings) {
      adopt({ version: data.version, values: data.syncedSettings });
    }
  }, [data, adopt]);

  const prefs = useMemo<Preferences>(
    () => ({ ...(server?.values ?? cached), ...overlay }),
    [server, cached, overlay],
  );

  useLayoutEffect(() => {
    applyPreferences(prefs);
    if (server) cachePreferences(prefs);
  }, [prefs, server]);

  const refreshHistory = useCallback(() => void mutate(isHistoryKey), [mutate]);

  const settle = useCallback((error: string | null = null) => {
    setLastError(error);
    setPhase(error ? 'error' : 'idle');
  }, []);

  /** Saves `patch` on the latest known version (one save at a time, in order). */
  const save = useCallback(
    (patch: Partial<Preferences>): Promise<boolean> => {
      const run = async (): Promise<boolean> => {
        const keys = Object.keys(patch);
        const dropOverlay = () =>
          setOverlay((o) => {
            // A later change of the same key keeps its own optimistic value.
            const mine = keys.filter((k) => o[k as keyof Preferences] === patch[k as keyof Preferences]);
            return without(o, mine);
          });
        setPhase('syncing');
        try {
          const r = await saveSettings(patch, groupOf(patch), serverRef.current?.version ?? 0);
          adopt({ version: r.version, values: r.syncedSettings }, patch);
          dropOverlay();
          settle();
          refreshHistory();
          return true;
        } catch (e) {
          dropOverlay();
          const conflict = conflictOf(e);
          if (conflict && !needsDecision(conflict)) {
            // Refused with nothing to choose between: the server's values stand (spec 000 §9).
            adopt({ version: conflict.version, values: conflict.syncedSettings });
            settle();
            if (!rejectedIds.current.has(conflictId(conflict))) toast.warning(heSettingsSync.conflictToast.rejected);
            rejectedIds.current.add(conflictId(conflict));
            return false;
          }
          if (conflict) {
            adopt({ version: conflict.version, values: conflict.syncedSettings });
            const clashing = new Set(conflict.conflicts.map((c) => c.key));
            const rest = Object.fromEntries(Object.entries(patch).filter(([k]) => !clashing.has(k)));
            setConflicts((q) => withConflict(q, pendingOf(conflict, rest)));
            settle();
            setLastError(conflict.message);
            return false;
          }
          // Spec 001 §8: "no connection to server", or the sync error with its detail.
          const message =
            e instanceof ApiError && e.isNetworkError
              ? heSettingsSync.noConnection
              : heSettingsSync.syncFailed(errorMessage(e));
          settle(message);
          toast.error(heSettingsSync.saveFailed);
          return false;
        }
      };
      const next = chain.current.then(run, run);
      chain.current = next;
      return next;
    },
    [adopt, refreshHistory, settle, toast],
  );

  const update = useCallback(
    (patch: Partial<Preferences>) => {
      setOverlay((o) => ({ ...o, ...patch }));
      return save(patch);
    },
    [save],
  );

  // The UI scale lived in this browser's storage before it was a preference: a user who never
  // saved preferences brings the scale they chose here.
  const migrated = useRef(false);
  useEffect(() => {
    if (migrated.current || !data || data.version !== 0) return;
    migrated.current = true;
    const local = readScale();
    const d = DEFAULT_PREFERENCES;
    if (local.app !== d.appScale || local.font !== d.fontScale || local.icon !== d.iconScale) {
      void update({ appScale: local.app, fontScale: local.font, iconScale: local.icon });
    }
  }, [data, update]);

  const acceptTheirs = useCallback(
    (id: string) => {
      setConflicts((q) => q.filter((c) => c.id !== id));
      toast.info(heSettingsSync.acceptedTheirs);
    },
    [toast],
  );

  const resolve = useCallback(
    async (id: string, choices: Record<string, Choice>) => {
      const conflict = conflicts.find((c) => c.id === id);
      if (!conflict) return false;
      const patch = resolutionUpdate(conflict, choices);
      setConflicts((q) => q.filter((c) => c.id !== id));
      if (Object.keys(patch).length === 0) return true;
      return update(patch);
    },
    [conflicts, settle, update],
  );

  const rollback = useCallback(
    async (version: number) => {
      try {
        const r = await rollbackSettings(version);
        adopt({ version: r.version, values: r.syncedSettings });
        refreshHistory();
        toast.success(r.message || heSettingsSync.restored);
        return true;
      } catch (e) {
        toast.error(`${heSettingsSync.restoreFailed}: ${errorMessage(e)}`);
        return false;
      }
    },
    [adopt, refreshHistory, toast],
  );

  const remoteChanged = useCallback(
    (event: SettingsChanged | null) => {
      const known = serverRef.current;
      refreshHistory();
      // Missed changes (or a gap in versions): read the whole object again.
      if (!event || !known || event.version > known.version + 1) {
        void reload();
        return;
      }
      if (event.version <= known.version) return;
      adopt({ version: event.version, values: { ...known.values, ...event.settingsUpdate } });
    },
    [adopt, refreshHistory, reload],
  );

  const remoteConflict = useCallback(
    (event: SettingsConflictResponse) => {
      if (!needsDecision(event)) {
        // The 409 of this session's own save says the same, once.
        if (!rejectedIds.current.has(conflictId(event))) toast.warning(heSettingsSync.conflictToast.rejected);
        rejectedIds.current.add(conflictId(event));
        return;
      }
      setConflicts((q) => withConflict(q, pendingOf(event)));
    },
    [toast],
  );

  const value = useMemo<SettingsSync>(
    () => ({
      prefs,
      version: server?.version ?? 0,
      loaded: server !== null,
      status: phase === 'syncing' ? 'syncing' : conflicts.length ? 'conflict' : phase,
      lastError,
      conflicts,
      update,
      resolve,
      acceptTheirs,
      rollback,
      remoteChanged,
      remoteConflict,
    }),
    [prefs, server, phase, lastError, conflicts, update, resolve, acceptTheirs, rollback, remoteChanged, remoteConflict],
  );

  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}
