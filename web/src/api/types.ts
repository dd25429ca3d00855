// Shapes of the HTTP contract in docs/API.md. Keep in step with the server's serde types.

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
