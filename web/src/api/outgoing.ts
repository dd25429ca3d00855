// Sending, drafts, the outbox, templates, attachments and compose contacts (docs/API.md
// "Sending, drafts, outbox"): typed wrappers so components never spell a path or a body shape.

import { ApiError, api } from './client';
import { getToken } from './session';
import type * as G from './generated';

// The server's shapes (sending, drafts, the outbox, templates, attachments, compose contacts).
export type {
  ComposeContact,
  DeleteAllDraftsResponse,
  DeleteDraftResponse,
  Draft,
  DraftOriginal,
  DraftsResponse,
  OutboxItem,
  OutboxKind,
  OutboxMail,
  OutboxResponse,
  OutboxState,
  OutgoingMail,
  RetryOutboxResponse,
  SaveDraftOriginal,
  SaveDraftRequest,
  SaveDraftResponse,
  SendResponse,
  Template,
  TemplateRequest,
  TemplateResponse,
  TemplatesResponse,
  UndoSendResponse,
  UpdateDraftRequest,
  UpdateDraftResponse,
  UpdateOutboxResponse,
  UploadedAttachment,
} from './generated';

/** GET /api/compose/recent-contacts and /api/compose/address-book. */
export type ComposeContactsResponse = G.ComposeContactsResponse;

/** What POST /api/emails/send and POST /api/drafts/{id}/send answer (the name the app uses). */
export type SendResult = G.SendResponse;

/** The priorities compose offers (`OutgoingMail.priority` is any string to the server). */
export type Priority = 'low' | 'medium' | 'high' | 'urgent';

/**
 * What the reply panel saves as a draft: the server's request, its original also carrying the
 * body and date docs/API.md lists (the server ignores them).
 */
export type ReplyDraftRequest = G.SaveDraftRequest & { originalEmail: G.SaveDraftOriginal & { body: string; date: string } };

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

export const sendMail = (mail: G.OutgoingMail) =>
  api<SendResult>('/api/emails/send', { method: 'POST', body: mail });

export const undoSend = (outboxId: string) =>
  api<G.UndoSendResponse>(`/api/outbox/${id(outboxId)}/undo`, { method: 'POST' });

/** `item` is null when the mail became a draft (`folder: 'drafts'`): it left the outbox. */
export const updateOutboxItem = (outboxId: string, mail: G.OutgoingMail) =>
  api<G.UpdateOutboxResponse>(`/api/outbox/${id(outboxId)}`, { method: 'PUT', body: mail });

export const retryOutboxItem = (outboxId: string) =>
  api<G.RetryOutboxResponse>(`/api/outbox/${id(outboxId)}/retry`, { method: 'POST' });

export const cancelOutboxItem = (outboxId: string) =>
  api<G.SuccessResponse>(`/api/outbox/${id(outboxId)}`, { method: 'DELETE' });

export const saveDraft = (request: G.SaveDraftRequest) =>
  api<G.SaveDraftResponse>('/api/drafts/save', { method: 'POST', body: request });

export const updateDraft = (draftId: string, change: G.UpdateDraftRequest) =>
  api<G.UpdateDraftResponse>(`/api/drafts/${id(draftId)}`, { method: 'PUT', body: change });

export const deleteDraft = (draftId: string) =>
  api<G.DeleteDraftResponse>(`/api/drafts/${id(draftId)}`, { method: 'DELETE' });

export const sendDraft = (draftId: string) =>
  api<SendResult>(`/api/drafts/${id(draftId)}/send`, { method: 'POST' });

export const deleteAllDrafts = () =>
  api<G.DeleteAllDraftsResponse>('/api/drafts/delete-all', { method: 'DELETE' });

export const createTemplate = (t: G.TemplateRequest) =>
  api<G.TemplateResponse>('/api/templates', { method: 'POST', body: t });

export const updateTemplate = (t: G.Template) =>
  api<G.TemplateResponse>(`/api/templates/${id(t.id)}`, { method: 'PUT', body: t });

export const deleteTemplate = (templateId: string) =>
  api<G.SuccessResponse>(`/api/templates/${id(templateId)}`, { method: 'DELETE' });

export const removeUpload = (uploadId: string) =>
  api<G.SuccessResponse>(`/api/attachments/${id(uploadId)}`, { method: 'DELETE' });

/**
 * Uploads one file as the raw request body (XMLHttpRequest, for progress). Rejects with the
 * server's Hebrew message (413 above the size limit).
 */
export function uploadAttachment(
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<G.UploadedAttachment> {
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
        resolve(body as G.UploadedAttachment);
      } else {
        const message = (body as { message?: string } | undefined)?.message;
        reject(new Error(message || 'שגיאה בהעלאת הקובץ'));
      }
    };
    xhr.onerror = () => reject(new Error('לא ניתן להתחבר לשרת. אנא בדוק את החיבור לאינטרנט.'));
    xhr.send(file);
  });
}
