// The mailbox calls (docs/API.md "Mail accounts" and "Mail"): thin typed wrappers over `api`,
// so components never spell a path or a body shape themselves.

import { api, apiBlob } from './client';
import { keys } from './keys';
import type {
  ConnectionResult,
  DetectProviderResponse,
  MailAccountRequest,
  MailLoginResponse,
  MailLogoutResponse,
  SyncRefreshResponse,
  UpdateEmailRequest,
  UpdateEmailResponse,
} from './types';

export function detectProvider(email: string, signal?: AbortSignal): Promise<DetectProviderResponse> {
  return api<DetectProviderResponse>(`/api/providers/detect?email=${encodeURIComponent(email)}`, { signal });
}

/** Resolves on success; a 422 rejects with an ApiError whose `body` is a ConnectionResult. */
export function testConnection(body: MailAccountRequest): Promise<ConnectionResult> {
  return api<ConnectionResult>('/api/auth/test-connection', { method: 'POST', body });
}

/** Saves the account and starts syncing it; failures as for `testConnection`. */
export function connectMailbox(body: MailAccountRequest): Promise<MailLoginResponse> {
  return api<MailLoginResponse>('/api/auth/login', { method: 'POST', body });
}

export function disconnectMailbox(sessionId: string): Promise<MailLogoutResponse> {
  return api<MailLogoutResponse>('/api/auth/logout', { method: 'POST', body: { sessionId } });
}

export function syncNow(): Promise<SyncRefreshResponse> {
  return api<SyncRefreshResponse>('/api/sync/refresh', { method: 'POST' });
}

export function updateEmail(id: string, changes: UpdateEmailRequest): Promise<UpdateEmailResponse> {
  return api<UpdateEmailResponse>(keys.email(id), { method: 'PUT', body: changes });
}

/** Hands a downloaded file to the browser under `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads an attachment (the route needs the Authorization header, so no plain link). */
export async function downloadAttachment(emailId: string, index: number, filename: string): Promise<void> {
  const blob = await apiBlob(`/api/emails/${encodeURIComponent(emailId)}/attachments/${index}`);
  saveBlob(blob, filename || `attachment-${index}`);
}

/** Downloads the message as it arrived (.eml). */
export async function downloadRaw(emailId: string): Promise<void> {
  const blob = await apiBlob(`/api/emails/${encodeURIComponent(emailId)}/raw`);
  saveBlob(blob, `${emailId}.eml`);
}
