// One OAuth2 sign-in at a time, for the mail account card (issue 24, /work/oauth-contract.md):
//
// - Microsoft, device code (RFC 8628): the code and link are shown, and GET /api/oauth/flows/{id}
//   is asked every `interval` seconds (asking is what makes the server ask Microsoft) until the
//   flow is done, denied or failed, or its `expiresIn` has passed here.
// - Google, `redirect`: the browser goes to Google and comes back to #/settings?oauth=… (see
//   useOAuthReturn, which offers the flow here to confirm: `confirm` shows the address, and
//   `confirmReturn` finishes it with this session).
// - Google, `paste`: Google's page opens in a new tab; the user pastes the address the browser
//   ended on, and a bad paste leaves the flow open for another.
//
// "Sign in again" is the same start for the same address. The card owns this state, so the
// accounts list's button and the form's buttons drive the same panel.

import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import {
  finishGoogle,
  finishGoogleReturn,
  oauthFlow,
  startGoogle,
  startMicrosoftDevice,
  type OAuthProviderId,
} from '../../api/oauth';
import { heOauth } from '../../i18n/oauth';

const t = heOauth;

/** The poll's floor, whatever the server says (RFC 8628's default is 5 s). */
export const MIN_POLL_MS = 1000;
/** A failed poll (no connection, a 5xx) is tried again after this long. */
export const RETRY_POLL_MS = 5000;

export type EndReason = 'expired' | 'denied' | 'failed';

export type OAuthFlow =
  | { kind: 'idle' }
  | { kind: 'starting'; provider: OAuthProviderId; email: string }
  | {
      kind: 'device';
      provider: 'microsoft';
      email: string;
      flowId: string;
      userCode: string;
      verificationUri: string;
      /** Date.now() at which the code expires. */
      expiresAt: number;
      intervalMs: number;
      /** The last poll did not reach the server (it is tried again). */
      trouble: boolean;
    }
  | {
      kind: 'paste';
      provider: 'google';
      email: string;
      flowId: string;
      authorizeUrl: string;
      redirectUri: string;
      submitting: boolean;
      error: string | null;
    }
  | { kind: 'redirecting'; provider: 'google'; email: string }
  | {
      /** Back from Google's redirect: the address is shown, nothing is connected until the user confirms. */
      kind: 'confirm';
      provider: 'google';
      email: string;
      flowId: string;
      code: string;
      state: string;
      submitting: boolean;
      error: string | null;
    }
  | { kind: 'done'; provider: OAuthProviderId; email: string }
  | { kind: 'ended'; provider: OAuthProviderId; email: string; reason: EndReason; message: string }
  | { kind: 'startFailed'; provider: OAuthProviderId; email: string; message: string };

export interface OAuthSignInOptions {
  /** After an account was connected: reload the accounts and the mail. */
  onConnected: (email: string) => void;
  /** Google's `redirect` flow leaves the app; tests replace this. */
  navigate?: (url: string) => void;
  /** Google's `paste` flow opens its page in a new tab; tests replace this. */
  openTab?: (url: string) => void;
}

const defaultNavigate = (url: string) => window.location.assign(url);
const defaultOpenTab = (url: string) => {
  window.open(url, '_blank', 'noopener,noreferrer');
};

function endMessage(reason: EndReason, message: string | null | undefined): string {
  const server = message?.trim();
  if (server) return server;
  return reason === 'expired' ? t.device.expired : reason === 'denied' ? t.device.denied : t.device.failed;
}

/** A pasted address worth sending: http(s), with a query (the code and state ride in it). */
export function looksLikeRedirect(text: string): boolean {
  try {
    const u = new URL(text.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.search.length > 1;
  } catch {
    return false;
  }
}

export function useOAuthSignIn({ onConnected, navigate = defaultNavigate, openTab = defaultOpenTab }: OAuthSignInOptions) {
  const [flow, setFlow] = useState<OAuthFlow>({ kind: 'idle' });
  // Every start, cancel and end bumps this: an answer for an older flow is dropped.
  const seq = useRef(0);
  const flowRef = useRef(flow);
  flowRef.current = flow;
  const connectedRef = useRef(onConnected);
  connectedRef.current = onConnected;

  const finish = useCallback((provider: OAuthProviderId, email: string) => {
    seq.current++;
    setFlow({ kind: 'done', provider, email });
    connectedRef.current(email);
  }, []);

  const start = useCallback(
    async (provider: OAuthProviderId, rawEmail: string) => {
      const email = rawEmail.trim();
      const mine = ++seq.current;
      setFlow({ kind: 'starting', provider, email });
      try {
        if (provider === 'microsoft') {
          const d = await startMicrosoftDevice(email);
          if (mine !== seq.current) return;
          setFlow({
            kind: 'device',
            provider,
            email,
            flowId: d.flowId,
            userCode: d.userCode,
            verificationUri: d.verificationUri,
            expiresAt: Date.now() + Math.max(1, d.expiresIn) * 1000,
            intervalMs: Math.max(MIN_POLL_MS, d.interval * 1000),
            trouble: false,
          });
        } else {
          const g = await startGoogle(email);
          if (mine !== seq.current) return;
          if (g.flow === 'redirect') {
            setFlow({ kind: 'redirecting', provider, email });
            navigate(g.authorizeUrl);
          } else {
            setFlow({
              kind: 'paste',
              provider,
              email,
              flowId: g.flowId,
              authorizeUrl: g.authorizeUrl,
              redirectUri: g.redirectUri,
              submitting: false,
              error: null,
            });
            openTab(g.authorizeUrl);
          }
        }
      } catch (err) {
        if (mine !== seq.current) return;
        setFlow({ kind: 'startFailed', provider, email, message: errorMessage(err, t.startFailed) });
      }
    },
    [navigate, openTab],
  );

  const cancel = useCallback(() => {
    seq.current++;
    setFlow({ kind: 'idle' });
  }, []);

  /** The same provider and address again (after an expiry, a refusal or a failure). */
  const restart = useCallback(() => {
    const f = flowRef.current;
    if (f.kind === 'idle') return;
    void start(f.provider, f.email);
  }, [start]);

  const submitPaste = useCallback(
    async (pasted: string) => {
      const f = flowRef.current;
      if (f.kind !== 'paste' || f.submitting) return;
      const text = pasted.trim();
      if (!text) {
        setFlow({ ...f, error: t.paste.empty });
        return;
      }
      if (!looksLikeRedirect(text)) {
        setFlow({ ...f, error: t.paste.notAddress });
        return;
      }
      const mine = seq.current;
      setFlow({ ...f, submitting: true, error: null });
      try {
        const res = await finishGoogle(f.flowId, text);
        if (mine !== seq.current) return;
        finish('google', res.email || f.email);
      } catch (err) {
        if (mine !== seq.current) return;
        // The flow stays open: the user may paste again (a 404 means it expired: start over).
        if (err instanceof ApiError && err.status === 404) {
          seq.current++;
          setFlow({ kind: 'ended', provider: 'google', email: f.email, reason: 'expired', message: err.message });
          return;
        }
        setFlow((cur) => (cur.kind === 'paste' ? { ...cur, submitting: false, error: errorMessage(err) } : cur));
      }
    },
    [finish],
  );

  /** A returning redirect flow of this session (useOAuthReturn): asks the user to confirm it. */
  const offerConfirm = useCallback((returned: { flowId: string; email: string; code: string; state: string }) => {
    seq.current++;
    setFlow({ kind: 'confirm', provider: 'google', ...returned, submitting: false, error: null });
  }, []);

  const confirmReturn = useCallback(async () => {
    const f = flowRef.current;
    if (f.kind !== 'confirm' || f.submitting) return;
    const mine = seq.current;
    setFlow({ ...f, submitting: true, error: null });
    try {
      const res = await finishGoogleReturn(f.flowId, f.code, f.state);
      if (mine !== seq.current) return;
      finish('google', res.email || f.email);
    } catch (err) {
      if (mine !== seq.current) return;
      // A code is good once: whatever went wrong, the way on is a new sign-in.
      seq.current++;
      setFlow({ kind: 'ended', provider: 'google', email: f.email, reason: 'failed', message: errorMessage(err, t.returnFailed) });
    }
  }, [finish]);

  // The device flow's polling: one request at a time, `interval` apart.
  const deviceId = flow.kind === 'device' ? flow.flowId : null;
  useEffect(() => {
    if (!deviceId) return;
    const f = flowRef.current;
    if (f.kind !== 'device') return;
    const mine = seq.current;
    const controller = new AbortController();
    let timer: number | undefined;
    const end = (reason: EndReason, message: string | null | undefined) => {
      seq.current++;
      setFlow({ kind: 'ended', provider: 'microsoft', email: f.email, reason, message: endMessage(reason, message) });
    };
    const poll = async () => {
      if (mine !== seq.current) return;
      if (Date.now() >= f.expiresAt) {
        end('expired', null);
        return;
      }
      try {
        const s = await oauthFlow(f.flowId, controller.signal);
        if (mine !== seq.current) return;
        if (s.state === 'done') {
          finish('microsoft', s.email || f.email);
          return;
        }
        if (s.state === 'expired' || s.state === 'denied' || s.state === 'failed') {
          end(s.state, s.message);
          return;
        }
        setFlow((cur) => (cur.kind === 'device' && cur.trouble ? { ...cur, trouble: false } : cur));
        timer = window.setTimeout(() => void poll(), f.intervalMs);
      } catch (err) {
        if (mine !== seq.current || controller.signal.aborted) return;
        // No connection or a server error: try again. A 4xx (an unknown flow) ends it.
        if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
          end(err.status === 404 ? 'expired' : 'failed', err.message);
          return;
        }
        setFlow((cur) => (cur.kind === 'device' ? { ...cur, trouble: true } : cur));
        timer = window.setTimeout(() => void poll(), Math.max(f.intervalMs, RETRY_POLL_MS));
      }
    };
    timer = window.setTimeout(() => void poll(), f.intervalMs);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [deviceId, finish]);

  // The code's expiry, whether or not a poll is on its way.
  const deviceExpiresAt = flow.kind === 'device' ? flow.expiresAt : null;
  useEffect(() => {
    if (deviceExpiresAt === null) return;
    const mine = seq.current;
    const timer = window.setTimeout(
      () => {
        if (mine !== seq.current) return;
        seq.current++;
        setFlow((cur) =>
          cur.kind === 'device'
            ? { kind: 'ended', provider: 'microsoft', email: cur.email, reason: 'expired', message: t.device.expired }
            : cur,
        );
      },
      Math.max(0, deviceExpiresAt - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [deviceExpiresAt]);

  // Leaving the page stops any polling (the effects' cleanups) and drops late answers.
  useEffect(
    () => () => {
      seq.current++;
    },
    [],
  );

  return { flow, start, cancel, restart, submitPaste, offerConfirm, confirmReturn };
}

export type OAuthSignIn = ReturnType<typeof useOAuthSignIn>;
