// The compose side panel (spec 000 §2): quick actions (pick from contacts, attach files), the 5
// most recent recipients (a click adds one to To) and a few static writing tips. Beside the form
// on wide screens, below it on narrow ones (compose.css).

import useSWR from 'swr';
import { outgoingKeys, type ComposeContactsResponse } from '../../api/outgoing';
import { ContactsIcon, PaperclipIcon } from '../../components/icons';
import { heCompose } from '../../i18n/compose';

/** Spec 000 §9: recent contacts in compose: 5. */
export const RECENT_CONTACTS = 5;

export interface ComposeSidePanelProps {
  onPickContacts: () => void;
  onAttach: () => void;
  onAddRecipient: (email: string) => void;
}

export function ComposeSidePanel({ onPickContacts, onAttach, onAddRecipient }: ComposeSidePanelProps) {
  const t = heCompose.side;
  const { data, error } = useSWR<ComposeContactsResponse>(outgoingKeys.recentContacts());
  const recent = (data?.contacts ?? []).slice(0, RECENT_CONTACTS);

  return (
    <aside className="compose__side" aria-label={t.label}>
      <section className="side-card panel">
        <h2 className="side-card__title">{t.quickActions}</h2>
        <button type="button" className="side-action" onClick={onPickContacts} data-testid="address-book-open">
          <ContactsIcon />
          {t.pickContacts}
        </button>
        <button type="button" className="side-action" onClick={onAttach} data-testid="quick-attach">
          <PaperclipIcon />
          {t.attachFiles}
        </button>
      </section>

      <section className="side-card panel">
        <h2 className="side-card__title">{t.recent}</h2>
        {error && !data ? (
          <p className="side-card__muted">{t.recentFailed}</p>
        ) : data && recent.length === 0 ? (
          <p className="side-card__muted">{t.recentEmpty}</p>
        ) : (
          <ul className="recent-list">
            {recent.map((c) => {
              const who = c.name || c.email;
              return (
                <li key={c.id || c.email}>
                  <button
                    type="button"
                    className="recent-contact"
                    aria-label={t.addRecent(who)}
                    title={c.email}
                    onClick={() => onAddRecipient(c.email)}
                    data-testid="recent-contact"
                    data-email={c.email}
                  >
                    <span className="avatar recent-contact__avatar" aria-hidden="true">
                      {who.trim().charAt(0).toUpperCase()}
                    </span>
                    <span className="recent-contact__text">
                      <bdi dir="auto" className="recent-contact__name">{who}</bdi>
                      {c.name && <bdi dir="ltr" className="recent-contact__email">{c.email}</bdi>}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <section className="side-card panel">
        <h2 className="side-card__title">{t.tipsTitle}</h2>
        <ul className="tips">
          {t.tips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
