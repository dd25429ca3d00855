// "Pick from contacts": the user's saved contacts first (marked 'איש קשר'), then the addresses
// they have written to or heard from (GET /api/compose/address-book?q=), searchable by name or
// address. A click adds the address to the To line; the modal stays open so several can be
// picked, and marks the ones already there.

import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { errorMessage } from '../../api/client';
import { outgoingKeys, type ComposeContactsResponse } from '../../api/outgoing';
import { CheckIcon, PersonIcon } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { heCompose } from '../../i18n/compose';

/** Typing pauses this long before the list is asked for again. */
const SEARCH_DEBOUNCE_MS = 250;

export interface AddressBookModalProps {
  /** Addresses already on the To line (lower case not required). */
  chosen: readonly string[];
  onPick: (email: string) => void;
  onClose: () => void;
}

export function AddressBookModal({ chosen, onPick, onClose }: AddressBookModalProps) {
  const t = heCompose.addressBook;
  const [query, setQuery] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setQ(query.trim()), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [query]);

  const { data, error, isLoading } = useSWR<ComposeContactsResponse>(outgoingKeys.addressBook(q), {
    keepPreviousData: true,
  });
  const contacts = data?.contacts ?? [];
  const picked = new Set(chosen.map((e) => e.toLowerCase()));

  let body;
  if (error && !data) {
    body = (
      <p className="notice notice--error" role="alert">
        {t.loadFailed}: {errorMessage(error)}
      </p>
    );
  } else if (isLoading && !data) {
    body = <p role="status" className="card__status">{t.loading}</p>;
  } else if (contacts.length === 0) {
    body = <p className="card__status">{t.empty}</p>;
  } else {
    body = (
      <ul className="contact-list" aria-label={t.listLabel}>
        {contacts.map((c) => {
          const added = picked.has(c.email.toLowerCase());
          const who = c.name || c.email;
          return (
            <li key={c.id || c.email}>
              <button
                type="button"
                className="contact-button"
                aria-label={t.add(who)}
                aria-pressed={added}
                // Already on the To line: nothing to add (the mark says so).
                onClick={() => !added && onPick(c.email)}
                data-testid="address-book-item"
                data-email={c.email}
              >
                <span className="avatar contact-button__avatar" aria-hidden="true">
                  {(c.name || c.email).trim().charAt(0).toUpperCase()}
                </span>
                <span className="contact-button__text">
                  {c.name && <bdi dir="auto" className="contact-button__name">{c.name}</bdi>}
                  <bdi dir="ltr" className="contact-button__email">{c.email}</bdi>
                </span>
                {c.saved && (
                  <span className="contact-button__saved pill pill--info" title={t.savedHint} data-testid="address-book-saved">
                    <PersonIcon />
                    {t.saved}
                  </span>
                )}
                {added && (
                  <span className="contact-button__added">
                    <CheckIcon /> {t.added}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Modal title={t.title} closeLabel={t.close} onClose={onClose} testId="address-book" wide>
      <div className="address-book">
        <label htmlFor="address-book-search" className="visually-hidden">
          {t.search}
        </label>
        <input
          id="address-book-search"
          className="address-book__search"
          type="search"
          dir="auto"
          placeholder={t.search}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-autofocus
          data-testid="address-book-search"
        />
        {body}
      </div>
    </Modal>
  );
}
