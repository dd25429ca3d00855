// The Inbox Zero panel's follow-ups line (issue 40): how many sent mails are past their wait with
// no answer, a link to the "snoozed and awaiting" page. Read from the follow-ups feature's own list
// (GET /api/followups), re-read by the live `follow_up_due` notice and polled as the panel is.

import { Link } from 'react-router-dom';
import useSWR from 'swr';
import type { FollowUpsResponse } from '../../api/attention';
import { keys } from '../../api/keys';
import { ClockIcon } from '../../components/icons';
import { heSnooze } from '../../i18n/snooze';

const t = heSnooze;

/** Nothing while none is overdue (or the list cannot be read: the panel has its own errors). */
export function AwaitingLine({ pollMs }: { pollMs: number }) {
  const { data } = useSWR<FollowUpsResponse>(keys.followUps(), { refreshInterval: pollMs });
  const overdue = data?.overdue ?? 0;
  if (overdue <= 0) return null;
  return (
    <Link to="/Snoozed" className="iz-awaiting" data-testid="iz-awaiting" data-count={overdue} title={t.awaitingHint}>
      <ClockIcon className="iz-awaiting__icon" />
      <span>{t.awaitingLine(overdue)}</span>
    </Link>
  );
}
