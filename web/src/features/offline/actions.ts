// What the user does to mail while the server cannot be reached (issue 39), as queued actions:
// the request it was (so the replay sends exactly it), the mail's state when it was taken (so the
// replay can tell a change made elsewhere meanwhile), and what it changes locally. Only the
// inbox's own calls are queued: flags (read, star), a status, delete from the site, move to
// Trash, the bulk form of each, and a reply saved as a draft; anything else fails as online.

import type { Email } from '../../api/types';

/** The part of a mail an action depends on. */
export interface MailState {
  status: string | null;
  priority: string | null;
  is_read: boolean;
  is_starred: boolean;
  folder: string;
}

export type ActionKind = 'flags' | 'status' | 'delete' | 'trash' | 'draft';

/** A reply saved offline, with the mail it quotes, at most this many characters of JSON. */
export const MAX_DRAFT_CHARS = 1_500_000;

/** One action as the user took it; `path`, `method` and `body` are the request to replay. */
export interface Action {
  kind: ActionKind;
  emailId: string;
  path: string;
  method: 'PUT' | 'POST' | 'DELETE';
  body?: Record<string, unknown>;
}

/** An action in the queue: its order, the mail as it was, and where it stands. */
export interface QueuedAction extends Action {
  seq: number;
  /** When it was taken (ms). */
  at: number;
  subject: string;
  /** The mail's state when the action was taken (null: not known). */
  base: MailState | null;
  /** waiting: to be sent; conflict: changed elsewhere, the user chooses; failed: the server refused. */
  state: 'waiting' | 'conflict' | 'failed';
  /** For a conflict: the mail as it is on the server now (null: no longer there). */
  theirs?: MailState | null;
  /** For a failure: the server's (Hebrew) message. */
  message?: string;
}

export function stateOf(e: Email): MailState {
  return { status: e.status, priority: e.priority, is_read: e.is_read, is_starred: e.is_starred, folder: e.folder };
}

const mailPath = (id: string) => `/api/emails/${encodeURIComponent(id)}`;

function flagsBody(body: unknown): Record<string, boolean> | null {
  if (!body || typeof body !== 'object') return null;
  const out: Record<string, boolean> = {};
  for (const k of ['is_read', 'is_starred'] as const) {
    const v = (body as Record<string, unknown>)[k];
    if (typeof v === 'boolean') out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

function statusBody(body: unknown): Record<string, unknown> | null {
  const b = body as Record<string, unknown> | null;
  return b && typeof b.status === 'string' ? { status: b.status, ...(typeof b.priority === 'string' ? { priority: b.priority } : {}) } : null;
}

/** One mail's action of a bulk call (null: a bulk action that is not queued, e.g. archive). */
function bulkAction(id: string, action: unknown, body: Record<string, unknown>): Action | null {
  const flags: Record<string, Record<string, boolean>> = {
    read: { is_read: true },
    unread: { is_read: false },
    star: { is_starred: true },
    unstar: { is_starred: false },
  };
  if (typeof action !== 'string') return null;
  if (flags[action]) return { kind: 'flags', emailId: id, path: mailPath(id), method: 'PUT', body: flags[action] };
  if (action === 'delete') return { kind: 'delete', emailId: id, path: mailPath(id), method: 'DELETE' };
  if (action === 'trash') return { kind: 'trash', emailId: id, path: `${mailPath(id)}/trash`, method: 'POST' };
  const status = action === 'status' ? statusBody(body) : null;
  return status ? { kind: 'status', emailId: id, path: `${mailPath(id)}/status`, method: 'PUT', body: status } : null;
}

/** The actions a request is, or null when it is not one that is queued offline. */
export function actionsOf(path: string, method: string, body: unknown): Action[] | null {
  const [pathname] = path.split('?', 1);
  if (method === 'POST' && pathname === '/api/drafts/save') return draftAction(path, body);
  if (method === 'POST' && pathname === '/api/emails/bulk') {
    const b = body as Record<string, unknown> | null;
    const ids = Array.isArray(b?.ids) ? b.ids.filter((x): x is string => typeof x === 'string') : [];
    if (!b || ids.length === 0) return null;
    const out = ids.map((id) => bulkAction(id, b.action, b));
    return out.every((a): a is Action => a !== null) ? out : null;
  }
  const m = /^\/api\/emails\/([^/]+)(\/status|\/trash)?$/.exec(pathname);
  if (!m || ['counts', 'bulk', 'inbox-zero', 'remote-senders', 'auto-archive'].includes(m[1])) return null;
  const id = decodeURIComponent(m[1]);
  const one = (a: Action): Action[] => [a];
  if (!m[2] && method === 'PUT') {
    const flags = flagsBody(body);
    return flags ? one({ kind: 'flags', emailId: id, path: mailPath(id), method: 'PUT', body: flags }) : null;
  }
  if (!m[2] && method === 'DELETE') return one({ kind: 'delete', emailId: id, path: mailPath(id), method: 'DELETE' });
  if (m[2] === '/trash' && method === 'POST') return one({ kind: 'trash', emailId: id, path: `${mailPath(id)}/trash`, method: 'POST' });
  if (m[2] === '/status' && method === 'PUT') {
    const status = statusBody(body);
    // The replay sends it without the listing parameters: the answer's thread is not used then.
    return status ? one({ kind: 'status', emailId: id, path: `${mailPath(id)}/status`, method: 'PUT', body: status }) : null;
  }
  return null;
}

/** A reply saved as a draft: a new draft, so nothing elsewhere can clash with it. */
function draftAction(path: string, body: unknown): Action[] | null {
  const b = body as { originalEmail?: { id?: unknown }; draftContent?: unknown } | null;
  const id = b?.originalEmail?.id;
  if (typeof b?.draftContent !== 'string' || JSON.stringify(b).length > MAX_DRAFT_CHARS) return null;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  return [{ kind: 'draft', emailId: String(id), path, method: 'POST', body: b as Record<string, unknown> }];
}

/** The mail after the action, as the browser shows it until the server confirms (null: it left). */
export function applied(action: Action, e: Email): Email | null {
  switch (action.kind) {
    case 'flags':
      return { ...e, ...(action.body as Partial<Email>) };
    case 'status': {
      const status = String(action.body?.status);
      if (status === 'urgent') return { ...e, priority: 'urgent' };
      if (status === 'none') return { ...e, status: null, priority: null };
      return { ...e, status, ...(typeof action.body?.priority === 'string' ? { priority: action.body.priority } : {}) };
    }
    case 'delete':
    case 'trash':
      return null;
    case 'draft':
      return e;
  }
}

/** The fields of a mail an action changes. */
export function touched(kind: ActionKind): (keyof MailState)[] {
  switch (kind) {
    case 'flags':
      return ['is_read', 'is_starred'];
    case 'status':
      return ['status', 'priority'];
    case 'delete':
    case 'trash':
      return ['folder', 'status'];
    case 'draft':
      return [];
  }
}
