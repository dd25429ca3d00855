// The reading pane's "await a reply" for a mail the user sent (issue 40, the user's own mark):
// a menu of waits in days (from when it was sent) that tracks the mail, or changes the wait of a
// mail already tracked (found in GET /api/followups), and stops tracking it. The server reminds
// when the wait runs out with no answer; an answer in the thread ends it by itself.

import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { markFollowUp, stopFollowUp, type FollowUpsResponse } from '../../api/attention';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { heSnooze } from '../../i18n/snooze';
import { formatDateTime } from '../../lib/dates';
import { useToast } from '../../session/Toasts';
import '../../styles/snooze.css';
import { useDropMenu } from './useDropMenu';

const t = heSnooze;

/** The waits offered, in days (the server accepts 1–60). */
export const FOLLOW_UP_WAITS = [1, 3, 7, 14] as const;

export function FollowUpButton({ emailId, busy }: { emailId: string; busy: boolean }) {
  const { open, setOpen, buttonRef, toggle, menuClass } = useDropMenu();
  const [sending, setSending] = useState(false);
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const list = useSWR<FollowUpsResponse>(keys.followUps());
  const tracked = list.data?.awaiting.find((f) => f.emailId === emailId);

  async function run(call: () => Promise<{ message: string }>) {
    setSending(true);
    try {
      toast.success((await call()).message);
      setOpen(false);
    } catch (err) {
      toast.error(`${t.followFailed}: ${errorMessage(err)}`);
    } finally {
      setSending(false);
      void mutate(keys.followUps());
    }
  }

  return (
    <span className="snooze">
      <button
        type="button"
        className={`chip-button${tracked ? ' is-active' : ''}`}
        aria-expanded={open}
        aria-pressed={tracked ? true : undefined}
        disabled={busy || sending}
        ref={buttonRef}
        onClick={toggle}
        title={tracked ? t.due(formatDateTime(tracked.due)) : t.followHint}
        data-testid="follow-up-button"
      >
        {tracked ? t.following : t.follow}
      </button>
      {open && (
        <div className={menuClass} role="group" aria-label={t.followMenuLabel} data-testid="follow-up-menu">
          {tracked && (
            <p className="snooze__time" data-testid="follow-up-due">
              {t.due(formatDateTime(tracked.due))}
            </p>
          )}
          {FOLLOW_UP_WAITS.map((days) => (
            <button
              key={days}
              type="button"
              className="snooze__preset"
              disabled={sending}
              onClick={() => void run(() => markFollowUp(emailId, tracked?.id, days))}
            >
              {t.waitDays(days)}
            </button>
          ))}
          {tracked && (
            <button type="button" className="button" disabled={sending} onClick={() => void run(() => stopFollowUp(tracked.id))}>
              {t.stop}
            </button>
          )}
        </div>
      )}
    </span>
  );
}
