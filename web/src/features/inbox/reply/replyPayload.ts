// What the reply panel sends (spec 000 §3 "Reply send payload", §5 the Re: rule) and what it saves
// as a draft (docs/API.md POST /api/drafts/save). Pure, so the rules are tested without a screen.

import type { OutgoingMail, ReplyDraftRequest } from '../../../api/outgoing';
import type { Email } from '../../../api/types';
import { replySubject, textToHtml } from '../../../lib/mailText';

/** A list row or an open mail (with its body). */
export type ReplySource = Email & { body?: string };

/** The original's References plus its own Message-ID: the new mail's place in the thread. */
function threadIds(mail: ReplySource): { messageId?: string; references?: string[] } {
  const messageId = mail.messageId?.trim() || undefined;
  const refs = [...mail.references, ...(messageId ? [messageId] : [])].filter(Boolean);
  // Without any, the server fills them from `originalId` (docs/API.md "OutgoingMail").
  return { messageId, references: refs.length ? [...new Set(refs)] : undefined };
}

export function replyMail(mail: ReplySource, text: string): OutgoingMail {
  const { messageId, references } = threadIds(mail);
  return {
    to: [mail.from],
    subject: replySubject(mail.subject),
    body: textToHtml(text),
    folder: 'sent',
    originalId: mail.id,
    originalMessageId: messageId,
    inReplyTo: messageId,
    references,
  };
}

/** `originalBody`: the open mail's (sanitized) body when loaded, else its preview. */
export function replyDraftRequest(mail: ReplySource, text: string, originalBody: string): ReplyDraftRequest {
  return {
    originalEmail: {
      id: mail.id,
      messageId: mail.messageId ?? '',
      from: mail.from,
      from_name: mail.from_name,
      subject: mail.subject,
      body: originalBody,
      date: mail.date,
    },
    draftContent: textToHtml(text),
    subject: replySubject(mail.subject),
  };
}
