// Productivity insights (GET /api/smart/insights, computed on the server from stored mail, no AI):
// mail received and sent over the period, reply time, reply rate, the needs-reply backlog, the
// busiest senders and weekday (counted in the browser's time zone). A value the server could not
// compute (null) shows '—' with why.

import useSWR from 'swr';
import { aiKeys, type Insights } from '../../api/ai';
import { errorMessage } from '../../api/client';
import { useAuth } from '../../session/AuthProvider';
import { heSmart } from '../../i18n/smart';
import { formatHours, formatPercent, safeCount, weekdayName } from './format';
import { SmartError } from './SmartError';

const t = heSmart.insights;

/**
 * The insights of the browser's time zone: the server counts days and weekdays at `tz` minutes
 * east of UTC (src/smart/routes.rs; Israel is 120 or 180 depending on the season).
 */
export function insightsKey(now: Date = new Date()): string {
  return `${aiKeys.insights()}?tz=${-now.getTimezoneOffset()}`;
}

function Stat({ testId, label, value, note }: { testId: string; label: string; value: string | null; note?: string | null }) {
  return (
    <div className="smart-stat" data-testid={testId} data-empty={value === null}>
      <dt className="smart-stat__label">{label}</dt>
      <dd className="smart-stat__value">{value ?? t.none}</dd>
      {note && <dd className="smart-stat__note">{note}</dd>}
    </div>
  );
}

function Body({ data }: { data: Insights }) {
  const replyTime = data.replyTime ?? { medianHours: null, averageHours: null, samples: 0 };
  const median = formatHours(replyTime.medianHours);
  const average = formatHours(replyTime.averageHours);
  const samples = safeCount(replyTime.samples);
  const rate = formatPercent(data.replyRate);
  const waiting = data.needsReply ?? { count: 0, urgent: 0, oldestDays: null };
  const waitingCount = safeCount(waiting.count);
  const urgent = safeCount(waiting.urgent);
  const oldest = typeof waiting.oldestDays === 'number' && Number.isFinite(waiting.oldestDays) ? waiting.oldestDays : null;
  const senders = (Array.isArray(data.busiestSenders) ? data.busiestSenders : []).slice(0, 5);
  const day = data.busiestDay ? weekdayName(data.busiestDay.weekday) : null;

  const waitingNote =
    waitingCount === 0
      ? t.nothingWaiting
      : [urgent > 0 ? t.urgent(urgent) : null, oldest !== null ? t.oldest(Math.floor(oldest)) : null].filter(Boolean).join(' · ') || null;

  return (
    <>
      <dl className="smart-stats">
        <Stat testId="smart-insight-received" label={t.received} value={t.mails(safeCount(data.received))} />
        <Stat testId="smart-insight-sent" label={t.sent} value={t.mails(safeCount(data.sent))} />
        <Stat
          testId="smart-insight-median"
          label={t.medianReply}
          value={median}
          note={median === null ? t.noReplyTime : samples > 0 ? t.samples(samples) : null}
        />
        <Stat testId="smart-insight-average" label={t.averageReply} value={average} note={average === null ? t.noReplyTime : null} />
        <Stat testId="smart-insight-rate" label={t.replyRate} value={rate} note={rate === null ? t.noReplyRate : t.replyRateHint} />
        <Stat testId="smart-insight-waiting" label={t.needsReply} value={String(waitingCount)} note={waitingNote} />
        <Stat
          testId="smart-insight-day"
          label={t.busiestDay}
          value={day}
          note={day === null ? t.noBusiestDay : t.mails(safeCount(data.busiestDay?.count))}
        />
      </dl>
      <div className="smart-senders">
        <h4 className="smart-senders__title">{t.busiestSenders}</h4>
        {senders.length === 0 ? (
          <p className="card__status" data-testid="smart-insight-no-senders">
            {t.noSenders}
          </p>
        ) : (
          <ol className="smart-senders__list" data-testid="smart-insight-senders">
            {senders.map((s) => (
              <li key={s.address} className="smart-sender" data-testid="smart-insight-sender">
                <bdi className="smart-sender__name" dir="auto" title={s.address}>
                  {s.name?.trim() || s.address}
                </bdi>
                {s.name?.trim() && s.name.trim() !== s.address && (
                  <bdi className="smart-sender__address" dir="ltr">
                    {s.address}
                  </bdi>
                )}
                <span className="smart-sender__count">{t.mails(safeCount(s.count))}</span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}

export function InsightsCard() {
  const { isAuthenticated } = useAuth();
  const { data, error, mutate } = useSWR<Insights>(isAuthenticated ? insightsKey() : null);
  const usable = data && typeof data === 'object' ? data : undefined;
  const period = usable ? safeCount(usable.periodDays) : 0;

  let content;
  if (!usable && error !== undefined) {
    content = (
      <SmartError
        error={error}
        fallback={t.loadFailed}
        message={`${t.loadFailed}: ${errorMessage(error)}`}
        onRetry={() => void mutate()}
      />
    );
  } else if (!usable) {
    content = (
      <p className="card__status" role="status" data-testid="smart-insights-loading">
        {t.loading}
      </p>
    );
  } else {
    content = <Body data={usable} />;
  }

  return (
    <section className="card smart-card smart-insights" data-testid="smart-insights" aria-labelledby="smart-insights-title">
      <header className="smart-card__header">
        <h3 className="card__subtitle" id="smart-insights-title">
          {t.title}
        </h3>
        {period > 0 && (
          <span className="smart-card__meta" data-testid="smart-insights-period">
            {t.period(period)}
          </span>
        )}
      </header>
      {content}
    </section>
  );
}
