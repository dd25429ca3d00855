// The form that connects a mailbox (spec 001 §4): address and password, the provider and server
// fields, the outcome of a test or save, the certificate trust part, and the test and save
// buttons (and for admins "save for all users", spec 001 §2), and the "detect provider" button
// with a line saying what it found; below the provider, signing in with Google or Microsoft
// instead of a password (features/oauth/OAuthSection). Its state lives in useMailAccountForm, which the card owns
// (the account list's "edit" and the global settings' offer fill it).

import type { FormEvent } from 'react';
import { useAuth } from '../../session/AuthProvider';
import { SubmitButton, TextField } from '../../components/Field';
import { heSettings } from '../../i18n/settings';
import { heHousehold } from '../../i18n/household';
import '../../styles/settings-cards.css';
import { HouseholdAiKeyField } from '../household/HouseholdAiKeyField';
import { OAuthSection } from '../oauth/OAuthSection';
import type { useOAuthProviders } from '../oauth/useOAuthProviders';
import type { OAuthSignIn } from '../oauth/useOAuthSignIn';
import { CertificateWarning, OutcomeView, PinnedCertificates } from './MailConnectionResult';
import { ProviderHint, ServerFields } from './MailServerFields';
import type { DetectStatus, MailAccountForm } from './useMailAccountForm';

const t = heSettings.mail;
const td = heSettings.cards.detect;
const th = heHousehold.mail;

export function MailConnectForm({
  mail,
  oauth,
}: {
  mail: MailAccountForm;
  /** Signing in with Google or Microsoft (issue 24): the providers configured and the sign-in. */
  oauth?: { providers: ReturnType<typeof useOAuthProviders>; signIn: OAuthSignIn };
}) {
  const { form, connected, provider, pins, untrusted, busy, outcome } = mail;
  const isAdmin = useAuth().user?.role === 'admin';
  const disabled = busy !== null;
  const refused = Boolean(untrusted.imap || untrusted.smtp);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void mail.run('save');
  }

  return (
    <form className="form mail-form" onSubmit={onSubmit} noValidate aria-labelledby="mail-form-title">
      <h3 id="mail-form-title" className="card__subtitle">
        {t.formTitle}
      </h3>
      <div className="form-grid">
        <TextField
          id="mail-email"
          verbatim
          label={t.email}
          type="email"
          autoComplete="email"
          placeholder={t.emailPlaceholder}
          required
          disabled={disabled}
          value={form.email}
          onValueChange={mail.setEmail}
          onBlur={() => void mail.detect(form.email)}
        />
        <TextField
          id="mail-password"
          label={t.password}
          hint={mail.fromGlobal ? th.globalPasswordHint : connected ? t.passwordKeepHint : t.passwordHint}
          type="password"
          dir="ltr"
          autoComplete="current-password"
          disabled={disabled}
          value={form.password}
          onValueChange={mail.setPassword}
        />
      </div>

      <div className="mail-detect">
        <button
          type="button"
          className="button"
          // Not disabled while detecting: leaving the address field to click here starts the
          // automatic detection, which the click then takes over.
          disabled={disabled || !form.email.includes('@')}
          onClick={() => void mail.detectNow()}
          data-testid="mail-detect"
        >
          {td.button}
        </button>
        <DetectStatusLine status={mail.detectStatus} />
      </div>

      <ProviderHint provider={provider} detecting={mail.detecting} />

      {oauth && (
        <OAuthSection
          email={form.email}
          detectedId={provider?.known ? provider.id : null}
          providers={oauth.providers}
          signIn={oauth.signIn}
          disabled={disabled}
        />
      )}

      <div className="mail-servers">
        {(['imap', 'smtp'] as const).map((server) => (
          <ServerFields
            key={server}
            server={server}
            form={form}
            guess={provider && !provider.known ? provider[`${server}Server`] : undefined}
            disabled={disabled}
            onChange={mail.setByHand}
          />
        ))}
      </div>
      <p className="field__hint">{t.sslHint}</p>

      {mail.localError && (
        <p className="notice notice--error" role="alert" data-testid="mail-error">
          {mail.localError}
        </p>
      )}

      {outcome && <OutcomeView outcome={outcome} />}

      {outcome && refused && <CertificateWarning untrusted={untrusted} busy={disabled} onAccept={mail.acceptCertificates} />}

      {(pins.imap || pins.smtp) && !refused && <PinnedCertificates pins={pins} />}

      {isAdmin && <HouseholdAiKeyField value={mail.householdKey} onChange={mail.setHouseholdKey} disabled={disabled} />}

      <div className="form__actions">
        <button
          type="button"
          className="button"
          disabled={disabled || !form.email.trim()}
          onClick={() => void mail.run('test')}
          data-testid="mail-test"
        >
          {busy === 'test' ? t.testing : t.test}
        </button>
        <SubmitButton busy={busy === 'save'} busyLabel={t.saving} disabled={disabled || !form.email.trim()} testId="mail-save">
          {t.save}
        </SubmitButton>
        {isAdmin && (
          <button
            type="button"
            className="button"
            disabled={disabled}
            onClick={() => void mail.saveForAll()}
            aria-describedby="mail-save-all-hint"
            data-testid="mail-save-all"
          >
            {busy === 'global' ? th.savingForAll : th.saveForAll}
          </button>
        )}
      </div>
      {isAdmin && (
        <p id="mail-save-all-hint" className="field__hint">
          {th.saveForAllHint}
        </p>
      )}
    </form>
  );
}

function DetectStatusLine({ status }: { status: DetectStatus | null }) {
  let content = null;
  if (status?.kind === 'known') {
    content = (
      <>
        {td.known} <bdi>{status.name}</bdi>. {td.filled}
      </>
    );
  } else if (status?.kind === 'guess') {
    content = (
      <>
        {td.guess} <bdi dir="ltr">{status.domain}</bdi>. {td.guessKept}
      </>
    );
  } else if (status?.kind === 'error') {
    content = (
      <>
        {td.failed} {status.message}
      </>
    );
  }
  // Always in the document, so the live region exists before its first message.
  return (
    <p
      className={status?.kind === 'error' ? 'mail-detect__status mail-detect__status--error' : 'mail-detect__status'}
      role="status"
      data-testid="mail-detect-status"
      data-kind={status?.kind ?? ''}
    >
      {content}
    </p>
  );
}
