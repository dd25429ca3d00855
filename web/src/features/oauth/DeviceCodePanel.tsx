// Microsoft's device-code sign-in as the user sees it: the link to open (a new tab), the code to
// type there (big, copyable), a countdown to its expiry, and a status line that screen readers
// hear when it changes. The polling itself is in useOAuthSignIn. A warning says never to enter a
// code someone else sent: a device code connects the mailbox of whoever enters it to the account
// of whoever asked for it (docs/SECURITY.md, "OAuth sign-in").

import { useEffect, useState } from 'react';
import { heOauth } from '../../i18n/oauth';
import type { OAuthFlow } from './useOAuthSignIn';

const t = heOauth;
const td = heOauth.device;

type DeviceFlow = Extract<OAuthFlow, { kind: 'device' }>;

/** m:ss (or h:mm:ss), in digits read left to right. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

type CopyState = 'idle' | 'copied' | 'failed';

export function DeviceCodePanel({ flow, onCancel }: { flow: DeviceFlow; onCancel: () => void }) {
  const now = useNow(true);
  const [copy, setCopy] = useState<CopyState>('idle');
  const remaining = flow.expiresAt - now;

  async function copyCode() {
    try {
      await navigator.clipboard.writeText(flow.userCode);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <div className="oauth-flow" data-testid="oauth-device" data-state="pending">
      <p className="notice notice--warning" role="note" data-testid="oauth-device-phishing">
        {td.phishing}
      </p>
      <ol className="oauth-steps">
        <li>
          <span>{td.step1}</span>
          <span className="oauth-flow__open">
            <a
              href={flow.verificationUri}
              target="_blank"
              rel="noopener noreferrer"
              className="oauth-flow__link"
              data-testid="oauth-device-link"
            >
              {td.openLink}
              <span className="visually-hidden"> {td.newTab}</span>
            </a>
          </span>
          <span className="oauth-flow__url">
            <bdi dir="ltr">{flow.verificationUri}</bdi>
          </span>
        </li>
        <li>
          <span id="oauth-code-label">{td.step2}</span>
          <div className="oauth-code">
            <output
              className="oauth-code__value"
              dir="ltr"
              aria-labelledby="oauth-code-label"
              data-testid="oauth-device-code"
            >
              {flow.userCode}
            </output>
            <button type="button" className="button" onClick={() => void copyCode()} data-testid="oauth-device-copy">
              {td.copy}
            </button>
          </div>
          <p className="oauth-code__copied" role="status" data-testid="oauth-device-copied">
            {copy === 'copied' ? td.copied : copy === 'failed' ? td.copyFailed : ''}
          </p>
        </li>
      </ol>
      <p className="oauth-flow__status" role="status" data-testid="oauth-device-status">
        <span className="oauth-flow__spinner" aria-hidden="true" />
        {td.waiting}
      </p>
      <p className="oauth-flow__countdown" data-testid="oauth-device-countdown">
        {td.remaining} <bdi dir="ltr">{formatRemaining(remaining)}</bdi>
      </p>
      {flow.trouble && (
        <p className="notice notice--warning" role="status" data-testid="oauth-device-trouble">
          {t.connectionTrouble}
        </p>
      )}
      <div className="form__actions">
        <button type="button" className="button" onClick={onCancel} data-testid="oauth-cancel">
          {t.cancel}
        </button>
      </div>
    </div>
  );
}
