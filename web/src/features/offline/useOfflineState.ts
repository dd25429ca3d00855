// The offline state (state.ts) as a React hook, for the no-connection banner and the status line.

import { useEffect, useState } from 'react';
import { offlineState, onOfflineState, type OfflineState } from './state';

/** The current offline state, following its changes. */
export function useOfflineState(): OfflineState {
  const [state, setState] = useState(offlineState);
  useEffect(() => {
    const stop = onOfflineState(setState);
    setState(offlineState());
    return stop;
  }, []);
  return state;
}
