// What a connection test or save came to, in the mail account form: the message with a result
// per server, and the certificate trust part (spec 001 §4): a certificate the server would not
// trust is shown by its fingerprint to accept, and certificates already accepted are listed.

import type { ServerCheck } from '../../api/types';
import { CheckIcon } from '../../components/icons';
import { heSettings } from '../../i18n/settings';
import type { Outcome, Pins, Server } from './mailAccountForm';

const t = heSettings.mail;

export function OutcomeView({ outcome }: { outcome: Outcome }) {
  const { result } = outcome;
  const tone = outcome.status === 'ok' ? 'success' : 'error';
  return (
    <div className="mail-outcome" data-testid="mail-outcome" data-status={outcome.status}>
      <p className={`notice notice--${tone}`} role={outcome.status === 'ok' ? 'status' : 'alert'} data-testid="mail-outcome-message">
        {outcome.message}
      </p>
      {result && (
        <ul className="mail-results">
          <ServerResult server="imap" check={result.imap} />
          <ServerResult server="smtp" check={result.smtp} />
        </ul>
      )}
    </div>
  );
}

function ServerResult({ server, check }: { server: Server; check: ServerCheck | undefined }) {
  const ok = check?.ok === true;
  return (
    <li className={`mail-result ${ok ? 'mail-result--ok' : 'mail-result--failed'}`} data-testid={`mail-result-${server}`} data-ok={ok}>
      <span className="mail-result__server">{t.servers[server]}</span>
      {ok ? (
        <span className="mail-result__status">
          <CheckIcon /> {t.resultOk}
        </span>
      ) : (
        <span className="mail-result__status">
          <strong data-testid={`mail-result-${server}-kind`}>
            {(check?.kind && t.kinds[check.kind]) || t.resultFailed}
          </strong>
          {check?.message && (
            <span className="mail-result__message" dir="auto">
              {check.message}
            </span>
          )}
          {check?.detail && (
            <bdi dir="ltr" className="mail-result__detail">
              {check.detail}
            </bdi>
          )}
        </span>
      )}
    </li>
  );
}

export function CertificateWarning({ untrusted, busy, onAccept }: { untrusted: Pins; busy: boolean; onAccept: () => void }) {
  // One server name when both present the same certificate (one host for IMAP and SMTP).
  const same = untrusted.imap && untrusted.smtp && untrusted.imap === untrusted.smtp;
  const rows: [string, string, Server][] = same
    ? [[`${t.servers.imap}, ${t.servers.smtp}`, untrusted.imap!, 'imap']]
    : (['imap', 'smtp'] as const)
        .filter((s) => untrusted[s])
        .map((s) => [t.servers[s], untrusted[s]!, s]);
  return (
    <div className="notice notice--warning cert-warning" role="alert" data-testid="mail-fingerprint">
      <p className="cert-warning__title">{t.certTitle}</p>
      <p>{t.certExplain}</p>
      {rows.map(([label, fp, s]) => (
        <div key={s} className="cert-warning__row">
          <span>{t.certFingerprint(label)}</span>
          <code dir="ltr" className="fingerprint" data-testid={`mail-fingerprint-${s}`}>
            {fp}
          </code>
        </div>
      ))}
      <div>
        <button type="button" className="button" disabled={busy} onClick={onAccept} data-testid="mail-accept-cert">
          {t.acceptCert}
        </button>
      </div>
    </div>
  );
}

/** The certificates already accepted for this account, by server. */
export function PinnedCertificates({ pins }: { pins: Pins }) {
  return (
    <p className="field__hint" data-testid="mail-pinned">
      {t.certPinned}:{' '}
      {(['imap', 'smtp'] as const).map(
        (s) =>
          pins[s] && (
            <bdi key={s} dir="ltr" className="fingerprint fingerprint--inline">
              {t.pinnedFor(s, pins[s])}{' '}
            </bdi>
          ),
      )}
    </p>
  );
}
