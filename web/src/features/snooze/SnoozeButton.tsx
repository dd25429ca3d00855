// The reading pane's snooze (issue 40): a menu of the server's preset times (later today,
// tomorrow morning, the weekend, next week — in the user's time zone) and a chosen date and hour.
// The thread leaves the inbox at once; the mail lists are re-read.

import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { SNOOZE_PRESETS, snooze, type SnoozeOptions } from '../../api/attention';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { heSnooze } from '../../i18n/snooze';
import { formatDateTime } from '../../lib/dates';
import { revalidateMailData } from '../../session/revalidateMail';
import { useToast } from '../../session/Toasts';
import '../../styles/snooze.css';
import { useDropMenu } from './useDropMenu';

const t = heSnooze;

export function SnoozeButton({ emailId, busy }: { emailId: string; busy: boolean }) {
  const { open, setOpen, buttonRef, toggle, menuClass } = useDropMenu();
  const [chosen, setChosen] = useState('');
  const [sending, setSending] = useState(false);
  const toast = useToast();
  const { cache, mutate } = useSWRConfig();
  const options = useSWR<SnoozeOptions>(open ? keys.snoozeOptions() : null);

  async function go(when: { preset?: string; until?: string }) {
    setSending(true);
    try {
      const out = await snooze(emailId, when);
      toast.success(out.message);
      setOpen(false);
      void revalidateMailData(cache, mutate).catch(() => undefined);
      void mutate(keys.snoozed());
    } catch (err) {
      toast.error(`${t.failed}: ${errorMessage(err)}`);
    } finally {
      setSending(false);
    }
  }

  return (
    <span className="snooze">
      <button
        type="button"
        className="chip-button"
        aria-expanded={open}
        disabled={busy || sending}
        ref={buttonRef}
        onClick={toggle}
        data-testid="snooze-button"
      >
        {t.button}
      </button>
      {open && (
        <div className={menuClass} role="group" aria-label={t.menuLabel} data-testid="snooze-menu">
          {SNOOZE_PRESETS.map((p) => {
            const at = options.data?.[p];
            if (options.data && !at) return null;
            return (
              <button key={p} type="button" className="snooze__preset" disabled={sending} onClick={() => void go({ preset: p })}>
                <span>{t.presets[p]}</span>
                {at && <span className="snooze__time">{formatDateTime(at)}</span>}
              </button>
            );
          })}
          <label className="snooze__chosen">
            {t.chosen}
            <input type="datetime-local" value={chosen} onChange={(e) => setChosen(e.target.value)} data-testid="snooze-until" />
          </label>
          <button type="button" className="button button--primary" disabled={!chosen || sending} onClick={() => void go({ until: chosen })}>
            {t.confirm}
          </button>
        </div>
      )}
    </span>
  );
}
