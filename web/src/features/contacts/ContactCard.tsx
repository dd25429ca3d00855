// One contact, as a card in the grid or a row in the list (the same markup; contacts.css lays it
// out per view): who they are, the address and phone (left to right inside the Hebrew text), up to
// two group badges plus '+N', the notes, and the actions: recent mail with them, edit, delete.

import { memo } from 'react';
import type { Contact } from '../../api/contacts';
import { MailIcon, PenIcon, TrashIcon } from '../../components/icons';
import { heContacts } from '../../i18n/contacts';
import { GroupBadges } from './GroupBadges';
import { IconButton } from '../../components/IconButton';

const t = heContacts;

export interface ContactCardProps {
  contact: Contact;
  onMail: (c: Contact) => void;
  onEdit: (c: Contact) => void;
  onDelete: (c: Contact) => void;
}

/** The first letter of the name (or the address), for the avatar. */
export function initial(c: Pick<Contact, 'name' | 'email'>): string {
  return Array.from((c.name || c.email).trim())[0]?.toUpperCase() ?? '?';
}

export const ContactCard = memo(function ContactCard({ contact: c, onMail, onEdit, onDelete }: ContactCardProps) {
  const role = [c.position, c.company].map((s) => s.trim()).filter(Boolean).join(' · ');
  return (
    <article className="contact-card" data-testid="contact-card" data-id={c.id} aria-label={c.name}>
      <span className="avatar contact-card__avatar" aria-hidden="true">
        {initial(c)}
      </span>
      <div className="contact-card__who">
        <h3 className="contact-card__name" dir="auto" data-testid="contact-name">
          {c.name}
        </h3>
        {role && (
          <p className="contact-card__role" dir="auto">
            {role}
          </p>
        )}
      </div>
      <ul className="contact-card__details">
        <li className="contact-card__email">
          <bdi dir="ltr" data-testid="contact-email">
            {c.email}
          </bdi>
        </li>
        {c.phone.trim() && (
          <li className="contact-card__phone">
            <bdi dir="ltr" data-testid="contact-phone">
              {c.phone}
            </bdi>
          </li>
        )}
      </ul>
      {c.groups.length > 0 && (
        <div className="contact-card__groups">
          <GroupBadges groups={c.groups} />
        </div>
      )}
      {c.notes.trim() && (
        <p className="contact-card__notes clamped-text" dir="auto" title={c.notes}>
          {c.notes}
        </p>
      )}
      <div className="contact-card__actions" role="group" aria-label={t.actionsFor(c.name)}>
        <IconButton small label={t.mailOf(c.name)} title={t.recentMail} onClick={() => onMail(c)} testId="contact-mail">
          <MailIcon />
        </IconButton>
        <IconButton small label={t.editOf(c.name)} title={t.edit} onClick={() => onEdit(c)} testId="contact-edit">
          <PenIcon />
        </IconButton>
        <IconButton
          small
          label={t.deleteOf(c.name)}
          title={t.delete}
          danger
          onClick={() => onDelete(c)}
          testId="contact-delete"
        >
          <TrashIcon />
        </IconButton>
      </div>
    </article>
  );
});
