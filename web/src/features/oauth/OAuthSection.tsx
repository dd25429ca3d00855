// The mail account form's OAuth2 part (issue 24): a "sign in with Google / Microsoft" button for
// each provider the admin configured, the one that fits the typed address (provider detection)
// highlighted; the running sign-in (FlowPanel); and, where the provider is not configured, what
// to do instead: a Gmail app password, step by step, or for Outlook/Hotmail/Live/Microsoft 365
// that the admin must set up OAuth (the section of docs/OAUTH.md).

import { useEffect, useRef, useState } from 'react';
import { oauthProviderOf, type OAuthProviderId } from '../../api/oauth';
import { useAuth } from '../../session/AuthProvider';
import { heOauth } from '../../i18n/oauth';
import '../../styles/oauth.css';
import { looksLikeAddress } from '../../lib/address';
import { ConfirmPanel } from './ConfirmPanel';
import { DeviceCodePanel } from './DeviceCodePanel';
import { PastePanel } from './PastePanel';
import type { OAuthSignIn } from './useOAuthSignIn';
import type { useOAuthProviders } from './useOAuthProviders';

const t = heOauth;

const ORDER: OAuthProviderId[] = ['google', 'microsoft'];

export function OAuthSection({
  email,
  detectedId,
  providers,
  signIn,
  disabled,
}: {
  /** The address typed in the form. */
  email: string;
  /** The provider detection's id for it (gmail, outlook, …), when known. */
  detectedId: string | null;
  providers: ReturnType<typeof useOAuthProviders>;
  signIn: OAuthSignIn;
  /** The password form is busy. */
  disabled: boolean;
}) {
  const [localError, setLocalError] = useState<string | null>(null);
  const suggested = oauthProviderOf(detectedId);
  const configured = ORDER.filter((id) => providers.configured(id));
  const { flow } = signIn;
  const busy = flow.kind === 'starting' || flow.kind === 'redirecting';

  useEffect(() => setLocalError(null), [email]);

  function start(id: OAuthProviderId) {
    if (!looksLikeAddress(email)) {
      setLocalError(t.emailFirst);
      document.getElementById('mail-email')?.focus();
      return;
    }
    setLocalError(null);
    void signIn.start(id, email);
  }

  const gmailHelp = providers.loaded && suggested === 'google' && !providers.configured('google');
  const microsoftHelp = providers.loaded && suggested === 'microsoft' && !providers.configured('microsoft');

  if (configured.length === 0 && flow.kind === 'idle' && !gmailHelp && !microsoftHelp) return null;

  return (
    <div className="oauth" data-testid="oauth-section">
      {configured.length > 0 && (
        <section className="oauth__signin" aria-labelledby="oauth-title">
          <h4 id="oauth-title" className="oauth__title">
            {t.title}
          </h4>
          <p className="field__hint">{t.intro}</p>
          <div className="oauth__buttons">
            {configured.map((id) => {
              const isSuggested = suggested === id;
              return (
                <button
                  key={id}
                  type="button"
                  className={`button oauth-button oauth-button--${id}${isSuggested ? ' button--primary' : ''}`}
                  disabled={disabled || busy}
                  aria-describedby={isSuggested ? 'oauth-suggested' : undefined}
                  onClick={() => start(id)}
                  data-testid={`oauth-${id}`}
                  data-suggested={isSuggested ? 'true' : 'false'}
                >
                  <ProviderMark id={id} />
                  {t[id]}
                </button>
              );
            })}
            {suggested && providers.configured(suggested) && (
              <span id="oauth-suggested" className="badge oauth__suggested">
                {t.suggested}
              </span>
            )}
          </div>
          {localError && (
            <p className="notice notice--error" role="alert" data-testid="oauth-error">
              {localError}
            </p>
          )}
        </section>
      )}

      <FlowPanel signIn={signIn} />

      {gmailHelp && <GmailHelp />}
      {microsoftHelp && <MicrosoftHelp />}
    </div>
  );
}

/** A small mark beside the provider's name (drawn here, nothing fetched). */
function ProviderMark({ id }: { id: OAuthProviderId }) {
  if (id === 'microsoft') {
    return (
      <svg className="oauth-button__mark" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <rect x="1" y="1" width="8.5" height="8.5" fill="#f25022" />
        <rect x="10.5" y="1" width="8.5" height="8.5" fill="#7fba00" />
        <rect x="1" y="10.5" width="8.5" height="8.5" fill="#00a4ef" />
        <rect x="10.5" y="10.5" width="8.5" height="8.5" fill="#ffb900" />
      </svg>
    );
  }
  return (
    <svg className="oauth-button__mark" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="10" cy="10" r="8" fill="none" stroke="#4285f4" strokeWidth="3" />
      <rect x="10" y="8.5" width="8" height="3" fill="#4285f4" />
    </svg>
  );
}

/** The sign-in under way, or how the last one ended. */
export function FlowPanel({ signIn }: { signIn: OAuthSignIn }) {
  const { flow } = signIn;
  const heading = useRef<HTMLHeadingElement>(null);
  const flowKey = flow.kind === 'device' || flow.kind === 'paste' || flow.kind === 'confirm' ? flow.flowId : flow.kind;

  // A new step of the sign-in: bring it into view (the accounts list's "sign in again" is above;
  // the confirmation after Google's redirect is below the page's top).
  useEffect(() => {
    if (flow.kind === 'device' || flow.kind === 'paste' || flow.kind === 'confirm') {
      heading.current?.scrollIntoView?.({ block: 'nearest' });
      heading.current?.focus({ preventScroll: true });
    }
  }, [flowKey, flow.kind]);

  if (flow.kind === 'idle') return null;

  let body;
  switch (flow.kind) {
    case 'starting':
      body = (
        <p className="oauth-flow__status" role="status" data-testid="oauth-starting">
          <span className="oauth-flow__spinner" aria-hidden="true" />
          {t.starting}
        </p>
      );
      break;
    case 'redirecting':
      body = (
        <p className="oauth-flow__status" role="status" data-testid="oauth-redirecting">
          <span className="oauth-flow__spinner" aria-hidden="true" />
          {t.redirecting}
        </p>
      );
      break;
    case 'device':
      body = <DeviceCodePanel flow={flow} onCancel={signIn.cancel} />;
      break;
    case 'paste':
      body = <PastePanel flow={flow} onSubmit={(url) => void signIn.submitPaste(url)} onCancel={signIn.cancel} />;
      break;
    case 'confirm':
      body = <ConfirmPanel flow={flow} onConfirm={() => void signIn.confirmReturn()} onCancel={signIn.cancel} />;
      break;
    case 'done':
      body = (
        <p className="notice notice--success" role="status" data-testid="oauth-done">
          {t.done(flow.email)}
        </p>
      );
      break;
    case 'ended':
    case 'startFailed':
      body = (
        <>
          <p
            className={`notice ${flow.kind === 'ended' && flow.reason === 'expired' ? 'notice--warning' : 'notice--error'}`}
            role="alert"
            data-testid="oauth-ended"
            data-reason={flow.kind === 'ended' ? flow.reason : 'start'}
          >
            {flow.kind === 'startFailed' && <span>{t.startFailed} </span>}
            {flow.message}
          </p>
          <div className="form__actions">
            <button type="button" className="button button--primary" onClick={signIn.restart} data-testid="oauth-restart">
              {flow.provider === 'microsoft' && flow.kind === 'ended' ? t.device.newCode : t.tryAgain}
            </button>
            <button type="button" className="button" onClick={signIn.cancel} data-testid="oauth-cancel">
              {t.cancel}
            </button>
          </div>
        </>
      );
      break;
  }

  return (
    <section className="oauth-panel" aria-labelledby="oauth-flow-title" data-testid="oauth-flow" data-kind={flow.kind}>
      <h4 id="oauth-flow-title" className="oauth__title" tabIndex={-1} ref={heading}>
        {t[flow.provider]}
      </h4>
      <p className="oauth-panel__who">
        {t.signingInAs} <bdi dir="ltr">{flow.email}</bdi>
      </p>
      {body}
    </section>
  );
}

function GmailHelp() {
  const g = t.gmailHelp;
  return (
    <details className="notice notice--info oauth-help" data-testid="oauth-gmail-help" open>
      <summary className="oauth-help__title">{g.title}</summary>
      <p>{g.intro}</p>
      <ol className="oauth-steps">
        <li>
          {g.step1}{' '}
          <a href="https://myaccount.google.com/signinoptions/two-step-verification" target="_blank" rel="noopener noreferrer">
            {g.step1Link}
          </a>
        </li>
        <li>
          {g.step2}{' '}
          <a href="https://myaccount.google.com/apppasswords" target="_blank" rel="noopener noreferrer">
            {g.step2Link}
          </a>
        </li>
        <li>{g.step3}</li>
      </ol>
      <p className="field__hint">{g.note}</p>
    </details>
  );
}

function MicrosoftHelp() {
  const m = t.microsoftHelp;
  const isAdmin = useAuth().user?.role === 'admin';
  return (
    <div className="notice notice--warning oauth-help" role="note" data-testid="oauth-microsoft-help">
      <p className="oauth-help__title">{m.title}</p>
      <p>{m.text}</p>
      <p>
        {isAdmin ? m.admin : m.user}{' '}
        <bdi dir="ltr" className="oauth-help__section" data-testid="oauth-readme-section">
          {t.readmeSection}
        </bdi>
      </p>
    </div>
  );
}
