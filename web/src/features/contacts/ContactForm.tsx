// The contact modal (spec 001 "Contacts page"): 'איש קשר חדש' or 'עריכת איש קשר', with name,
// email, phone, company, position, groups and notes. Name and email are required — save stays
// disabled until both hold something — and nothing checks their format (spec §5). Groups are one
// comma-separated line, with the user's other groups a click away. A failed save shows the
// server's message here and keeps the modal open with everything typed; closing discards it
// (spec §4: "closing resets the form").

import { useId, useState, type FormEvent } from 'react';
import { createContact, updateContact, type Contact, type ContactInput } from '../../api/contacts';
import { errorMessage } from '../../api/client';
import { SubmitButton, TextField } from '../../components/Field';
import { PlusIcon } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { heContacts } from '../../i18n/contacts';
import { groupsText, parseGroups } from './groups';

const t = heContacts.form;

export interface ContactFormProps {
  /** The contact to edit; null for a new one. */
  contact: Contact | null;
  /** Every group the user has, offered as quick picks. */
  groups: readonly string[];
  onClose: () => void;
  onSaved: (saved: Contact, created: boolean) => void;
}

type TextFields = Omit<ContactInput, 'groups'>;

function Required({ label }: { label: string }) {
  return (
    <>
      {label}
      <span className="field__required" aria-hidden="true">
        {' *'}
      </span>
    </>
  );
}

export function ContactForm({ contact, groups, onClose, onSaved }: ContactFormProps) {
  const idBase = useId();
  const [values, setValues] = useState<TextFields>(() => ({
    name: contact?.name ?? '',
    email: contact?.email ?? '',
    phone: contact?.phone ?? '',
    company: contact?.company ?? '',
    position: contact?.position ?? '',
    notes: contact?.notes ?? '',
  }));
  const [groupLine, setGroupLine] = useState(() => groupsText(contact?.groups ?? []));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (key: keyof TextFields) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const chosen = parseGroups(groupLine);
  const offered = groups.filter((g) => !chosen.includes(g));
  const complete = values.name.trim() !== '' && values.email.trim() !== '';

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    setError(null);
    const input: ContactInput = { ...values, groups: chosen };
    try {
      const saved = contact ? await updateContact(contact.id, input) : await createContact(input);
      onSaved(saved, !contact);
    } catch (err) {
      // The server's own words (a field too long, the address book full); nothing typed is lost.
      setError(errorMessage(err, heContacts.saveFailed));
      setBusy(false);
    }
  }

  const id = (name: string) => `${idBase}-${name}`;
  /** What every text field of the form shares: its id, value, setter and test id. */
  const field = (name: keyof TextFields) => ({
    id: id(name),
    value: values[name],
    onValueChange: set(name),
    autoComplete: 'off',
    testId: `contact-form-${name}`,
  });

  return (
    <Modal
      title={contact ? t.editTitle : t.newTitle}
      closeLabel={t.close}
      onClose={onClose}
      busy={busy}
      testId="contact-form"
      wide
    >
      <form className="form contact-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="contact-form__row">
          <TextField {...field('name')} label={<Required label={t.name} />} aria-required="true" data-autofocus />
          <TextField {...field('email')} label={<Required label={t.email} />} type="email" dir="ltr" aria-required="true" />
        </div>
        <div className="contact-form__row contact-form__row--three">
          <TextField {...field('phone')} label={t.phone} type="tel" dir="ltr" />
          <TextField {...field('company')} label={t.company} />
          <TextField {...field('position')} label={t.position} />
        </div>
        <div className="contact-form__groups">
          <TextField
            id={id('groups')}
            label={t.groups}
            hint={t.groupsHint}
            value={groupLine}
            onValueChange={setGroupLine}
            autoComplete="off"
            testId="contact-form-groups"
          />
          {offered.length > 0 && (
            <div className="contact-form__picks" role="group" aria-label={t.existingGroups}>
              {offered.map((g) => (
                <button
                  key={g}
                  type="button"
                  className="group-pick"
                  aria-label={t.addGroup(g)}
                  onClick={() => setGroupLine(groupsText([...chosen, g]))}
                  data-testid="contact-form-group-pick"
                >
                  <PlusIcon />
                  <bdi dir="auto">{g}</bdi>
                </button>
              ))}
            </div>
          )}
        </div>
        <div className="field">
          <label htmlFor={id('notes')}>{t.notes}</label>
          <textarea
            id={id('notes')}
            className="textbox contact-form__notes"
            dir="auto"
            rows={3}
            value={values.notes}
            onChange={(e) => set('notes')(e.target.value)}
            data-testid="contact-form-notes"
          />
        </div>
        {error && (
          <p className="notice notice--error" role="alert" dir="auto" data-testid="contact-form-error">
            {error}
          </p>
        )}
        <div className="form__actions contact-form__actions">
          <SubmitButton
            busy={busy}
            busyLabel={t.saving}
            disabled={!complete || busy}
            title={complete ? undefined : t.requiredHint}
            testId="contact-form-save"
          >
            {t.save}
          </SubmitButton>
          <button type="button" className="button" onClick={onClose} disabled={busy} data-testid="contact-form-cancel">
            {t.cancel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
