// /Compose (spec 000 §2). Where the mail starts from, in order: an outbox item to edit
// (?outboxId=), a mail handed back by "undo send" (location.state.mail), else the query
// parameters of a reply or a smart feature (prefill.ts). The form is keyed by the location, so
// following the sidebar's "new mail" link from a half-written reply starts a fresh mail.

import { useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { ComposeForm } from './ComposeForm';
import { OutboxEdit } from './OutboxEdit';
import { fromMail, fromParams, mailFromState } from './prefill';

export default function ComposePage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const outboxId = params.get('outboxId');
  // Read once per entry (location.key), not on every render: the form owns the values after that.
  const initial = useMemo(() => {
    const mail = mailFromState(location.state);
    return mail ? fromMail(mail) : fromParams(params);
  }, [location.key]);
  if (outboxId) return <OutboxEdit key={location.key} outboxId={outboxId} />;
  return <ComposeForm key={location.key} initial={initial} outboxId={null} />;
}
