// A connected mailbox as GET /api/auth/accounts answers it, for tests: every field the server
// sends (and an idle, fully synced status), the test's own values over them.

import type { MailAccountWithSync, SyncStatus } from '../../api/types';

/** A mailbox's sync status after a completed first sync, waiting in IDLE. */
export const IDLE_SYNC: SyncStatus = {
  state: 'idle',
  lastSync: 1_700_000_000,
  error: null,
  errorKind: null,
  fetchedMessages: 0,
  fetchedBytes: 0,
  initialSyncDone: true,
  idle: true,
  nextRetryAt: null,
  localStatusFolders: [],
};

/** A password mailbox (id 1, dana@example.test unless told); its sessionId follows its id. */
export function mailAccount(over: Partial<MailAccountWithSync> = {}): MailAccountWithSync {
  const id = over.id ?? 1;
  return {
    id,
    sessionId: String(id),
    email_address: 'dana@example.test',
    imap_server: 'imap.example.test',
    imap_port: 993,
    imap_ssl: true,
    smtp_server: 'smtp.example.test',
    smtp_port: 465,
    smtp_ssl: true,
    imap_fingerprint: null,
    smtp_fingerprint: null,
    auth: 'password',
    needsSignIn: false,
    sync: IDLE_SYNC,
    ...over,
  };
}
