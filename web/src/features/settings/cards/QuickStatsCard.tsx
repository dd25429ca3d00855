// "סטטיסטיקה מהירה" (spec 001 §2's side column, with the real counts instead of the spec's fixed
// sample numbers): inbox, unread, sent today, drafts, trash and needs-reply from GET
// /api/emails/counts. The key is the one the sidebar's badges read (useFolderCounts polls it and
// the live channel refreshes it on every change), so these tiles follow the mail without a poll
// of their own. useFolderCounts itself does not fit: its answer has no `sentToday` nor the
// inbox total (its `inbox` is the badge, needs-reply plus unread), and it hides failures.

import useSWR from 'swr';
import { keys } from '../../../api/keys';
import type { EmailCountsResponse } from '../../../api/types';
import { useAuth } from '../../../session/AuthProvider';
import { Card } from '../../../components/Card';
import { LoadState } from '../../../components/LoadState';
import { heSettings } from '../../../i18n/settings';
import '../../../styles/settings-cards.css';
import { count } from '../../../i18n/count';

const t = heSettings.cards.stats;

/** The tiles, in reading order. */
export const STATS = ['inbox', 'unread', 'sentToday', 'drafts', 'trash', 'needsReply'] as const;
export type Stat = (typeof STATS)[number];

function countOf(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? count(v) : t.unknown;
}

export function QuickStatsCard() {
  const { isAuthenticated } = useAuth();
  const counts = useSWR<EmailCountsResponse>(isAuthenticated ? keys.emailCounts() : null);
  const data = counts.data && typeof counts.data === 'object' ? counts.data : undefined;

  let body;
  if (data) {
    // A live region: a count that changes is read out with its label (each tile is atomic).
    body = (
      <div role="status">
        <ul className="stats-grid" aria-label={t.listLabel}>
          {STATS.map((s) => (
            <li key={s} className="stat-tile" aria-atomic="true">
              <span className="stat-tile__value" data-testid={`stat-${s}`}>
                {countOf(data[s])}
              </span>
              <span className="stat-tile__label">{t.labels[s]}</span>
            </li>
          ))}
        </ul>
      </div>
    );
  } else {
    const failed = counts.error !== undefined || counts.data !== undefined;
    body = <LoadState of={counts} text={t} failed={failed} testIds={{ error: 'quick-stats-error' }} />;
  }

  return (
    <Card id="quick-stats" title={t.title} testId="quick-stats">
      {body}
    </Card>
  );
}
