// The auto-reply settings as the card edits them (spec 001 §4: "changes are saved to the server
// about 100 ms after the change"). A change shows at once (an overlay over the server's copy),
// changes within 100 ms go out as one POST of just those fields, one save at a time (so the
// server sees them in order), and a failed save drops its fields from the overlay: the switch
// or field flips back to what the server holds, and the failure is said in the spec's words
// (under the enable switch, and as a toast).

import { useCallback, useEffect, useRef, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { saveAutoReply, type AutoReplySettings } from '../../api/autoReply';
import { ApiError } from '../../api/client';
import { isAutoReplyKey, keys } from '../../api/keys';
import { failureMessage } from '../../api/outgoing';
import { useToast } from '../../session/Toasts';
import { heAutoReply } from '../../i18n/autoReply';

/** Spec 001 §9: the save delay after a change. */
export const AUTO_REPLY_SAVE_DELAY_MS = 100;

type Patch = Partial<AutoReplySettings>;

const t = heAutoReply;

/** Spec 001 §8's messages for a failed save. */
export function saveFailureMessage(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.isNetworkError) return t.network;
    if (e.status === 401) return t.signInAgain;
    if (e.status === 403) return t.forbidden;
  }
  return failureMessage(e, t.saveFailed);
}

/** `overlay` without the fields `sent` still holds as they were sent (later edits stay). */
function withoutSent(overlay: Patch, sent: Patch): Patch {
  const rest: Record<string, unknown> = { ...overlay };
  for (const [k, v] of Object.entries(sent)) {
    if (rest[k] === v) delete rest[k];
  }
  return rest as Patch;
}

/** What each of the card's field groups (work hours, style, senders, limits) is given. */
export interface FieldGroupProps {
  /** The card's id prefix, for the groups' field ids. */
  idBase: string;
  values: AutoReplySettings;
  change: (patch: Partial<AutoReplySettings>) => void;
}

export interface AutoReplySettingsState {
  /** The server's settings with the unsaved changes over them; undefined while loading. */
  values: AutoReplySettings | undefined;
  loadError: unknown;
  reload: () => void;
  /** Shows `patch` at once and saves it after the delay. */
  change: (patch: Patch) => void;
  /** The last save's failure (spec 001 §8 wording); cleared by the next success or `setError`. */
  error: string | null;
  setError: (message: string | null) => void;
  saving: boolean;
}

/**
 * `typedKey()` is read when a save turning auto-reply on goes out: the key typed in the card, for
 * the `x-api-key` header. `onEnabledSaved` runs after such a save succeeded with that key.
 */
export function useAutoReplySettings(
  typedKey: () => string,
  onEnabledSaved: (sentKey: string) => void,
): AutoReplySettingsState {
  const { mutate } = useSWRConfig();
  const toast = useToast();
  const settings = useSWR<AutoReplySettings>(keys.autoReplySettings());
  const [overlay, setOverlay] = useState<Patch>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const queued = useRef<Patch>({});
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const busy = useRef(false);
  // The latest callbacks, for a save that started before a re-render.
  const hooks = useRef({ typedKey, onEnabledSaved, mutateSettings: settings.mutate });
  hooks.current = { typedKey, onEnabledSaved, mutateSettings: settings.mutate };

  const flush = useCallback(async () => {
    timer.current = null;
    if (busy.current || Object.keys(queued.current).length === 0) return;
    const patch = queued.current;
    queued.current = {};
    busy.current = true;
    setSaving(true);
    const key = patch.autoReplyEnabled ? hooks.current.typedKey().trim() : '';
    try {
      const res = await saveAutoReply(patch, key || undefined);
      await hooks.current.mutateSettings(res.settings, { revalidate: false });
      setError(null);
      if (key) hooks.current.onEnabledSaved(key);
      // Turning it on or off changes the monitoring state and what waits.
      if ('autoReplyEnabled' in patch || 'autoReplyMaxPerDay' in patch) {
        void mutate((k) => isAutoReplyKey(k) && k !== keys.autoReplySettings());
      }
    } catch (e) {
      // Beside the switch, and as a toast for a field further down the card.
      const message = saveFailureMessage(e);
      setError(message);
      toast.error(message);
    } finally {
      // Success: the server's copy now says it. Failure: the server's copy shows again.
      setOverlay((o) => withoutSent(o, patch));
      busy.current = false;
      setSaving(false);
      // Changes made while this save was out go next.
      if (Object.keys(queued.current).length > 0 && timer.current === null) void flush();
    }
  }, [mutate, toast]);

  const change = useCallback(
    (patch: Patch) => {
      setOverlay((o) => ({ ...o, ...patch }));
      queued.current = { ...queued.current, ...patch };
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), AUTO_REPLY_SAVE_DELAY_MS);
    },
    [flush],
  );

  // Leaving the page within the delay still saves the change.
  useEffect(
    () => () => {
      if (timer.current !== null) {
        clearTimeout(timer.current);
        void flush();
      }
    },
    [flush],
  );

  return {
    values: settings.data ? { ...settings.data, ...overlay } : undefined,
    loadError: settings.error,
    reload: () => void settings.mutate(),
    change,
    error,
    setError,
    saving,
  };
}
