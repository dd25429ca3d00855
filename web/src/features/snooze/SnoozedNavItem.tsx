// The sidebar's "snoozed" entry (issue 40): a virtual folder among the mail folders, as Gmail and
// Fastmail place it, leading to the "snoozed and awaiting" page with the number of sleeping
// threads. The list is re-read after a snooze, a wake (live `snooze_woke`) and on the page.

import { Link } from 'react-router-dom';
import useSWR from 'swr';
import type { SnoozeListResponse } from '../../api/attention';
import { keys } from '../../api/keys';
import { ClockIcon } from '../../components/icons';
import { heSnooze } from '../../i18n/snooze';

const t = heSnooze;

export function SnoozedNavItem({ active }: { active: boolean }) {
  const { data } = useSWR<SnoozeListResponse>(keys.snoozed());
  const count = data?.snoozed.length ?? 0;
  return (
    <li>
      <Link
        to="/Snoozed"
        className={`nav-item${active ? ' is-active' : ''}`}
        aria-current={active ? 'page' : undefined}
        title={t.navHint}
        data-testid="folder-snoozed"
      >
        <ClockIcon />
        <span className="nav-item__label">{t.navLabel}</span>
        {count > 0 && (
          <span className="badge" data-testid="folder-count-snoozed" data-count={count} dir="ltr">
            {count > 999 ? '999+' : count}
          </span>
        )}
      </Link>
    </li>
  );
}
