// The provider and server part of the mail account form: what detection found for the address
// (a known provider with its note, or the domain's guess the server will try), and the server,
// port and implicit-TLS fields of IMAP and SMTP.

import type { DetectedProvider } from '../../api/types';
import { CheckboxField, TextField } from '../../components/Field';
import { heSettings } from '../../i18n/settings';
import { PORT_PLACEHOLDER, type Form, type Server, type ServerField } from './mailAccountForm';

const t = heSettings.mail;

export function ProviderHint({ provider, detecting }: { provider: DetectedProvider | null; detecting: boolean }) {
  if (detecting && !provider) {
    return (
      <p className="field__hint" role="status" data-testid="mail-provider">
        {t.detecting}
      </p>
    );
  }
  if (!provider) return null;
  if (!provider.known) {
    return (
      <p className="notice notice--info mail-provider" role="status" data-testid="mail-provider">
        {/* One inline run: the notice lays out its children as blocks. */}
        <span>
          {t.guessed} <bdi dir="ltr">{provider.imapServer}</bdi> · <bdi dir="ltr">{provider.smtpServer}</bdi>
        </span>
      </p>
    );
  }
  return (
    <div className="notice notice--info mail-provider" role="status" data-testid="mail-provider">
      <p>
        {t.provider} <bdi className="mail-provider__name">{provider.name}</bdi>
      </p>
      {provider.note && (
        <p className="mail-provider__note" dir="auto" data-testid="mail-provider-note">
          {provider.note}
        </p>
      )}
    </div>
  );
}

/** Server, port and implicit-TLS fields of one protocol (IMAP or SMTP). */
export function ServerFields({
  server,
  form,
  guess,
  disabled,
  onChange,
}: {
  server: Server;
  form: Form;
  guess: string | undefined;
  disabled: boolean;
  onChange: <K extends ServerField>(field: K, value: Form[K]) => void;
}) {
  const host = `${server}Server` as const;
  const port = `${server}Port` as const;
  const ssl = `${server}Ssl` as const;
  return (
    <>
      <TextField
        id={`mail-${server}-server`}
        verbatim
        label={t[host]}
        autoComplete="off"
        placeholder={guess ?? t[`${server}Placeholder`]}
        disabled={disabled}
        value={form[host]}
        onValueChange={(v) => onChange(host, v)}
      />
      <TextField
        id={`mail-${server}-port`}
        label={t[port]}
        dir="ltr"
        inputMode="numeric"
        autoComplete="off"
        placeholder={PORT_PLACEHOLDER[server]}
        disabled={disabled}
        value={form[port]}
        onValueChange={(v) => onChange(port, v)}
      />
      <CheckboxField
        id={`mail-${server}-ssl`}
        label={t[ssl]}
        disabled={disabled}
        checked={form[ssl]}
        onCheckedChange={(v) => onChange(ssl, v)}
      />
    </>
  );
}
