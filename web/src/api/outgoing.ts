// Sending, drafts, the outbox, templates, attachments and compose contacts (docs/API.md
// "Sending, drafts, outbox"): typed wrappers so components never spell a path or a body shape.

import { ApiError, api } from './client';
import { getToken } from './session';

export type Priority = 'low' | 'medium' | 'high' | 'urgent';

/** The mail as written: what compose, the reply panel and the outbox exchange with the server. */
export interface OutgoingMail {
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  /** HTML from the editor. */
  body: string;
  priority?: Priority;
  from_name?: string;
  originalMessageId?: string;
  inReplyTo?: string;
  references?: string[];
  /** Local id of the mail replied to. */
  originalId?: string;
  /** Upload ids (POST /api/attachments). */
  attachments?: string[];
  folder?: 'sent' | 'drafts';
  /** RFC 3339; schedules the mail. */
  snoozed_until?: string;
}

export interface UploadedAttachment {
  id: string;
  name: string;
  size: number;
  contentType: string;
}

/** An outbox item's mail: attachments are described, not just referenced. */
export type OutboxMail = Omit<OutgoingMail, 'attachments'> & { attachments: UploadedAttachment[] };

export type OutboxState = 'waiting' | 'scheduled' | 'sending' | 'failed';

export interface OutboxItem {
  id: string;
  kind: 'send' | 'draft';
  state: OutboxState;
  /** RFC 3339: when it goes out (end of the undo delay, or the scheduled time). */
  sendAt: string;
  attempts: number;
  nextTry: string | null;
  lastError: string | null;
  /** False after a permanent refusal: waits for the user. */
  retry: boolean;
  createdAt: string;
  mail: OutboxMail;
}

export interface SendResult {
  success: boolean;
  outboxId?: string;
  sendAt?: string;
  undoSeconds?: number;
  scheduled?: boolean;
  savedInGmail?: boolean;
  draftId?: string;
  message: string;
}

export interface DraftOriginal {
  id: string;
  messageId: string;
  from: string;
  from_name: string;
  subject: string;
  body: string;
  date: string;
  status: string | null;
}

export interface Draft {
  id: string;
  draftContent: string;
  to: string;
  toName: string;
  cc: string[];
  subject: string;
  createdAt: string;
  isAutoReply: boolean;
  savedInGmail: boolean;
  scheduledAt?: string;
  outboxId?: string;
  messageId: string;
  originalEmail?: DraftOriginal;
}

export interface DraftsResponse {
  drafts: Draft[];
  total: number;
}

export interface SaveDraftRequest {
  originalEmail: {
    id: string;
    messageId: string;
    from: string;
    from_name: string;
    subject: string;
    body: string;
    date: string;
  };
  draftContent: string;
  subject?: string;
  to?: string;
}

export interface SaveDraftResponse {
  success: boolean;
  savedInGmail: boolean;
  shouldNavigate: boolean;
  message: string;
  draftId?: string;
}

export interface Template {
  id: string;
  name: string;
  subject: string;
  body: string;
}

export interface ComposeContact {
  id: string;
  name: string;
  email: string;
  count?: number;
}

/** The placeholder a template subject may hold (replaced with the replied mail's subject). */
export const ORIGINAL_SUBJECT = '{{original_subject}}';

export const outgoingKeys = {
  drafts: () => '/api/drafts',
  outbox: () => '/api/outbox',
  templates: () => '/api/templates',
  recentContacts: () => '/api/compose/recent-contacts',
  addressBook: (q = '') => `/api/compose/address-book${q ? `?q=${encodeURIComponent(q)}` : ''}`,
} as const;

const id = (value: string) => encodeURIComponent(value);

/**
 * The text for a failed outgoing call (spec 000 §8: "the server message, else …"): the server's
 * own `message` when it sent one, the connection message when it could not be reached, else
 * `fallback` (ApiError's generic 'שגיאה בשרת' says less than the screen's own wording).
 */
export function failureMessage(e: unknown, fallback: string): string {
  if (e instanceof ApiError) {
    if (e.isNetworkError) return e.message;
    const message = (e.body as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  return fallback;
}

/** A spec failure message, with the server's reason after it when it gave one ('שגיאה בעדכון הטיוטה: …'). */
export function withReason(fixed: string, e: unknown): string {
  const reason = failureMessage(e, '');
  if (!reason) return fixed;
  // The server may already lead with the same words ('שגיאה ביצירת כותרת: …'): say them once.
  return reason.startsWith(fixed) ? reason : `${fixed}: ${reason}`;
}

export const sendMail = (mail: OutgoingMail) =>
  api<SendResult>('/api/emails/send', { method: 'POST', body: mail });

export const undoSend = (outboxId: string) =>
  api<{ success: boolean; mail: OutboxMail }>(`/api/outbox/${id(outboxId)}/undo`, { method: 'POST' });

/** `item` is null when the mail became a draft (`folder: 'drafts'`): it left the outbox. */
export const updateOutboxItem = (outboxId: string, mail: OutgoingMail) =>
  api<{ success: boolean; item: OutboxItem | null; message?: string; savedInGmail?: boolean }>(`/api/outbox/${id(outboxId)}`, { method: 'PUT', body: mail });

export const retryOutboxItem = (outboxId: string) =>
  api<{ success: boolean; item: OutboxItem }>(`/api/outbox/${id(outboxId)}/retry`, { method: 'POST' });

export const cancelOutboxItem = (outboxId: string) =>
  api<{ success: boolean }>(`/api/outbox/${id(outboxId)}`, { method: 'DELETE' });

export const saveDraft = (request: SaveDraftRequest) =>
  api<SaveDraftResponse>('/api/drafts/save', { method: 'POST', body: request });

export const updateDraft = (draftId: string, change: { draftContent: string; subject?: string; to?: string; cc?: string[] }) =>
  api<{ success: boolean; message: string; id: string }>(`/api/drafts/${id(draftId)}`, { method: 'PUT', body: change });

export const deleteDraft = (draftId: string) =>
  api<{ success: boolean; message: string }>(`/api/drafts/${id(draftId)}`, { method: 'DELETE' });

export const sendDraft = (draftId: string) =>
  api<SendResult>(`/api/drafts/${id(draftId)}/send`, { method: 'POST' });

export const deleteAllDrafts = () =>
  api<{ success: boolean; deletedCount: number }>('/api/drafts/delete-all', { method: 'DELETE' });

export const createTemplate = (t: Omit<Template, 'id'>) =>
  api<{ success: boolean; template: Template }>('/api/templates', { method: 'POST', body: t });

export const updateTemplate = (t: Template) =>
  api<{ success: boolean; template: Template }>(`/api/templates/${id(t.id)}`, { method: 'PUT', body: t });

export const deleteTemplate = (templateId: string) =>
  api<{ success: boolean }>(`/api/templates/${id(templateId)}`, { method: 'DELETE' });

export const removeUpload = (uploadId: string) =>
  api<{ success: boolean }>(`/api/attachments/${id(uploadId)}`, { method: 'DELETE' });

/**
 * Uploads one file as the raw request body (XMLHttpRequest, for progress). Rejects with the
 * server's Hebrew message (413 above the size limit).
 */
export function uploadAttachment(
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<UploadedAttachment> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/attachments?name=${encodeURIComponent(file.name)}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', token);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as UploadedAttachment);
      } else {
        const message = (body as { message?: string } | undefined)?.message;
        reject(new Error(message || 'שגיאה בהעלאת הקובץ'));
      }
    };
    xhr.onerror = () => reject(new Error('לא ניתן להתחבר לשרת. אנא בדוק את החיבור לאינטרנט.'));
    xhr.send(file);
  });
}
