// Offline reading on the page (issue 39): starts the layer for the signed-in user (install.ts),
// re-reads the mail once the server is back and once queued actions reached it, and, when some could not be applied
// because the mail changed elsewhere, a line that opens the dialog to settle each one.

import { lazy, Suspense, useEffect, useState, type JSX } from 'react';
import { useSWRConfig } from 'swr';
import { heOffline } from '../../i18n/offline';
import { onServerReachable } from '../../lib/serverConnection';
import { useAuth } from '../../session/AuthProvider';
import { offlineLayerFor } from './install';
import { useOfflineState } from './useOfflineState';
import './offline.css';

const ConflictDialog = lazy(() => import('./ConflictDialog'));

/** `mailCount` reads the user's `offlineMessages` preference (the shell passes this device's copy). */
export function OfflineReading({ mailCount }: { mailCount: () => unknown }): JSX.Element | null {
  const { user } = useAuth();
  // During render, so the first page's requests already find the layer when they fail.
  const layer = offlineLayerFor(user ? String(user.id) : null, mailCount);
  const state = useOfflineState();
  const { mutate } = useSWRConfig();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (state.replayed > 0) void mutate(() => true);
  }, [state.replayed, mutate]);
  // The server back (the layer's check, or any answer): what the page shows from the copy is re-read.
  useEffect(() => onServerReachable((up) => up && void mutate(() => true)), [mutate]);

  if (!layer || state.problems.length === 0) return null;
  return (
    <>
      <div className="offline-problems" role="alert" data-testid="offline-problems">
        <span>{heOffline.problems(state.problems.length)}</span>
        <button type="button" className="button" onClick={() => setOpen(true)} data-testid="offline-problems-show">
          {heOffline.show}
        </button>
      </div>
      {open && (
        <Suspense fallback={null}>
          <ConflictDialog layer={layer} problems={state.problems} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
