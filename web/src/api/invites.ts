// Meeting invitations (docs/API.md "Invitations"): the card of a mail (read through SWR with
// invitationKey), the answer (an iTIP REPLY the server sends to the organiser), the event as an
// .ics file, and "add to my tasks". The card is asked for only when a mail's parts include a
// calendar (carriesInvitation): other mail costs no request.

import { api, apiBlob } from './client';
import type { EmailAttachment, InvitationResponse, InviteAnswer, Task } from './generated';
import { saveBlob } from './mail';

export type {
  Invitation,
  InvitationResponse,
  InviteAnswer,
  InviteAttendee,
  InviteConflict,
  InviteMethod,
  InvitePerson,
  InviteState,
} from './generated';

const id = (value: string) => encodeURIComponent(value);

/** The SWR key (and GET path) of a mail's card. */
export const invitationKey = (emailId: string) => `/api/invites/${id(emailId)}`;

/** Whether a mail carries a calendar: a `text/calendar` part, an `application/ics` or an `.ics`. */
export function carriesInvitation(attachments: readonly Pick<EmailAttachment, 'contentType' | 'filename'>[]): boolean {
  return attachments.some((a) => {
    const type = a.contentType.toLowerCase();
    return (
      type === 'text/calendar' ||
      type === 'application/ics' ||
      (type === 'application/octet-stream' && a.filename.toLowerCase().endsWith('.ics'))
    );
  });
}

/** Accept, maybe or decline, with an optional note: answered with the card as it is now. */
export const answerInvitation = (emailId: string, answer: InviteAnswer, comment: string) =>
  api<InvitationResponse>(`/api/invites/${id(emailId)}/reply`, {
    method: 'POST',
    body: comment.trim() ? { answer, comment: comment.trim() } : { answer },
  });

/** A task due when the event starts, linked to the mail. */
export const invitationTask = (emailId: string) => api<Task>(`/api/invites/${id(emailId)}/task`, { method: 'POST' });

/** Saves the event as `invite.ics` (without the invitation's method: a calendar imports it). */
export async function downloadInvitation(emailId: string): Promise<void> {
  saveBlob(await apiBlob(`/api/invites/${id(emailId)}/ics`), 'invite.ics');
}
