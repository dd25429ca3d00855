// "נודניק ומעקב" (issue 40): the threads snoozed with the time each comes back (wake one now),
// and the sent mail awaiting a reply with its reminder time (write a nudge draft, stop waiting).
// The server wakes and reminds by itself; this page only shows and acts.

import { useSWRConfig } from 'swr';
import useSWR from 'swr';
import { nudge, stopFollowUp, wakeNow, type FollowUpsResponse, type SnoozeListResponse } from '../../api/attention';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { ListHeader } from '../../components/ListHeader';
import { LoadState } from '../../components/LoadState';
import { heSnooze } from '../../i18n/snooze';
import { formatDateTime } from '../../lib/dates';
import { revalidateMailData } from '../../session/revalidateMail';
import { useToast } from '../../session/Toasts';
import '../../styles/subscriptions.css';

const t = heSnooze;

export default function SnoozedPage() {
  const toast = useToast();
  const { cache, mutate } = useSWRConfig();
  const snoozed = useSWR<SnoozeListResponse>(keys.snoozed());
  const followUps = useSWR<FollowUpsResponse>(keys.followUps());

  async function act(run: () => Promise<{ message: string }>) {
    try {
      toast.success((await run()).message);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      void snoozed.mutate();
      void followUps.mutate();
      void revalidateMailData(cache, mutate).catch(() => undefined);
    }
  }

  return (
    <section className="page-section list-page subscriptions-page" data-testid="page-SnoozedPage" aria-labelledby="snoozed-title">
      <ListHeader titleId="snoozed-title" title={t.pageLabel}>
        {null}
      </ListHeader>
      <h3>{t.snoozedTitle}</h3>
      {!snoozed.data ? (
        <LoadState of={snoozed} text={t} />
      ) : snoozed.data.snoozed.length === 0 ? (
        <p data-testid="snoozed-empty">{t.noneSnoozed}</p>
      ) : (
        <ul className="subscription-list panel" data-testid="snoozed-list">
          {snoozed.data.snoozed.map((s) => (
            <li key={s.id} className="subscription" data-testid="snoozed">
              <div className="subscription__who">
                <span className="subscription__name">{s.subject}</span>
                <bdi className="subscription__address">{s.from}</bdi>
              </div>
              <span className="subscription__facts">{t.until(formatDateTime(s.until))}</span>
              <button type="button" className="button" onClick={() => void act(() => wakeNow(s.id))}>
                {t.wake}
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3>{t.awaitingTitle}</h3>
      {!followUps.data ? (
        <LoadState of={followUps} text={t} />
      ) : followUps.data.awaiting.length === 0 ? (
        <p data-testid="awaiting-empty">{t.noneAwaiting}</p>
      ) : (
        <ul className="subscription-list panel" data-testid="awaiting-list">
          {followUps.data.awaiting.map((f) => (
            <li key={f.id} className="subscription" data-testid="awaiting">
              <div className="subscription__who">
                <span className="subscription__name">{f.subject}</span>
                <bdi className="subscription__address">{t.to(f.to.join(', '))}</bdi>
              </div>
              <span className="subscription__facts">
                {t.due(formatDateTime(f.due))}
                {f.overdue && <span className="pill">{t.overdue}</span>}
              </span>
              <div className="subscription__actions">
                <button type="button" className="button button--primary" onClick={() => void act(() => nudge(f.id))}>
                  {t.nudge}
                </button>
                <button type="button" className="button" onClick={() => void act(() => stopFollowUp(f.id))}>
                  {t.stop}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
