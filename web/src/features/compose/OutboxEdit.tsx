// Compose opened on an outbox item (?outboxId=): the item is read from GET /api/outbox and the
// form starts from its mail. The first copy found is kept: the outbox list is revalidated on every
// outbox change (live updates), and a later answer must not reset what the user is typing.

import { useState } from 'react';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { outgoingKeys, type OutboxResponse } from '../../api/outgoing';
import { LoadError } from '../../components/LoadError';
import { heCompose } from '../../i18n/compose';
import { ComposeForm } from './ComposeForm';
import { fromMail, type ComposeInitial } from './prefill';

export function OutboxEdit({ outboxId }: { outboxId: string }) {
  const t = heCompose;
  const { data, error, mutate } = useSWR<OutboxResponse>(outgoingKeys.outbox());
  const [initial, setInitial] = useState<ComposeInitial | null>(null);
  const item = data?.items.find((i) => i.id === outboxId);

  // Adopted during render (not in an effect) so the form mounts with the item on the first pass.
  if (!initial && item && item.state !== 'sending') setInitial(fromMail(item.mail));

  if (initial) return <ComposeForm initial={initial} outboxId={outboxId} />;

  let message;
  if (error && !data) {
    message = <LoadError message={`${t.outboxLoadFailed}: ${errorMessage(error)}`} onRetry={() => void mutate()} />;
  } else if (!data) {
    message = (
      <p className="card__status" role="status">
        {t.outboxLoading}
      </p>
    );
  } else {
    message = (
      <p className="notice notice--warning" role="status" data-testid="compose-outbox-missing">
        {item?.state === 'sending' ? t.outboxSending : t.outboxMissing}
      </p>
    );
  }
  return (
    <section className="page-section compose compose--message" data-testid="compose-page">
      {message}
      <Link to="/Inbox" className="button" data-testid="compose-back">
        {t.back}
      </Link>
    </section>
  );
}
