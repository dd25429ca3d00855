// "ספקים נתמכים" (spec 001 §2 "Supported providers list"): the providers whose servers the mail
// account form fills in from the address alone, grouped international / Israeli as the server
// marks them (GET /api/providers, `region`), each with its IMAP and SMTP servers, and the tip
// that for any other domain the servers are guessed from the domain.

import useSWR from 'swr';
import type { MailProvider, ProvidersResponse } from '../../api/types';
import { Card } from '../../components/Card';
import { LoadState } from '../../components/LoadState';
import { heSettings } from '../../i18n/settings';
import '../../styles/settings-cards.css';

const t = heSettings.cards.providers;

/** The SWR key (the GET path, as api/keys.ts does it; the list has no entry there yet). */
export const PROVIDERS_KEY = '/api/providers';

const REGIONS = ['international', 'israeli'] as const;

export function ProvidersCard() {
  const list = useSWR<ProvidersResponse>(PROVIDERS_KEY);
  const providers = Array.isArray(list.data?.providers) ? list.data.providers : undefined;

  let body;
  if (providers) {
    body = REGIONS.map((region) => {
      const group = providers.filter((p) => p.region === region);
      if (group.length === 0) return null;
      return (
        <div key={region} className="providers-group" data-testid={`providers-${region}`}>
          <h3 id={`providers-${region}-title`} className="card__subtitle">
            {t.regions[region]}
          </h3>
          <ul className="provider-list" aria-labelledby={`providers-${region}-title`}>
            {group.map((p) => (
              <ProviderItem key={p.id} provider={p} />
            ))}
          </ul>
        </div>
      );
    });
  } else {
    // A 2xx without a list (a proxy's page) is a failure too, not an endless "loading".
    const failed = list.error !== undefined || list.data !== undefined;
    body = <LoadState of={list} text={t} failed={failed} testIds={{ error: 'providers-error' }} />;
  }

  return (
    <Card id="providers-card" title={t.title} intro={t.intro} testId="providers-card">
      {body}
      <p className="notice notice--info" data-testid="providers-tip">
        {t.tip}
      </p>
    </Card>
  );
}

function ProviderItem({ provider: p }: { provider: MailProvider }) {
  return (
    <li className="provider" data-testid={`provider-${p.id}`}>
      <bdi className="provider__name">{p.name}</bdi>
      <span className="provider__server">
        {t.imap}{' '}
        <bdi dir="ltr" data-testid={`provider-${p.id}-imap`}>
          {t.server(p.imapServer, p.imapPort, p.imapSsl)}
        </bdi>
      </span>
      <span className="provider__server">
        {t.smtp}{' '}
        <bdi dir="ltr" data-testid={`provider-${p.id}-smtp`}>
          {t.server(p.smtpServer, p.smtpPort, p.smtpSsl)}
        </bdi>
      </span>
      {p.note && (
        <span className="provider__note" dir="auto">
          {p.note}
        </span>
      )}
    </li>
  );
}
