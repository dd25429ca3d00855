import { describe, expect, it } from 'vitest';
import { isMailKey, keys } from './keys';
import { defaultOrder, listQuery } from './triage';

describe('listing options', () => {
  it('leaves out what equals the server default', () => {
    expect(listQuery()).toBe('');
    expect(listQuery({ sort: 'date', order: 'desc' })).toBe('');
    expect(listQuery({ sort: 'sender', order: 'asc' })).toBe('sort=sender');
    expect(listQuery({ sort: 'subject', order: 'desc' })).toBe('sort=subject&order=desc');
    expect(listQuery({ order: 'asc' })).toBe('order=asc');
    expect(listQuery({ filter: ['unread', 'attachment'], status: 'urgent' })).toBe('filter=unread,attachment&status=urgent');
  });

  it('knows the default order of each sort', () => {
    expect(defaultOrder('date')).toBe('desc');
    expect(defaultOrder(undefined)).toBe('desc');
    expect(defaultOrder('sender')).toBe('asc');
    expect(defaultOrder('subject')).toBe('asc');
  });

  it('thread pages are mail keys, so revalidation covers them', () => {
    const key = keys.threadPage('/api/threads/inbox', 2, 50, 'filter=unread');
    expect(key).toBe('/api/threads/inbox?page=2&perPage=50&filter=unread');
    expect(isMailKey(key)).toBe(true);
    expect(isMailKey(`$inf$${keys.threadPage('/api/threads/Spam', 1, 50)}`)).toBe(true);
    expect(isMailKey(keys.me())).toBe(false);
  });

  it('a whole thread is its listing path with the id encoded and the listing query, and a mail key', () => {
    const key = keys.thread('/api/threads/inbox', '<root.1@example.test>', 'filter=unread&sort=sender');
    expect(key).toBe('/api/threads/inbox/%3Croot.1%40example.test%3E?filter=unread&sort=sender');
    expect(keys.thread('/api/threads/Spam', 'a/b')).toBe('/api/threads/Spam/a%2Fb');
    expect(isMailKey(key)).toBe(true);
  });
});

describe('search key', () => {
  it('is the search path with what is set, and a mail key so live events re-read it', () => {
    const key = keys.search({
      q: 'פגישה',
      from: '',
      to: '',
      subject: '',
      after: '2024-03-01',
      before: '',
      unread: true,
      starred: false,
      attachment: false,
      folder: 'all',
      page: 2,
      tz: 120,
    });
    expect(key).toBe(`/api/search?q=${encodeURIComponent('פגישה')}&after=2024-03-01&unread=1&page=2&perPage=20&tz=120`);
    expect(isMailKey(key)).toBe(true);
    expect(isMailKey('/api/search?q=x')).toBe(true);
  });
});
