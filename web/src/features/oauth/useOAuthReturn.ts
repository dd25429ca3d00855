// The way back from Google's `redirect` flow: the server finishes the sign-in and sends the
// browser to #/settings?oauth=done, or ?oauth=failed&message=… (the message in Hebrew). Said
// once in a toast; the accounts re-read, and the address bar cleaned so a reload says nothing.

import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useToast } from '../../session/Toasts';
import { he } from '../../i18n/he';

const t = he.oauth;

export function useOAuthReturn(onConnected: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const handled = useRef('');
  const connectedRef = useRef(onConnected);
  connectedRef.current = onConnected;

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get('oauth');
    if (outcome !== 'done' && outcome !== 'failed') return;
    // StrictMode runs effects twice; one toast per return.
    if (handled.current === location.key) return;
    handled.current = location.key;
    if (outcome === 'done') {
      toast.success(t.returnDone);
      connectedRef.current();
    } else {
      const message = params.get('message')?.trim();
      toast.error(message ? `${t.returnFailed} ${message}` : t.returnFailed);
    }
    params.delete('oauth');
    params.delete('message');
    const rest = params.toString();
    navigate({ pathname: location.pathname, search: rest ? `?${rest}` : '' }, { replace: true });
  }, [location, navigate, toast]);
}
