// The address book (docs/API.md "Contacts"): typed calls so the contacts page never spells a path
// or a body shape. Lists are read through SWR with keys.contacts(search, group) (the path itself);
// after a change every /api/contacts key is re-read (isContactsKey), since a new or renamed
// contact moves in the list, changes the groups and leaves the mail suggestions.

import { api, apiBlob } from './client';
import type { Contact, ContactDeleted, ContactInput, ContactsImported, ContactsResponse } from './generated';
import { saveBlob } from './mail';

export type {
  Contact,
  ContactDeleted,
  ContactInput,
  ContactMailResponse,
  ContactsImported,
  ContactSuggestion,
  ContactSuggestionsResponse,
} from './generated';

/** GET /api/contacts: the matching contacts sorted by name, and every group the user has. */
export type ContactList = ContactsResponse;

/** The name an exported address book is saved under (the server's Content-Disposition says the same). */
export const VCARD_FILENAME = 'contacts.vcf';

const id = (value: string) => encodeURIComponent(value);

export const createContact = (input: ContactInput) =>
  api<Contact>('/api/contacts', { method: 'POST', body: input });

export const updateContact = (contactId: string, input: ContactInput) =>
  api<Contact>(`/api/contacts/${id(contactId)}`, { method: 'PUT', body: input });

export const deleteContact = (contactId: string) =>
  api<ContactDeleted>(`/api/contacts/${id(contactId)}`, { method: 'DELETE' });

/** Sends the chosen .vcf file as it is (the server reads vCard 2.1, 3.0 and 4.0). */
export const importContacts = (file: Blob) =>
  api<ContactsImported>('/api/contacts/import', { method: 'POST', rawBody: file });

/** Downloads every contact as a vCard file (the route needs the Authorization header: no plain link). */
export async function exportContacts(): Promise<void> {
  const blob = await apiBlob('/api/contacts/export');
  saveBlob(blob, VCARD_FILENAME);
}

/** An empty form's values. */
export function emptyContact(): ContactInput {
  return { name: '', email: '', phone: '', company: '', position: '', groups: [], notes: '' };
}

/**
 * A suggestion from the mail as a contact: its name, or when the mail carried none the address's
 * local part (`dana.levi@…` → `dana.levi`), since a contact needs a name.
 */
export function suggestionContact(s: { name: string; email: string }): ContactInput {
  const email = s.email.trim();
  const local = email.includes('@') ? email.slice(0, email.indexOf('@')) : email;
  return { ...emptyContact(), name: s.name.trim() || local || email, email };
}
