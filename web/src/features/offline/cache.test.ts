// The browser's copy of the mail (issue 39): what is kept and under which key, the bounds (count
// by date, size, nothing at 0), remote images never kept, and patches reaching every copy.

import { describe, expect, it } from 'vitest';
import { detail, mail, thread } from '../inbox/testFixtures';
import { MailCache } from './cache';
import { memoryKv } from './kv';
import { MAX_MAIL_CHARS } from './limits';

const LIST = '/api/threads/inbox?page=1&perPage=50';

function cacheOf(cap = 300) {
  const kv = memoryKv();
  return { kv, cache: new MailCache(kv, () => cap, () => 1_000) };
}

describe('MailCache', () => {
  it('keeps a listing with its total and a mail, and answers a ?remote=1 read with the blocked copy', async () => {
    const { cache } = cacheOf();
    const m = mail(1);
    expect(await cache.remember(LIST, [thread([m])], 7)).toBe(true);
    expect(await cache.remember('/api/emails/1', detail(m, { remoteContentBlocked: true }), null)).toBe(true);
    expect(await cache.recall(LIST)).toEqual({ data: [thread([m])], total: 7 });
    const remote = await cache.recall('/api/emails/1?remote=1');
    expect((remote?.data as { remoteContentBlocked: boolean }).remoteContentBlocked).toBe(true);
    // The body with remote images is never kept, so it can never be shown offline.
    expect(await cache.remember('/api/emails/1?remote=1', detail(m, { body: '<img src="https://x/y.png">' }), null)).toBe(false);
    expect((await cache.recall('/api/emails/1'))?.data).toMatchObject({ remoteContentBlocked: true });
  });

  it('keeps nothing outside the mail: settings, contacts, counts with a query', async () => {
    const { cache, kv } = cacheOf();
    for (const path of ['/api/settings/sync', '/api/contacts', '/api/emails/counts?x=1', '/api/emails/bulk', '/api/app/me']) {
      expect(await cache.remember(path, { a: 1 }, null)).toBe(false);
    }
    expect(await kv.all('responses')).toEqual([]);
    expect(await cache.remember('/api/emails/counts', { inbox: 1 }, null)).toBe(true);
  });

  it('keeps the newest mails by date up to the user’s count, none at 0, none too large', async () => {
    const { cache } = cacheOf(2);
    for (const [id, day] of [[1, '01'], [2, '03'], [3, '02']] as const) {
      await cache.remember(`/api/emails/${id}`, detail(mail(id, { date: `2025-03-${day}T09:00:00Z` })), null);
    }
    expect(await cache.hasMail('1')).toBe(false);
    expect(await cache.hasMail('2')).toBe(true);
    expect(await cache.hasMail('3')).toBe(true);

    // Bodies fetched ahead only when they would stay.
    expect(await cache.wouldKeep('2025-03-01T00:00:00Z')).toBe(false);
    expect(await cache.wouldKeep('2025-03-05T00:00:00Z')).toBe(true);

    const big = detail(mail(4), { body: 'x'.repeat(MAX_MAIL_CHARS) });
    expect(await cache.remember('/api/emails/4', big, null)).toBe(false);

    const off = cacheOf(0).cache;
    expect(await off.remember('/api/emails/1', detail(mail(1)), null)).toBe(false);
    expect(await off.wouldKeep('2025-03-05T00:00:00Z')).toBe(false);
  });

  it('a patch reaches the mail and every listing; a removal takes it out of the listings and their totals', async () => {
    const { cache } = cacheOf();
    const a = mail(1, { is_starred: false });
    const b = mail(2);
    await cache.remember(LIST, [thread([a]), thread([b])], 2);
    await cache.remember('/api/threads/starred?page=1&perPage=50', [thread([a])], 1);
    await cache.remember('/api/emails/1', detail(a), null);

    await cache.patchMail('1', (e) => ({ ...e, is_starred: true }));
    expect((await cache.findMail('1'))?.is_starred).toBe(true);
    const list = (await cache.recall(LIST))?.data as ReturnType<typeof thread>[];
    expect(list[0].isStarred).toBe(true);
    expect(list[0].emails[0].is_starred).toBe(true);
    expect((await cache.findThread('1'))?.emails[0].is_starred).toBe(true);

    await cache.patchMail('1', () => null);
    expect(await cache.recall('/api/emails/1')).toBeUndefined();
    expect(await cache.recall(LIST)).toMatchObject({ total: 1, data: [{ id: b.threadId }] });
    expect(await cache.recall('/api/threads/starred?page=1&perPage=50')).toMatchObject({ total: 0, data: [] });
  });
});
