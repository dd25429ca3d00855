// The contacts page (spec 001 "Contacts page", §4, §5): a header with the count and the add,
// import and export buttons; a search box (searched on the server, which folds niqqud and final
// letters — asked when typing pauses), the group filter and the grid/list toggle; the contacts as
// cards; and beside them the suggestions from the mail. The modals: the contact form, the recent
// mail with a contact, and the delete confirmation.
//
// Spec 001 §8 has contact save and delete failures "logged only"; here they are shown: a failed
// save in the form (which stays open), a failed delete in a toast.

import { useCallback, useId, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { deleteContact, type Contact, type ContactList } from '../../api/contacts';
import { errorMessage } from '../../api/client';
import { isContactsKey, keys } from '../../api/keys';
import { useToast } from '../../session/Toasts';
import { ConfirmDelete, useConfirmation } from '../../components/ConfirmDialog';
import { EmptyState, NoMatch } from '../../components/EmptyState';
import { CloseIcon, ContactsIcon, SearchIcon } from '../../components/icons';
import { heContacts } from '../../i18n/contacts';
import '../../styles/contacts.css';
import '../../styles/contacts-dialogs.css';
import { ContactCard } from './ContactCard';
import { ContactForm } from './ContactForm';
import { ContactMail } from './ContactMail';
import { GroupFilter } from './GroupFilter';
import { SuggestionsPanel } from './SuggestionsPanel';
import { useDebounced } from './useDebounced';
import { VcardButtons, type ImportResult } from './VcardButtons';
import { useContactsView, ViewToggle } from './ViewToggle';
import { LoadState, RefreshFailed } from '../../components/LoadState';
import { IconButton } from '../../components/IconButton';
import { AddButton, ListHeader } from '../../components/ListHeader';

const t = heContacts;

/** Typing pauses this long before the server is asked (as compose's address book). */
export const SEARCH_DEBOUNCE_MS = 250;

export default function ContactsPage() {
  const idBase = useId();
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [query, setQuery] = useState('');
  const search = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS);
  const [group, setGroup] = useState('');
  const [view, setView] = useContactsView();
  // The previous answer stays on screen while the next search runs: no flash of "loading".
  const list = useSWR<ContactList>(keys.contacts(search, group), { keepPreviousData: true });
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [mailOf, setMailOf] = useState<Contact | null>(null);
  const deletion = useConfirmation<Contact>();
  const [importResult, setImportResult] = useState<ImportResult | null>(null);

  // Every list, the groups and the suggestions follow any change.
  const refresh = useCallback(() => void mutate(isContactsKey), [mutate]);
  const onEdit = useCallback((c: Contact) => setEditing(c), []);
  const onDelete = deletion.ask;

  const data = list.data;
  const contacts = data?.contacts ?? [];
  const groups = data?.groups ?? [];
  const filtered = search !== '' || group !== '';

  function saved(c: Contact, created: boolean) {
    setEditing(null);
    toast.success(created ? t.created(c.name) : t.updated);
    refresh();
  }

  async function remove(c: Contact) {
    try {
      await deleteContact(c.id);
      toast.success(t.deleted(c.name));
    } catch (err) {
      toast.error(`${t.deleteFailed}: ${errorMessage(err)}`);
    } finally {
      refresh();
    }
  }

  function clearFilters() {
    setQuery('');
    setGroup('');
  }

  const add = <AddButton label={t.add} onClick={() => setEditing('new')} testId="contacts-add" />;

  let content;
  if (!data) {
    content = <LoadState of={list} text={t} testIds={{ error: 'contacts-error', retry: 'contacts-retry', loading: 'contacts-loading' }} />;
  } else if (contacts.length === 0 && !filtered) {
    content = (
      <EmptyState testId="contacts-empty" icon={<ContactsIcon />} action={add}>
        <p className="empty-state__title">{t.empty}</p>
        <p>{t.emptyHint}</p>
      </EmptyState>
    );
  } else if (contacts.length === 0) {
    content = <NoMatch text={t.noMatch} actionLabel={t.clearFilters} onAction={clearFilters} testId="contacts-nomatch" />;
  } else {
    content = (
      <ul className={`contacts-list contacts-list--${view}`} aria-label={t.listLabel} data-testid="contacts-list" data-view={view}>
        {contacts.map((c) => (
          <li key={c.id}>
            <ContactCard contact={c} onMail={setMailOf} onEdit={onEdit} onDelete={onDelete} />
          </li>
        ))}
      </ul>
    );
  }

  const count = data && { text: t.count(contacts.length), n: contacts.length, testId: 'contacts-count' };

  return (
    <section className="page-section list-page contacts-page" data-testid="page-ContactsPage" aria-labelledby={`${idBase}-title`}>
      <ListHeader titleId={`${idBase}-title`} title={t.pageLabel} count={count}>
        <div className="contacts-header__actions">
          <VcardButtons
            exportDisabled={!!data && contacts.length === 0 && !filtered}
            onResult={setImportResult}
            onImported={refresh}
          />
          {add}
        </div>
      </ListHeader>

      <div className="contacts-toolbar">
        <div className="contacts-search" role="search">
          <label htmlFor={`${idBase}-search`} className="visually-hidden">
            {t.search}
          </label>
          <SearchIcon className="contacts-search__icon" />
          <input
            id={`${idBase}-search`}
            type="search"
            dir="auto"
            placeholder={t.searchPlaceholder}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="contacts-search"
          />
        </div>
        <GroupFilter id={`${idBase}-group`} groups={groups} value={group} onChange={setGroup} />
        <ViewToggle view={view} onChange={setView} />
      </div>

      {importResult && (
        <div
          className={`notice notice--${importResult.kind} contacts-import-result`}
          role={importResult.kind === 'error' ? 'alert' : 'status'}
          data-testid="contacts-import-result"
          data-kind={importResult.kind}
        >
          <p dir="auto">{importResult.text}</p>
          <IconButton
            label={t.vcard.dismiss}
            className="contacts-import-result__close"
            onClick={() => setImportResult(null)}
          >
            <CloseIcon />
          </IconButton>
        </div>
      )}

      <div className="contacts-layout">
        <div className="contacts-layout__main">
          {list.error && data && <RefreshFailed error={list.error} text={t} />}
          {content}
        </div>
        <SuggestionsPanel onAdded={refresh} />
      </div>

      {editing && (
        <ContactForm
          contact={editing === 'new' ? null : editing}
          groups={groups}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      {mailOf && <ContactMail contact={mailOf} onClose={() => setMailOf(null)} />}
      {deletion.item && (
        <ConfirmDelete text={t} name={deletion.item.name} {...deletion.dialog(remove)} />
      )}
    </section>
  );
}
