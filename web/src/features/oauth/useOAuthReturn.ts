// The way back from Google's `redirect` flow. The server's callback finishes nothing: it sends the
// browser to #/settings?oauth=return&state=…&code=… (or ?oauth=failed&reason=…). Here the code and
// state are taken out of the address bar at once (so a reload or the history holds no code), the
// server is asked which of this session's flows the state names (claimGoogle: a flow another user
// started is not found, and nothing is connected), and the sign-in panel asks the user to confirm
// the address before it is connected (useOAuthSignIn's `confirm`). A failure is said once in a
// toast, in our own words for its reason code: text from the address is never shown.

import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { claimGoogle } from '../../api/oauth';
import { errorMessage } from '../../api/client';
import { useToast } from '../../session/Toasts';
import { heOauth } from '../../i18n/oauth';
import type { OAuthSignIn } from './useOAuthSignIn';

const t = heOauth;

/** The Hebrew sentence of a failure's reason code (an unknown code says nothing more). */
export function returnReason(code: string | null): string {
  const reasons: Record<string, string> = t.returnReasons;
  return code && Object.prototype.hasOwnProperty.call(reasons, code) ? reasons[code] : '';
}

/** The parameters of the way back, removed from the address. */
const RETURN_PARAMS = ['oauth', 'reason', 'message', 'state', 'code'];

export function useOAuthReturn(signIn: Pick<OAuthSignIn, 'offerConfirm'>) {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const handled = useRef('');
  const offerRef = useRef(signIn.offerConfirm);
  offerRef.current = signIn.offerConfirm;

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get('oauth');
    if (outcome !== 'return' && outcome !== 'failed') return;
    // StrictMode runs effects twice; one answer per return.
    if (handled.current === location.key) return;
    handled.current = location.key;
    const state = params.get('state') ?? '';
    const code = params.get('code') ?? '';
    const reason = params.get('reason');
    for (const p of RETURN_PARAMS) params.delete(p);
    const rest = params.toString();
    navigate({ pathname: location.pathname, search: rest ? `?${rest}` : '' }, { replace: true });

    if (outcome === 'failed' || !state || !code) {
      const why = returnReason(outcome === 'failed' ? reason : 'invalid');
      toast.error(why ? `${t.returnFailed} ${why}` : t.returnFailed);
      return;
    }
    claimGoogle(state).then(
      (claimed) => offerRef.current({ flowId: claimed.flowId, email: claimed.email, code, state }),
      (err) => toast.error(`${t.returnFailed} ${errorMessage(err)}`),
    );
  }, [location, navigate, toast]);
}
