// Beside the sidebar's "pending replies" entry: how many reply drafts wait (GET /api/drafts total,
// spec 000 §7: "polled every 30 s for the drafts count") and a red dot when an outbox item failed,
// so a mail that did not go out is noticed from any screen. Both read the same SWR entries as the
// Pending replies page.

import { he } from '../../i18n/he';
import { useDrafts } from './useDrafts';
import { useOutbox } from '../outbox/useOutbox';

const t = he.layout;

export function PendingIndicator() {
  const { total } = useDrafts();
  const { items } = useOutbox();
  const failed = items.some((i) => i.state === 'failed');
  if (total <= 0 && !failed) return null;
  return (
    <span className="pending-indicator">
      {total > 0 && (
        <span className="badge badge--drafts" title={t.draftsCount(total)} data-testid="drafts-count" data-count={total} dir="ltr">
          {total > 999 ? '999+' : total}
        </span>
      )}
      {failed && (
        <span className="outbox-failed-dot" role="img" aria-label={t.outboxFailed} title={t.outboxFailed} data-testid="outbox-failed" />
      )}
    </span>
  );
}
