// The invitation card's attendees: each name (or address) with their answer as a coloured mark
// and its words, optional ones and rooms noted, and how many more the server did not list.

import type { InviteAttendee } from '../../api/invites';
import { heInvites } from '../../i18n/invites';

const t = heInvites;

export function Attendees({ attendees, more }: { attendees: InviteAttendee[]; more: number }) {
  return (
    <ul className="invite-attendees" data-testid="invite-attendees">
      {attendees.map((a) => (
        <li key={a.email} className="invite-attendee" data-answer={a.answer}>
          <span className={`invite-attendee__mark invite-answer--${a.answer}`} aria-hidden="true" />
          <bdi className="invite-attendee__name" title={a.email}>
            {a.name || a.email}
          </bdi>
          <span className="invite-attendee__answer">
            {t.answers[a.answer]}
            {a.optional && ` · ${t.optional}`}
            {a.resource && ` · ${t.resource}`}
          </span>
        </li>
      ))}
      {more > 0 && <li className="invite-attendee invite-attendee--more">{t.moreAttendees(more)}</li>}
    </ul>
  );
}
