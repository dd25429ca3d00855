// The card's stats area (spec 001 §2, §3 "Auto-reply stats", §9: refreshed every 30 s): drafts
// written today, auto-reply drafts still waiting, remaining today (of the daily maximum), whether
// the monitor watches, its last check (in the user's time zone), and mail waiting for a check.
// The live `auto_reply` event re-reads it at once (app/live).

import type { SWRResponse } from 'swr';
import type { AutoReplyStats } from '../../api/autoReply';
import { heAutoReply } from '../../i18n/autoReply';
import { formatDateTime } from '../../lib/dates';
import { LoadState } from '../../components/LoadState';
import { Fact } from '../../components/Fact';
import { count } from '../../i18n/count';

const t = heAutoReply.stats;

/** Spec 001 §9. */
export const AUTO_REPLY_STATS_POLL_MS = 30_000;

const n = count;

export function StatsPanel({ stats }: { stats: SWRResponse<AutoReplyStats> }) {
  const data = stats.data;
  let body;
  if (data) {
    const tiles = [
      { id: 'today', label: t.todayCount, value: n(data.todayCount) },
      { id: 'drafts', label: t.totalDrafts, value: n(data.totalAutoReplyDrafts) },
      { id: 'remaining', label: t.remainingToday, value: n(data.remainingToday), extra: t.ofMax(data.maxPerDay) },
    ];
    body = (
      <>
        {/* A live region: a count that changes is read out with its label. */}
        <div role="status">
          <ul className="stats-grid auto-reply-stats__grid" aria-label={t.title}>
            {tiles.map((tile) => (
              <li key={tile.id} className="stat-tile" aria-atomic="true">
                <span className="stat-tile__value" data-testid={`auto-reply-stat-${tile.id}`}>
                  {tile.value}
                </span>
                <span className="stat-tile__label">
                  {tile.label}
                  {tile.extra && <span className="auto-reply-stats__extra"> {tile.extra}</span>}
                </span>
              </li>
            ))}
          </ul>
        </div>
        <dl className="facts auto-reply-stats__facts">
          <Fact label={t.monitoring}>
            <span
              className={`auto-reply-stats__state${data.isMonitoring ? ' is-on' : ''}`}
              data-testid="auto-reply-monitoring"
              data-on={data.isMonitoring}
            >
              <span className="auto-reply-stats__dot" aria-hidden="true" />
              {data.isMonitoring ? t.on : t.off}
            </span>
          </Fact>
          <Fact label={t.lastCheck} testId="auto-reply-last-check">
            {data.lastCheck ? <time dateTime={data.lastCheck}>{formatDateTime(data.lastCheck)}</time> : t.never}
          </Fact>
        </dl>
        {data.waiting > 0 && (
          <p className="muted auto-reply-stats__waiting" data-testid="auto-reply-waiting">
            {t.waiting(data.waiting)}
          </p>
        )}
      </>
    );
  } else {
    body = <LoadState of={stats} text={t} testIds={{ error: 'auto-reply-stats-error' }} />;
  }

  return (
    <section className="auto-reply__section auto-reply-stats" aria-labelledby="auto-reply-stats-title" data-testid="auto-reply-stats">
      <h3 id="auto-reply-stats-title" className="card__subtitle">
        {t.title}
      </h3>
      {body}
    </section>
  );
}
