// The Inbox Zero panel (spec 000 §2 "Inbox page", §4 "Overdue", "Auto-archive candidate", §9):
// four counters (needs reply, urgent, overdue, processed), a refresh button, up to 3 overdue
// reminders then "and N more", and the auto-archive prompt. Everything is computed on the server
// (GET /api/emails/inbox-zero); the live channel and every triage call re-read it (it is a mail key).

import { useCallback, useEffect, useRef, useState, type JSX } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';
import { autoArchive } from '../../../api/inboxZero';
import { ApiError, errorMessage } from '../../../api/client';
import { keys } from '../../../api/keys';
import type { InboxZeroResponse } from '../../../api/types';
import { useAuth } from '../../../session/AuthProvider';
import { revalidateMailData } from '../../../session/revalidateMail';
import { useToast } from '../../../session/Toasts';
import { ArchiveIcon, CheckIcon, ClockIcon, RefreshIcon } from '../../../components/icons';
import { he } from '../../../i18n/he';
import { dismissAutoArchive, isAutoArchiveDismissed } from './dismiss';
import { IconButton } from '../../../components/IconButton';
import { AwaitingLine } from '../../snooze/AwaitingLine';

const t = he.inboxZero;

/** Spec 000 §9 "Reminders displayed: 3". */
export const REMINDERS_SHOWN = 3;
/** As often as the folder counts (spec 000 §9); live events re-read it sooner. */
export const INBOX_ZERO_POLL_MS = 30_000;
/** The query parameter that holds the open mail (see MailView). */
const MAIL_PARAM = 'mail';

type CounterKey = 'needsReply' | 'urgent' | 'overdue' | 'processed';

const COUNTERS: readonly { key: CounterKey; testId: string }[] = [
  { key: 'needsReply', testId: 'iz-needs-reply' },
  { key: 'urgent', testId: 'iz-urgent' },
  { key: 'overdue', testId: 'iz-overdue' },
  { key: 'processed', testId: 'iz-processed' },
];

/** The server's answer with every field checked (see `normalize`). */
type PanelData = InboxZeroResponse;

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

/** The server's answer with every field present (a missing one reads as zero or empty). */
function normalize(d: Partial<InboxZeroResponse>): PanelData {
  const reminders = Array.isArray(d.reminders) ? d.reminders.filter((r) => r && r.id != null) : [];
  const candidates = Array.isArray(d.autoArchive) ? d.autoArchive.filter((c) => c && c.id != null) : [];
  return {
    needsReply: count(d.needsReply),
    urgent: count(d.urgent),
    overdue: count(d.overdue),
    processed: count(d.processed),
    reminders,
    autoArchive: candidates,
    autoArchiveCount: Math.max(count(d.autoArchiveCount), candidates.length),
  };
}

export function InboxZeroPanel(): JSX.Element | null {
  const { token } = useAuth();
  const { mutate: globalMutate, cache } = useSWRConfig();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const { data: raw, error, mutate } = useSWR<InboxZeroResponse>(keys.inboxZero(), {
    refreshInterval: INBOX_ZERO_POLL_MS,
  });
  const [refreshing, setRefreshing] = useState(false);
  const [archiving, setArchiving] = useState(false);
  const [dismissed, setDismissed] = useState(() => isAutoArchiveDismissed(token));
  // On a phone the panel is one line of counts (the list comes first); the line opens it.
  const [unfolded, setUnfolded] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      await mutate();
    } finally {
      if (mounted.current) setRefreshing(false);
    }
  }, [mutate]);

  const params = new URLSearchParams(location.search);
  const openId = params.get(MAIL_PARAM);

  const openMail = useCallback(
    (id: string) => {
      // Keep the inbox's other query (filter, sort): the panel is shown on the inbox page only.
      const next = new URLSearchParams(location.search);
      const hadMail = next.has(MAIL_PARAM);
      next.set('folder', 'inbox');
      next.set(MAIL_PARAM, id);
      navigate({ pathname: '/Inbox', search: `?${next.toString()}` }, { replace: hadMail });
    },
    [location.search, navigate],
  );

  const data = raw ? normalize(raw) : null;

  const runAutoArchive = useCallback(async () => {
    if (!data || data.autoArchive.length === 0) return;
    const ids = data.autoArchive.map((c) => String(c.id));
    setArchiving(true);
    try {
      const res = await autoArchive(ids);
      const archived = count(res?.archivedCount);
      if (archived > 0) toast.success(t.archived(archived));
      else toast.info(t.archived(0));
      // Hide the archived candidates at once; the re-read below brings the truth.
      void mutate(
        (cur) =>
          cur && {
            ...cur,
            autoArchive: (cur.autoArchive ?? []).filter((c) => !ids.includes(String(c.id))),
            autoArchiveCount: Math.max(0, count(cur.autoArchiveCount) - archived),
          },
        { revalidate: false },
      );
      await revalidateMailData(cache, globalMutate, { counts: true, allPages: true });
    } catch (err) {
      toast.error(`${t.autoArchiveFailed}: ${errorMessage(err)}`);
    } finally {
      if (mounted.current) setArchiving(false);
    }
  }, [data, mutate, cache, globalMutate, toast]);

  const dismiss = useCallback(() => {
    dismissAutoArchive(token);
    setDismissed(true);
  }, [token]);

  if (!data) {
    // A server without the route (older build): no panel rather than an error on every visit.
    if (error instanceof ApiError && error.status === 404) return null;
    return (
      <section className="inbox-zero inbox-zero--placeholder" data-testid="inbox-zero" aria-label={t.region}
        aria-busy={!error}>
        {error ? (
          <p className="inbox-zero__error" role="alert">
            {t.loadFailed}: {errorMessage(error)}{' '}
            <button type="button" className="link-button" onClick={() => void refresh()} data-testid="iz-refresh">
              {t.retry}
            </button>
          </p>
        ) : (
          <p className="inbox-zero__loading" role="status">
            {t.loading}
          </p>
        )}
      </section>
    );
  }

  const shown = data.reminders.slice(0, REMINDERS_SHOWN);
  const more = Math.max(0, data.overdue - shown.length);
  const showPrompt = !dismissed && data.autoArchiveCount > 0 && data.autoArchive.length > 0;
  const allClear = data.overdue === 0 && data.needsReply === 0 && data.urgent === 0;

  return (
    <section
      className={`inbox-zero${unfolded ? ' is-unfolded' : ''}`}
      data-testid="inbox-zero"
      aria-labelledby="inbox-zero-title"
    >
      {/* Shown on a phone only (inbox-zero.css): the counts on one line, opening the rest. */}
      <button
        type="button"
        className="inbox-zero__summary"
        aria-expanded={unfolded}
        aria-controls="inbox-zero-details"
        onClick={() => setUnfolded((u) => !u)}
        data-testid="iz-summary"
      >
        <span className="inbox-zero__summary-title">{t.title}</span>
        {COUNTERS.map(({ key }) => (
          <span key={key} className={`iz-chip iz-stat--${key}${data[key] > 0 ? ' has-value' : ''}`}>
            {`${data[key]} ${t[key]}`}
          </span>
        ))}
        <span className="inbox-zero__summary-toggle" aria-hidden="true">
          {unfolded ? '▴' : '▾'}
        </span>
      </button>
      <div className="inbox-zero__details" id="inbox-zero-details">
        <div className="inbox-zero__head">
          <h2 className="inbox-zero__title" id="inbox-zero-title">
            {t.title}
          </h2>
          <ul className="inbox-zero__stats" aria-label={t.statsLabel}>
            {COUNTERS.map(({ key, testId }) => (
              <li
                key={key}
                className={`iz-stat iz-stat--${key}${data[key] > 0 ? ' has-value' : ''}`}
                title={t.hints[key]}
              >
                <span className="iz-stat__value" data-testid={testId}>
                  {data[key]}
                </span>
                <span className="iz-stat__label">{t[key]}</span>
              </li>
            ))}
          </ul>
          <IconButton
            label={t.refresh}
            title={t.refresh}
            className="inbox-zero__refresh"
            disabled={refreshing}
            onClick={() => void refresh()}
            testId="iz-refresh"
          >
            <RefreshIcon className={refreshing ? 'is-spinning' : undefined} />
          </IconButton>
        </div>

        <AwaitingLine pollMs={INBOX_ZERO_POLL_MS} />

        {(shown.length > 0 || allClear || showPrompt) && (
          <div className="inbox-zero__body">
            {shown.length > 0 ? (
              <div className="inbox-zero__reminders">
                <h3 className="inbox-zero__subtitle">{t.remindersTitle}</h3>
                <ul className="iz-reminders">
                  {shown.map((r) => {
                    const id = String(r.id);
                    const days = t.days(count(r.daysOverdue));
                    return (
                      <li key={id}>
                        <button
                          type="button"
                          className="iz-reminder"
                          data-testid="iz-reminder"
                          data-id={id}
                          aria-current={openId === id ? 'true' : undefined}
                          onClick={() => openMail(id)}
                        >
                          <ClockIcon className="iz-reminder__icon" />
                          <span className="iz-reminder__subject" dir="auto">
                            {r.subject?.trim() || he.mail.noSubject}
                          </span>
                          <bdi className="iz-reminder__from" dir="auto">
                            {r.from || he.mail.unknownSender}
                          </bdi>
                          <span className="iz-reminder__days pill pill--warning" title={t.overdueFor(days)}>
                            <span className="visually-hidden">{t.overdueFor(days)}</span>
                            <span aria-hidden="true">{days}</span>
                          </span>
                        </button>
                      </li>
                    );
                  })}
                </ul>
                {more > 0 && (
                  <p className="iz-more" data-testid="iz-more" title={t.moreHint(more)}>
                    {t.more(more)}
                  </p>
                )}
              </div>
            ) : (
              allClear && (
                <p className="inbox-zero__clear" data-testid="iz-all-clear">
                  <CheckIcon />
                  {t.allClear}
                </p>
              )
            )}

            {showPrompt && (
              <div
                className="iz-auto-archive"
                role="group"
                aria-labelledby="iz-auto-archive-title"
                data-testid="iz-auto-archive"
              >
                <ArchiveIcon className="iz-auto-archive__icon" />
                <div className="iz-auto-archive__text">
                  <strong id="iz-auto-archive-title">{t.autoArchiveTitle}</strong>
                  <span data-testid="iz-auto-archive-count" data-count={data.autoArchiveCount}>
                    {t.autoArchiveText(data.autoArchiveCount)}
                  </span>
                </div>
                <div className="iz-auto-archive__actions">
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={archiving}
                    onClick={() => void runAutoArchive()}
                    data-testid="iz-auto-archive-run"
                  >
                    {archiving ? t.autoArchiveRunning : t.autoArchiveRun}
                  </button>
                  <button
                    type="button"
                    className="link-button"
                    disabled={archiving}
                    title={t.autoArchiveDismissHint}
                    onClick={dismiss}
                    data-testid="iz-auto-archive-dismiss"
                  >
                    {t.autoArchiveDismiss}
                  </button>
                </div>
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

export default InboxZeroPanel;
