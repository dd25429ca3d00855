// Shapes of the HTTP contract in docs/API.md. The mail answers are generated from the server's
// Rust types (./generated.ts, see src/wire.rs) and only re-exported here under the names the app
// imports; the rest is hand-written: keep it in step with the server's serde types.

import type { Thread } from './generated';

export type Role = 'admin' | 'user';

export interface User {
  id: number;
  username: string;
  name: string;
  role: Role;
  /** RFC 3339, UTC. */
  createdAt: string;
}

/** Every error, whatever the route (docs/API.md "Error shape"). */
export interface ApiErrorBody {
  success: false;
  error: string;
  message: string;
  /** Only on 429 `too_many_attempts`. */
  retryAfterSecs?: number;
}

export interface HealthResponse {
  status: 'ok';
  version: string;
  schemaVersion: number;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export interface LoginResponse {
  success: boolean;
  token?: string;
  user?: User;
}

export interface MeResponse {
  success: boolean;
  user: User;
}

export interface LogoutResponse {
  success: boolean;
}

export interface SetupStatusResponse {
  needsSetup: boolean;
}

export interface SetupAdminRequest {
  token: string;
  username: string;
  name: string;
  password: string;
}

export interface SetupAdminResponse {
  success: boolean;
  user: User;
}

/**
 * Per-folder counts for the sidebar badges (spec 000 §3 "Folder counts").
 * Every field is optional: a missing count means "unknown", shown like zero (no badge).
 */
export interface FolderCounts {
  inbox?: number;
  starred?: number;
  needsReply?: number;
  /** Mail with priority urgent (not a sidebar entry; the Inbox Zero panel has its own count). */
  urgent?: number;
  processed?: number;
  spam?: number;
  advertisements?: number;
  info?: number;
  sent?: number;
  drafts?: number;
  trash?: number;
}

/** POST /api/app/password */
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
}

/** Any route that answers only `{ success: true }`. */
export interface SuccessResponse {
  success: boolean;
}

/** GET /api/admin/users (ordered by id). */
export interface AdminUsersResponse {
  success: boolean;
  users: User[];
}

/** POST /api/admin/users */
export interface CreateUserRequest {
  username: string;
  name: string;
  password: string;
  role: Role;
}

/** PUT /api/admin/users/{id}: only the fields present change. */
export interface UpdateUserRequest {
  name?: string;
  role?: Role;
  password?: string;
}

/** POST /api/admin/users, PUT /api/admin/users/{id} */
export interface AdminUserResponse {
  success: boolean;
  user: User;
}

// ---- Mailbox accounts (POST /api/auth/*, /api/providers, /api/sync/refresh) ----

/** A provider's servers, detected from an address (GET /api/providers/detect). */
export interface DetectedProvider {
  /** False for a guess from the domain (imap.<domain>, smtp.<domain>). */
  known: boolean;
  id: string;
  name: string;
  imapServer: string;
  imapPort: number;
  imapSsl: boolean;
  smtpServer: string;
  smtpPort: number;
  smtpSsl: boolean;
  /** A short Hebrew hint, e.g. that an app password is needed; may be empty. */
  note: string;
}

export interface DetectProviderResponse {
  email: string;
  provider: DetectedProvider;
}

/** Body of POST /api/auth/test-connection and POST /api/auth/login. */
export interface MailAccountRequest {
  email_address: string;
  /** Empty: the password already saved for this address. */
  password: string;
  imap_server: string;
  imap_port: number | string;
  imap_ssl: boolean;
  smtp_server: string;
  smtp_port: number | string;
  smtp_ssl: boolean;
  /** A certificate fingerprint the user accepted after seeing it. */
  imap_fingerprint?: string;
  smtp_fingerprint?: string;
}

export type MailFailureKind = 'auth' | 'unreachable' | 'tls' | 'timeout' | 'protocol';

/** The result of connecting to one server (IMAP or SMTP). */
export interface ServerCheck {
  ok: boolean;
  kind?: MailFailureKind | null;
  /** Hebrew, ready to show. */
  message?: string | null;
  /** Technical detail (English, from the server or the library). */
  detail?: string | null;
  /** Present when the server's TLS certificate is not trusted: "AB:CD:…". */
  fingerprint?: string | null;
}

/** 200 of test-connection, and the body of its (and login's) 422 `mail_connection_failed`. */
export interface ConnectionResult {
  success: boolean;
  error?: string;
  message: string;
  imap: ServerCheck;
  smtp: ServerCheck;
}

export type SyncState = 'connecting' | 'syncing' | 'idle' | 'error';

export interface SyncStatus {
  state: SyncState;
  /** Unix seconds. */
  lastSync: number | null;
  error: string | null;
  errorKind: string | null;
  fetchedMessages: number;
  fetchedBytes: number;
  initialSyncDone: boolean;
}

export interface MailAccount {
  id: number;
  sessionId: string;
  email_address: string;
  imap_server: string;
  imap_port: number;
  imap_ssl: boolean;
  smtp_server: string;
  smtp_port: number;
  smtp_ssl: boolean;
  imap_fingerprint: string | null;
  smtp_fingerprint: string | null;
  /** Only in GET /api/auth/accounts; null when no sync task runs for it. */
  sync?: SyncStatus | null;
}

export interface MailLoginResponse {
  success: boolean;
  sessionId: string;
  message: string;
  account: MailAccount;
}

export interface MailAccountsResponse {
  success: boolean;
  accounts: MailAccount[];
}

export interface MailLogoutResponse {
  success: boolean;
  removed: number;
  message: string;
}

export interface SyncRefreshResponse {
  success: boolean;
  accounts: number;
}

// ---- Mail (GET/PUT /api/emails/*, /api/folders): the answers are the server's own types ----

export type {
  AutoArchiveCandidate,
  AutoArchiveResponse,
  BulkResponse,
  DeleteEmailResponse,
  Email,
  EmailAttachment,
  EmailCountsResponse,
  EmailDetail,
  FolderInfo,
  FoldersResponse,
  InboxZeroReminder,
  InboxZeroResponse,
  RemoteSenderAdded,
  RemoteSenderRemoved,
  RemoteSendersResponse,
  SetStatusResponse,
  Thread,
  TrashEmailResponse,
  UpdateEmailResponse,
} from './generated';

/** PUT /api/emails/{id} */
export interface UpdateEmailRequest {
  is_read?: boolean;
  is_starred?: boolean;
}

// ---- Threads and triage (docs/API.md "Listing options", "Threads", "Triage") ----

/** A mail's triage status (spec 000 §4). */
export type MailStatus = 'needs_reply' | 'processed' | 'unread' | 'info' | 'spam' | 'suspicious' | 'advertisement';

export type MailPriority = 'low' | 'medium' | 'high' | 'urgent';

/** What PUT /api/emails/{id}/status takes: a status, `urgent` (priority, keeps the status) or `none`. */
export type StatusChange = MailStatus | 'urgent' | 'none';

/** `filter=` of a listing: comma-separated. */
export type ListFilter = 'unread' | 'starred' | 'attachment';

/** `status=` of a listing: a status, or `urgent` (priority urgent). */
export type ListStatus = MailStatus | 'urgent';

export type ListSort = 'date' | 'sender' | 'subject';

export type SortOrder = 'asc' | 'desc';

/** The listing options of /api/emails/{folder} and /api/threads/{folder}; absent = the server's default. */
export interface ListOptions {
  filter?: ListFilter[];
  status?: ListStatus;
  sort?: ListSort;
  order?: SortOrder;
}

/** One page of a thread listing; `total` (threads) comes from the X-Total-Count header. */
export interface ThreadPage {
  threads: Thread[];
  total: number;
}

/** PUT /api/emails/{id}/status */
export interface SetStatusRequest {
  status: StatusChange;
  priority?: MailPriority;
}

export type BulkAction = 'status' | 'delete' | 'trash' | 'read' | 'unread' | 'star' | 'unstar';

/** POST /api/emails/bulk (at most 1000 ids). */
export interface BulkRequest {
  ids: string[];
  action: BulkAction;
  status?: StatusChange;
  priority?: MailPriority;
}

// ---- Inbox Zero (GET /api/emails/inbox-zero, POST /api/emails/auto-archive) ----

export interface AutoArchiveRequest {
  emailIds: string[];
}

