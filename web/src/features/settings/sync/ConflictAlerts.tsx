// Settings conflicts wherever the user is (spec 000 §9 "Real-time channel"): a save that lost a
// race and needs the user's decision shows an error toast 'התנגשות בהגדרות' with 'לפתרון עכשיו' for
// 10 s, which opens the conflicts dialog on the page the user is on (the preference snapped back,
// e.g. the UI-scale preset in the sidebar, and this says why). A refusal with nothing to decide
// is the provider's warning 'ההגדרות נדחו' (SettingsProvider). Mounted once, inside the provider.

import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { heSettingsSync } from '../../../i18n/settingsSync';
import { useToast } from '../../../session/Toasts';
import { showActionToast } from '../../../session/actionToast';
import { useSettingsSync } from './SettingsProvider';

/** Spec 000 §9: the conflict toast's 'resolve now' stays 10 s. */
export const CONFLICT_TOAST_MS = 10_000;

const t = heSettingsSync.conflictToast;

// Opened only from the toast: its own chunk (with the preferences' labels), not the first one.
const ConflictsDialog = lazy(() => import('./ConflictsDialog').then((m) => ({ default: m.ConflictsDialog })));

export function ConflictAlerts() {
  const { conflicts } = useSettingsSync();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  // Each conflict is announced once (the 409 and the /ws event are the same conflict).
  const announced = useRef(new Set<string>());

  useEffect(() => {
    for (const c of conflicts) {
      if (announced.current.has(c.id)) continue;
      announced.current.add(c.id);
      showActionToast(toast, 'error', t.title, CONFLICT_TOAST_MS, {
        label: t.resolveNow,
        onAction: () => setOpen(true),
        testId: 'settings-conflict-toast',
        buttonTestId: 'settings-conflict-resolve',
      });
    }
  }, [conflicts, toast]);

  return open ? (
    <Suspense fallback={null}>
      <ConflictsDialog onClose={() => setOpen(false)} />
    </Suspense>
  ) : null;
}
