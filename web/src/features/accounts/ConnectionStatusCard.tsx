// "מצב החיבור" (spec 001 §2's side column, built for real rather than as the spec's demo): per
// connected mailbox, whether the server is connected to it right now (the sync engine's state),
// why not when it is not (password refused, a TLS problem, the server unreachable) with the
// server's own message, when it tries again, the last completed sync, and whether new mail is
// pushed (IMAP IDLE) or polled; a provider slowing the sync down (Outlook's throttling) as such,
// not as a failure.
//
// The data is useMailAccounts (GET /api/auth/accounts). The live channel revalidates that key on
// a `sync_status` event; the 30 s poll is only the fallback when the channel is down.

import type { MailAccountWithSync } from '../../api/types';
import { heSettings } from '../../i18n/settings';
import { formatDateTime } from '../../lib/dates';
import { useMailAccounts } from './useMailAccounts';
import '../../styles/settings-cards.css';
import { connectionView, lastSyncText, retryText, type ConnectionView } from './connectionStatus';
import { useNow } from '../../components/useNow';
import { Card } from '../../components/Card';
import { LoadState } from '../../components/LoadState';

const t = heSettings.cards.connection;

/** The fallback poll of the accounts while nothing is busy (the live channel is the fast path). */
export const CONNECTION_POLL_MS = 30_000;

export function ConnectionStatusCard() {
  const { accounts, failed, error, mutate } = useMailAccounts({ idleInterval: CONNECTION_POLL_MS });
  const views = accounts?.map((a) => [a, connectionView(a.sync)] as const);
  // Tick only while some retry is counted down.
  const counting = views?.some(([, v]) => typeof v.retry === 'number') ?? false;
  const now = useNow(counting);

  let body;
  if (failed || !views) {
    body = <LoadState of={{ error, mutate }} text={t} failed={failed} testIds={{ error: 'connection-status-error' }} />;
  } else if (views.length === 0) {
    body = (
      <p className="card__status" data-testid="connection-status-empty">
        {t.none}
      </p>
    );
  } else {
    body = (
      <ul className="conn-list" aria-label={t.listLabel}>
        {views.map(([a, v]) => (
          <ConnectionRow key={a.id} account={a} view={v} now={now} />
        ))}
      </ul>
    );
  }

  return (
    <Card id="connection-status" title={t.title} testId="connection-status">
      {body}
    </Card>
  );
}

function ConnectionRow({ account: a, view: v, now }: { account: MailAccountWithSync; view: ConnectionView; now: number }) {
  const last = lastSyncText(v.lastSync, now);
  return (
    <li className="conn-row" data-testid="connection-row" data-email={a.email_address} data-kind={v.kind}>
      <bdi dir="ltr" className="conn-row__address" data-testid="connection-address">
        {a.email_address}
      </bdi>
      {/* Announced when it changes; the countdown below is not (it changes every second). */}
      <p className="conn-status" role="status" data-testid="connection-state">
        <span className={`conn-dot conn-dot--${v.tone}`} aria-hidden="true" />
        <span>{t.states[v.kind]}</span>
      </p>
      {v.error && (
        <p className="conn-row__error" dir="auto" data-testid="connection-error">
          {v.error}
        </p>
      )}
      {v.retry !== null && <RetryLine retry={v.retry} now={now} />}
      <p className="conn-row__meta" data-testid="connection-last-sync">
        {t.lastSync}{' '}
        {last ? (
          <time dateTime={new Date(v.lastSync! * 1000).toISOString()} title={formatDateTime(v.lastSync! * 1000)}>
            {last}
          </time>
        ) : (
          t.never
        )}
      </p>
      {v.idle !== null && (
        <p className="conn-row__meta" data-testid="connection-idle" data-idle={v.idle}>
          {v.idle ? t.idleOn : t.idleOff}
        </p>
      )}
    </li>
  );
}

function RetryLine({ retry, now }: { retry: 'now' | number; now: number }) {
  const r = retryText(retry, now);
  const text = r.kind === 'now' ? t.retryNow : r.kind === 'in' ? t.retryIn(r.secs) : t.retryAt(r.time);
  return (
    <p className="conn-row__meta" data-testid="connection-retry">
      {text}
    </p>
  );
}
