// Grid or list (spec 001 "Contacts page": "grid/list toggle"). The choice is this browser's, kept
// in localStorage: it is about the screen at hand, not a preference to sync between devices.

import { useState } from 'react';
import { GridIcon, ListIcon } from '../../components/icons';
import { heContacts } from '../../i18n/contacts';
import { IconButton } from '../../components/IconButton';

export type ContactsView = 'grid' | 'list';

const STORAGE_KEY = 'mailclient.contacts.view';

function readView(): ContactsView {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

export function useContactsView(): [ContactsView, (v: ContactsView) => void] {
  const [view, setView] = useState<ContactsView>(readView);
  function change(v: ContactsView) {
    setView(v);
    try {
      localStorage.setItem(STORAGE_KEY, v);
    } catch {
      /* private mode: the choice lasts for this visit */
    }
  }
  return [view, change];
}

export function ViewToggle({ view, onChange }: { view: ContactsView; onChange: (v: ContactsView) => void }) {
  const t = heContacts;
  return (
    <div className="view-toggle" role="group" aria-label={t.view}>
      <IconButton
        label={t.grid}
        title={t.grid}
        className="view-toggle__button"
        aria-pressed={view === 'grid'}
        onClick={() => onChange('grid')}
        testId="contacts-view-grid"
      >
        <GridIcon />
      </IconButton>
      <IconButton
        label={t.list}
        title={t.list}
        className="view-toggle__button"
        aria-pressed={view === 'list'}
        onClick={() => onChange('list')}
        testId="contacts-view-list"
      >
        <ListIcon />
      </IconButton>
    </div>
  );
}
