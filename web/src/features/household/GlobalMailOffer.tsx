// On opening the settings page (spec 001 §4): when the household has mail settings and this user
// has no mailbox connected, the mail account card asks inline whether to load them. Yes: the
// form shows their address, servers and ports (never a password: the saved one is used, on the
// server), and 1 s later the mailbox is connected with them — a success ends like a save (the
// 3 s confirmation, the inbox after 1.5 s), a refused connection shows its result in the form.
// A failed existence check is only logged (spec 001 §8).

import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import { fetchGlobalEmail, householdKeys, type GlobalEmailSettings, type GlobalSettingsExists } from '../../api/household';
import { withReason } from '../../api/outgoing';
import type { MailAccount } from '../../api/types';
import { heHousehold } from '../../i18n/household';
import { formatDateTime } from '../../lib/dates';
import '../../styles/household.css';

const t = heHousehold.mail;

/** Spec 001 §4/§9: the login runs 1 s after the global settings are loaded. */
export const GLOBAL_LOGIN_DELAY_MS = 1000;

type Phase = 'ask' | 'fetching' | 'connecting' | 'declined' | 'done';

/** What the offer needs of the mail account form (features/accounts, useMailAccountForm). */
export interface GlobalMailTarget {
  /** Not null while the form tests or saves: loading then waits. */
  busy: unknown;
  /** Shows the household's address, servers and ports in the form (never a password). */
  fillFromGlobal: (settings: GlobalEmailSettings) => void;
  /** Connects the mailbox with the household's settings, on the server; ends like a save. */
  connectWithGlobal: () => Promise<unknown>;
}

export function GlobalMailOffer({ accounts, mail }: { accounts: MailAccount[] | undefined; mail: GlobalMailTarget }) {
  const { data, error } = useSWR<GlobalSettingsExists>(householdKeys.emailExists());
  const [phase, setPhase] = useState<Phase>('ask');
  const [failure, setFailure] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  // The form's latest actions (the delayed login must not run a stale render's).
  const latest = useRef(mail);
  latest.current = mail;

  useEffect(() => () => window.clearTimeout(timer.current), []);

  useEffect(() => {
    if (error) console.warn('global mail settings check failed', error);
  }, [error]);

  const working = phase === 'fetching' || phase === 'connecting';
  // Asked only of a user without a mailbox; once answered, the question stays answered.
  if (!working && (phase !== 'ask' || !data?.exists || accounts === undefined || accounts.length > 0)) return null;

  async function accept() {
    setPhase('fetching');
    setFailure(null);
    try {
      const res = await fetchGlobalEmail();
      if (!res?.hasSettings || !res.settings) {
        setFailure(t.none);
        setPhase('ask');
        return;
      }
      latest.current.fillFromGlobal(res.settings);
      setPhase('connecting');
      timer.current = window.setTimeout(() => {
        void latest.current.connectWithGlobal().finally(() => setPhase('done'));
      }, GLOBAL_LOGIN_DELAY_MS);
    } catch (err) {
      setFailure(withReason(t.loadFailed, err));
      setPhase('ask');
    }
  }

  const by = data?.updatedBy || heHousehold.unknownUser;
  const date = data?.lastUpdated ? formatDateTime(data.lastUpdated) : '';

  return (
    <div className="notice notice--info global-offer" data-testid="global-offer" data-phase={phase}>
      {working ? (
        <p role="status" data-testid="global-offer-status">
          {phase === 'fetching' ? t.fetching : t.connecting}
        </p>
      ) : (
        <>
          <p data-testid="global-offer-question">{t.found(by, date)}</p>
          {failure && (
            <p className="global-offer__error" role="alert" data-testid="global-offer-error">
              {failure}
            </p>
          )}
          <div className="form__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={mail.busy !== null}
              onClick={() => void accept()}
              data-testid="global-offer-load"
            >
              {t.load}
            </button>
            <button type="button" className="button" onClick={() => setPhase('declined')} data-testid="global-offer-dismiss">
              {t.notNow}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
