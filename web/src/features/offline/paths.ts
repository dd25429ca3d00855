// Which API answers offline reading keeps, and under what key (issue 39). Only the mail the
// inbox page reads: the folder listings and whole threads (`/api/threads/…`), one mail
// (`/api/emails/<id>`, kept as the server sanitised it with remote images held back, and given
// for `?remote=1` too, so remote images stay blocked offline), the folder counts and the Inbox
// Zero panel's, the folder list and tree, and the mail accounts (the inbox waits for them:
// servers and sync state, no secret). Nothing else (settings, contacts, keys) is kept.

export type Kind = 'list' | 'mail' | 'other';

export interface Kept {
  kind: Kind;
  /** The key the copy is kept under. */
  key: string;
  /** For a mail: its id. */
  id?: string;
}

const OTHER = new Set([
  '/api/emails/counts',
  '/api/emails/inbox-zero',
  '/api/folders',
  '/api/folders/tree',
  '/api/auth/accounts',
]);
const NOT_A_MAIL = new Set(['counts', 'bulk', 'inbox-zero', 'remote-senders']);

/** Whether (and how) the answer of GET `path` is kept; null: never. */
export function keptAs(path: string): Kept | null {
  const [pathname, query = ''] = path.split('?', 2);
  if (OTHER.has(pathname) && !query) return { kind: 'other', key: pathname };
  if (/^\/api\/threads\/[^/]+(\/[^/]+)?$/.test(pathname)) return { kind: 'list', key: path };
  const mail = /^\/api\/emails\/([^/]+)$/.exec(pathname);
  if (mail && !NOT_A_MAIL.has(mail[1]) && (query === '' || query === 'remote=1')) {
    const id = decodeURIComponent(mail[1]);
    return { kind: 'mail', key: `/api/emails/${encodeURIComponent(id)}`, id };
  }
  return null;
}

/** Whether a kept answer may be kept under `kept` (a `?remote=1` body carries remote images: not kept). */
export function keepsAnswerOf(path: string): boolean {
  return !path.endsWith('?remote=1');
}
