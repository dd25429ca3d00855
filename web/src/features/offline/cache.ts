// The browser's copy of the mail (issue 39): answers the server gave, kept in the `responses`
// store with a small record each in `index` (kind, size, order) so that eviction never reads the
// bodies. Bounded: the user's count of mails (newest by date kept), MAX_LISTS listings (the most
// recently read kept), one answer's size, and the total size. A mail queued for change offline is
// patched here too, so a reload without the server shows what the user did.

import type { Email, Thread } from '../../api/types';
import type { Kv } from './kv';
import { MAX_LISTS, MAX_LIST_CHARS, MAX_MAIL_CHARS, MAX_TOTAL_CHARS } from './limits';
import { keepsAnswerOf, keptAs, type Kind } from './paths';

/** A kept answer: the JSON as the server sent it, and a listing's X-Total-Count. */
export interface KeptAnswer {
  data: unknown;
  total: number | null;
}

interface IndexEntry {
  key: string;
  kind: Kind;
  /** Eviction order: a mail's date, a listing's time of reading (larger is kept longer). */
  order: number;
  size: number;
}

/** The mail of a kept answer: a listing's threads' mail, or the one mail. */
function mailsOf(kind: Kind, data: unknown): Email[] {
  if (kind === 'mail') return data && typeof data === 'object' ? [data as Email] : [];
  if (kind !== 'list') return [];
  const threads: Thread[] = Array.isArray(data) ? data : data && typeof data === 'object' ? [data as Thread] : [];
  return threads.flatMap((t) => (Array.isArray(t?.emails) ? t.emails : []));
}

export class MailCache {
  constructor(
    private readonly kv: Kv,
    /** How many mails to keep (the user's preference, read at each write). */
    private readonly cap: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps the answer to GET `path` if it is one offline reading keeps and within the bounds. */
  async remember(path: string, data: unknown, total: number | null): Promise<boolean> {
    const kept = keptAs(path);
    if (!kept || !keepsAnswerOf(path) || this.cap() === 0) return false;
    const size = JSON.stringify(data ?? null).length;
    if (size > (kept.kind === 'mail' ? MAX_MAIL_CHARS : MAX_LIST_CHARS)) return false;
    const date = kept.kind === 'mail' ? Date.parse((data as Email | null)?.date ?? '') : NaN;
    const order = Number.isFinite(date) ? date : this.now();
    await this.kv.put('responses', kept.key, { data, total } satisfies KeptAnswer);
    await this.kv.put('index', kept.key, { key: kept.key, kind: kept.kind, order, size } satisfies IndexEntry);
    await this.evict();
    return true;
  }

  /** The kept answer for GET `path` (a `?remote=1` mail gets the copy with remote images blocked). */
  async recall(path: string): Promise<KeptAnswer | undefined> {
    const kept = keptAs(path);
    return kept ? this.kv.get<KeptAnswer>('responses', kept.key) : undefined;
  }

  /** Whether a mail's own answer (its body) is kept. */
  async hasMail(id: string): Promise<boolean> {
    return (await this.kv.get('index', `/api/emails/${encodeURIComponent(id)}`)) !== undefined;
  }

  /**
   * Whether a mail of this date would stay once kept: under the count, or newer than the oldest
   * kept (so fetching bodies ahead never fetches one that eviction drops at once, again and again).
   */
  async wouldKeep(date: string): Promise<boolean> {
    const mails = (await this.kv.all<IndexEntry>('index')).filter((e) => e.kind === 'mail');
    if (mails.length < this.cap()) return this.cap() > 0;
    const at = Date.parse(date);
    return Number.isFinite(at) && mails.some((e) => e.order < at);
  }

  /** The mail as last kept: its own answer, else its row in a kept listing. */
  async findMail(id: string): Promise<Email | undefined> {
    const own = await this.kv.get<KeptAnswer>('responses', `/api/emails/${encodeURIComponent(id)}`);
    if (own) return own.data as Email;
    for (const entry of await this.kv.all<IndexEntry>('index')) {
      if (entry.kind !== 'list') continue;
      const answer = await this.kv.get<KeptAnswer>('responses', entry.key);
      const hit = answer && mailsOf('list', answer.data).find((e) => e.id === id);
      if (hit) return hit;
    }
    return undefined;
  }

  /** The kept listing's thread holding the mail, for a status change's answer. */
  async findThread(id: string): Promise<Thread | undefined> {
    for (const entry of await this.kv.all<IndexEntry>('index')) {
      if (entry.kind !== 'list') continue;
      const answer = await this.kv.get<KeptAnswer>('responses', entry.key);
      if (!answer || !Array.isArray(answer.data)) continue;
      const hit = (answer.data as Thread[]).find((t) => t?.emails?.some((e) => e.id === id));
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * Changes a mail wherever it is kept (its own answer and every listing holding it); `change`
   * returning null removes it from the listings (deleted, moved to Trash).
   */
  async patchMail(id: string, change: (e: Email) => Email | null): Promise<void> {
    const own = `/api/emails/${encodeURIComponent(id)}`;
    const answer = await this.kv.get<KeptAnswer>('responses', own);
    if (answer) {
      const next = change(answer.data as Email);
      if (next) await this.kv.put('responses', own, { ...answer, data: { ...(answer.data as object), ...next } });
      else await this.forget(own);
    }
    for (const entry of await this.kv.all<IndexEntry>('index')) {
      if (entry.kind !== 'list') continue;
      const listing = await this.kv.get<KeptAnswer>('responses', entry.key);
      if (listing && mailsOf('list', listing.data).some((e) => e.id === id)) {
        await this.kv.put('responses', entry.key, patchListing(listing, id, change));
      }
    }
  }

  private async forget(key: string): Promise<void> {
    await this.kv.del('responses', key);
    await this.kv.del('index', key);
  }

  /** Drops the oldest beyond each bound. */
  private async evict(): Promise<void> {
    const entries = await this.kv.all<IndexEntry>('index');
    const newestFirst = (a: IndexEntry, b: IndexEntry) => b.order - a.order;
    const mails = entries.filter((e) => e.kind === 'mail').sort(newestFirst);
    const lists = entries.filter((e) => e.kind === 'list').sort(newestFirst);
    const drop = [...mails.slice(this.cap()), ...lists.slice(MAX_LISTS)];
    let total = 0;
    for (const e of [...entries].sort(newestFirst)) {
      if (drop.includes(e)) continue;
      total += e.size;
      if (total > MAX_TOTAL_CHARS) drop.push(e);
    }
    for (const e of drop) await this.forget(e.key);
  }
}

/** A listing (or one thread) with the mail changed or taken out; a thread left empty goes too. */
export function patchListing(answer: KeptAnswer, id: string, change: (e: Email) => Email | null): KeptAnswer {
  const patchThread = (t: Thread): Thread | null => {
    if (!t.emails.some((e) => e.id === id)) return t;
    const emails = t.emails.flatMap((e) => {
      if (e.id !== id) return [e];
      const next = change(e);
      return next ? [next] : [];
    });
    if (emails.length === 0) return null;
    const newest = emails[0];
    return {
      ...t,
      emails,
      count: emails.length < t.emails.length ? Math.max(0, t.count - 1) : t.count,
      isRead: emails.every((e) => e.is_read),
      isStarred: emails.some((e) => e.is_starred),
      status: newest.status,
      priority: newest.priority,
    };
  };
  if (Array.isArray(answer.data)) {
    const before = answer.data as Thread[];
    const after = before.map(patchThread).filter((t): t is Thread => t !== null);
    const removed = before.length - after.length;
    return { data: after, total: answer.total === null ? null : Math.max(0, answer.total - removed) };
  }
  return { ...answer, data: patchThread(answer.data as Thread) ?? { ...(answer.data as Thread), emails: [] } };
}
