// 'הצעות מהדואר': the people the user mails with who are not contacts yet, most mailed first
// (GET /api/contacts/suggestions). One click adds one — with its name, or the address's local part
// when the mail carried no name — and it leaves the list (every contacts key is re-read).

import { useState } from 'react';
import useSWR from 'swr';
import { createContact, suggestionContact, type ContactSuggestion, type ContactSuggestionsResponse } from '../../api/contacts';
import { errorMessage } from '../../api/client';
import { keys } from '../../api/keys';
import { useToast } from '../../session/Toasts';
import { PlusIcon } from '../../components/icons';
import { heContacts } from '../../i18n/contacts';
import { LoadState } from '../../components/LoadState';

const t = heContacts.suggestions;

/** Shown before 'הצגת כל ההצעות': the panel stays short beside the contacts. */
export const SUGGESTIONS_SHOWN = 8;

export function SuggestionsPanel({ onAdded }: { onAdded: () => void }) {
  const toast = useToast();
  const { data, error, mutate } = useSWR<ContactSuggestionsResponse>(keys.contactSuggestions());
  const [adding, setAdding] = useState<ReadonlySet<string>>(() => new Set());
  const [all, setAll] = useState(false);

  async function add(s: ContactSuggestion) {
    setAdding((a) => new Set(a).add(s.email));
    try {
      const saved = await createContact(suggestionContact(s));
      toast.success(heContacts.created(saved.name));
      onAdded();
    } catch (err) {
      toast.error(`${t.addFailed}: ${errorMessage(err)}`);
    } finally {
      setAdding((a) => {
        const next = new Set(a);
        next.delete(s.email);
        return next;
      });
    }
  }

  const suggestions = data?.suggestions ?? [];
  const shown = all ? suggestions : suggestions.slice(0, SUGGESTIONS_SHOWN);

  let body;
  if (!data) {
    body = <LoadState of={{ error, mutate }} text={t} testIds={{ error: 'suggestions-error' }} />;
  } else if (suggestions.length === 0) {
    body = (
      <p className="card__status" data-testid="suggestions-empty">
        {t.empty}
      </p>
    );
  } else {
    body = (
      <>
        <ul className="suggestions" aria-label={t.listLabel}>
          {shown.map((s) => {
            const who = s.name.trim() || s.email;
            return (
              <li key={s.email} className="suggestion" data-testid="suggestion" data-email={s.email}>
                <span className="suggestion__text">
                  {s.name.trim() && (
                    <bdi dir="auto" className="suggestion__name">
                      {s.name}
                    </bdi>
                  )}
                  <bdi dir="ltr" className="suggestion__email">
                    {s.email}
                  </bdi>
                  <span className="suggestion__count">{t.mails(s.count)}</span>
                </span>
                <button
                  type="button"
                  className="chip-button suggestion__add"
                  aria-label={t.addHint(who)}
                  disabled={adding.has(s.email)}
                  onClick={() => void add(s)}
                  data-testid="suggestion-add"
                >
                  <PlusIcon />
                  {t.add}
                </button>
              </li>
            );
          })}
        </ul>
        {suggestions.length > SUGGESTIONS_SHOWN && (
          <button type="button" className="link-button" onClick={() => setAll((a) => !a)} data-testid="suggestions-more">
            {all ? t.showLess : t.showAll(suggestions.length)}
          </button>
        )}
      </>
    );
  }

  return (
    <aside className="contacts-suggestions panel" aria-labelledby="contacts-suggestions-title" data-testid="contacts-suggestions">
      <h3 id="contacts-suggestions-title" className="contacts-suggestions__title">
        {t.title}
      </h3>
      <p className="field__hint">{t.hint}</p>
      {body}
    </aside>
  );
}
