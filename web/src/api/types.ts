// Shapes of the HTTP contract in docs/API.md. The server's answers (and the request bodies it
// declares) are generated from its Rust types (./generated.ts, see src/wire.rs) and only
// re-exported here under the names the app imports; what is hand-written below is the web's own:
// the error shape, listing options, request bodies the server does not declare, UI state.

import type { SuccessResponse, Thread } from './generated';

// ---- The app's own users, setup and health (POST /api/app/*, /api/setup/*, /api/admin/*) ----

export type {
  AdminUserResponse,
  AdminUsersResponse,
  ChangePasswordRequest,
  CreateUserRequest,
  HealthResponse,
  HealthStatus,
  LoginRequest,
  LoginResponse,
  MeResponse,
  Role,
  SetupAdminRequest,
  SetupAdminResponse,
  SetupStatusResponse,
  SuccessResponse,
  UpdateUserRequest,
  User,
} from './generated';

/** Every error, whatever the route (docs/API.md "Error shape"). */
export interface ApiErrorBody {
  success: false;
  error: string;
  message: string;
  /** Only on 429 `too_many_attempts`. */
  retryAfterSecs?: number;
}

/** POST /api/app/logout answers only `{ success }`. */
export type LogoutResponse = SuccessResponse;

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

// ---- Mailbox accounts (POST /api/auth/*, /api/providers, /api/sync/refresh) ----

export type {
  ConnectionResult,
  DetectedProvider,
  DetectProviderResponse,
  MailAccount,
  MailAccountRequest,
  MailAccountsResponse,
  MailAccountWithSync,
  MailFailureKind,
  MailLoginResponse,
  MailLogoutResponse,
  MailProvider,
  ProvidersResponse,
  ServerCheck,
  SyncRefreshResponse,
  SyncStatus,
} from './generated';

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

export type BulkAction = 'status' | 'delete' | 'trash' | 'archive' | 'read' | 'unread' | 'star' | 'unstar';

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

