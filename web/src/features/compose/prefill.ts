// What the compose form starts with. Three ways in (spec 000 §2, spec 001 smart features):
// query parameters from a reply or a smart feature, an OutboxMail handed back by "undo send"
// (location.state.mail), or an outbox item opened for editing. Pure functions, so each rule is
// tested without rendering.

import type { OutboxMail, Priority, UploadedAttachment } from '../../api/outgoing';
import { replySubject, textToHtml as plainToHtml } from '../../lib/mailText';

/** Threading fields carried to the server unchanged (it fills In-Reply-To/References from them). */
export interface ReplyLink {
  originalMessageId?: string;
  originalId?: string;
  inReplyTo?: string;
  references?: string[];
}

export interface ComposeInitial {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** HTML for the editor. */
  bodyHtml: string;
  priority: Priority;
  /** Already uploaded: their ids are sent as they are. */
  attachments: UploadedAttachment[];
  reply: ReplyLink;
  /** The replied mail's subject, for a template's {{original_subject}}; '' when not a reply. */
  replySubject: string;
}

export const PRIORITIES: readonly Priority[] = ['low', 'medium', 'high', 'urgent'];

/** One of the priorities compose offers (the server gives any string back). */
export function isPriority(value: string | null | undefined): value is Priority {
  return PRIORITIES.some((p) => p === value);
}

export function emptyInitial(): ComposeInitial {
  return { to: [], cc: [], bcc: [], subject: '', bodyHtml: '', priority: 'medium', attachments: [], reply: {}, replySubject: '' };
}

/** 'Re: ' once (lib/mailText's rule); nothing for a blank subject. */
export function withRe(subject: string): string {
  return subject.trim() ? replySubject(subject) : '';
}

const ADDRESS = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;

/** The address in `a@b.c` or `Name <a@b.c>`; '' when the text holds none (e.g. a display name). */
export function addressIn(text: string | null | undefined): string {
  const t = (text ?? '').trim();
  const angled = /<([^<>]+)>/.exec(t);
  const candidate = (angled ? angled[1] : t).trim();
  return ADDRESS.test(candidate) ? candidate : '';
}

/** Plain text (an AI reply, a suggestion) as editor HTML: paragraphs without their own `dir`. */
export const textToHtml = (text: string) => plainToHtml(text, { dirAuto: false });

/**
 * The inbox links a local mail id when the mail has no Message-ID (features/inbox/threads.ts
 * replyHref); a bare number is that id, so it goes as `originalId`, anything else as the
 * Message-ID it is.
 */
function replyLinkFrom(value: string): ReplyLink {
  const v = value.trim();
  if (!v) return {};
  return /^\d+$/.test(v) ? { originalId: v } : { originalMessageId: v };
}

/** The body parameters in the order the spec lists them; the first non-blank one wins. */
const BODY_PARAMS = ['aiReply', 'reply', 'suggestion', 'content'] as const;

export function fromParams(params: URLSearchParams): ComposeInitial {
  const initial = emptyInitial();
  const replyTo = params.get('replyTo') ?? '';
  const replyFrom = params.get('replyFrom') ?? '';
  const replySubject = (params.get('replySubject') ?? '').trim();

  // The inbox sends the address in replyTo and the display name in replyFrom; smart features send
  // the address in replyFrom. Whichever holds an address is the recipient.
  const recipient = addressIn(replyFrom) || addressIn(replyTo);
  if (recipient) initial.to = [recipient];

  if (replySubject) initial.subject = withRe(replySubject);
  // Spec 000 §2: "'Re: ' plus the subject, or plus replyTo" when there is no subject.
  else if (replyTo.trim() && !addressIn(replyTo)) initial.subject = withRe(replyTo);
  initial.replySubject = replySubject;

  for (const name of BODY_PARAMS) {
    const text = params.get(name);
    if (text && text.trim()) {
      initial.bodyHtml = textToHtml(text);
      break;
    }
  }

  initial.reply = replyLinkFrom(params.get('originalMessageId') ?? '');
  return initial;
}

/**
 * An attachment as the server may describe it. The outbox lists them described; an older answer
 * could give bare upload ids, which are kept (named by their id) rather than dropped.
 */
function described(a: UploadedAttachment | string): UploadedAttachment {
  return typeof a === 'string' ? { id: a, name: a, size: 0, contentType: '' } : a;
}

/** A mail given back by "undo send" or an outbox item: everything as it was, attachments included. */
export function fromMail(mail: OutboxMail): ComposeInitial {
  const reply: ReplyLink = {};
  if (mail.originalMessageId) reply.originalMessageId = mail.originalMessageId;
  if (mail.originalId) reply.originalId = mail.originalId;
  if (mail.inReplyTo) reply.inReplyTo = mail.inReplyTo;
  if (mail.references?.length) reply.references = mail.references;
  return {
    to: [...(mail.to ?? [])],
    cc: [...(mail.cc ?? [])],
    bcc: [...(mail.bcc ?? [])],
    subject: mail.subject ?? '',
    bodyHtml: mail.body ?? '',
    priority: isPriority(mail.priority) ? mail.priority : 'medium',
    attachments: ((mail.attachments ?? []) as (UploadedAttachment | string)[]).map(described),
    reply,
    replySubject: '',
  };
}

/** A mail handed over in location.state (undo send), or null for anything else found there. */
export function mailFromState(state: unknown): OutboxMail | null {
  if (typeof state !== 'object' || state === null) return null;
  const mail = (state as { mail?: unknown }).mail;
  if (typeof mail !== 'object' || mail === null) return null;
  const m = mail as Partial<OutboxMail>;
  return Array.isArray(m.to) && typeof m.subject === 'string' ? (m as OutboxMail) : null;
}
