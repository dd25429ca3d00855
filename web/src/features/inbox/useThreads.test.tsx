import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig, useSWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { swrFetcher } from '../../api/client';
import type { Email, Thread, ThreadPage } from '../../api/types';
import { json, mockFetch, signInAs } from '../../test/helpers';
import { calls, list, mail, partial, solo, thread, threadPath } from './testFixtures';
import { dropEmails, mapEmails, replaceThread, useThreads } from './useThreads';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// A thread whose aggregates say what only the server knows: label order, an IMAP label, urgency
// from its older mail.
const newer = mail(2, { threadId: 'x', status: 'info', is_read: false });
const older = mail(1, { threadId: 'x', status: 'needs_reply', priority: 'urgent' });
const pair = thread([newer, older], { labels: ['urgent', 'needs_reply', 'info', 'work'], priority: 'urgent' });
const pages = (): ThreadPage[] => [
  { threads: [pair, solo(3)], total: 3 },
  { threads: [solo(4)], total: 3 },
];

describe('the cached thread pages', () => {
  it('patch mail without working out the thread\'s triage aggregates; read and star follow', () => {
    const out = mapEmails(pages(), (e) => (e.id === '2' ? { ...e, status: 'processed', priority: null, is_read: true } : e))!;
    const x = out[0].threads[0];
    expect(x.emails[0]).toMatchObject({ id: '2', status: 'processed', priority: null, is_read: true });
    // The server's aggregates stay until the list is re-read...
    expect(x).toMatchObject({ labels: ['urgent', 'needs_reply', 'info', 'work'], status: 'info', priority: 'urgent' });
    // ...but the read and star flags are the mail's own.
    expect(x.isRead).toBe(true);
    const starred = mapEmails(out, (e) => (e.id === '1' ? { ...e, is_starred: true } : e))!;
    expect(starred[0].threads[0].isStarred).toBe(true);
    // Threads without a changed mail are left as they were.
    const base = pages();
    expect(mapEmails(base, (e) => (e.id === '2' ? { ...e, is_read: true } : e))![0].threads[1]).toBe(base[0].threads[1]);
  });

  it('take the server\'s thread in place of the one with its id or holding its mail', () => {
    const answer = thread([{ ...newer, status: 'needs_reply' }, older], { labels: ['needs_reply', 'work'] });
    const byId = replaceThread(pages(), answer, '2')!;
    expect(byId[0].threads.map((t) => t.id)).toEqual(['x', 't3']);
    expect(byId[0].threads[0]).toBe(answer);
    expect(byId[1]).toEqual(pages()[1]);

    // The server grouped it under another id: the thread holding the mail is the one replaced.
    const renamed = { ...answer, id: 'y' };
    const byMail = replaceThread(pages(), renamed, '1')!;
    expect(byMail[0].threads.map((t) => t.id)).toEqual(['y', 't3']);

    // A thread the list does not hold changes nothing.
    expect(replaceThread(pages(), solo(77), '77')).toEqual(pages());
  });

  it('drop mail: a thread left empty leaves the total, one left with mail says its aggregates are stale', () => {
    const whole = dropEmails(pages(), new Set(['2', '1']));
    expect(whole.partial).toBe(false);
    expect(whole.pages!.map((p) => p.threads.map((t) => t.id))).toEqual([['t3'], ['t4']]);
    expect(whole.pages!.map((p) => p.total)).toEqual([2, 2]);

    const part = dropEmails(pages(), new Set(['2']));
    expect(part.partial).toBe(true);
    const x = part.pages![0].threads[0];
    expect(x.emails.map((e) => e.id)).toEqual(['1']);
    expect(x.count).toBe(1);
    // Not recomputed here: the re-read brings the server's.
    expect(x.labels).toEqual(['urgent', 'needs_reply', 'info', 'work']);
    expect(part.pages![0].total).toBe(3);
  });
});

// A conversation of three the list holds in part: its newest mail (unread), the count and flags
// of all three (the middle one is starred).
const c3 = mail(13, { threadId: '<c@example.test>', is_read: false });
const c2 = mail(12, { threadId: '<c@example.test>', is_starred: true });
const c1 = mail(11, { threadId: '<c@example.test>' });
const convo = partial([c3, c2, c1]);
const inPart = (): ThreadPage[] => [{ threads: [convo, solo(3)], total: 2 }];

describe('the cached pages with a thread held in part', () => {
  it('read and star flags: one mail does not speak for the rest, the whole thread does', () => {
    expect(convo).toMatchObject({ count: 3, isRead: false, isStarred: true });
    expect(convo.emails).toHaveLength(1);
    const readNewest = (e: Email) => (e.id === '13' ? { ...e, is_read: true } : e);

    // The newest read says nothing about the other two; the star of the middle one stays.
    const alone = mapEmails(inPart(), readNewest)![0].threads[0];
    expect(alone.emails[0].is_read).toBe(true);
    expect(alone).toMatchObject({ count: 3, isRead: false, isStarred: true });
    // Mail seen unread or starred is proof enough.
    const unstarredRead = { ...convo, isRead: true, isStarred: false };
    const proved = mapEmails([{ threads: [unstarredRead], total: 1 }], (e) => ({ ...e, is_read: false, is_starred: true }))!;
    expect(proved[0].threads[0]).toMatchObject({ isRead: false, isStarred: true });

    // With the whole thread at hand the flags are all of its mail's.
    const whole = [c3, c2, c1].map(readNewest);
    const known = mapEmails(inPart(), readNewest, (t) => (t.id === convo.id ? whole : undefined))![0].threads[0];
    expect(known).toMatchObject({ isRead: true, isStarred: true });
    const unstarred = whole.map((e) => ({ ...e, is_starred: false }));
    expect(mapEmails(inPart(), readNewest, () => unstarred)![0].threads[0]).toMatchObject({ isRead: true, isStarred: false });
    // An older mail changing (read in the pane) moves the flags of the row that does not show it.
    const olderUnread = [c3, c2, c1].map((e) => ({ ...e, is_read: e.id !== '11' }));
    expect(mapEmails(inPart(), (e) => e, () => olderUnread)![0].threads[0].isRead).toBe(false);
    expect(mapEmails(inPart(), (e) => e, () => whole)![0].threads[0].isRead).toBe(true);
  });

  it('drop mail: the count is never the mail at hand, and a row whose newest went is re-read unless its whole is known', () => {
    // Only the newest is here and it went: the row goes for now, but whether the thread did is the re-read's to say.
    const newestGone = dropEmails(inPart(), new Set(['13']));
    expect(newestGone.pages![0].threads.map((t) => t.id)).toEqual(['t3']);
    expect(newestGone.pages![0].total).toBe(1);
    expect(newestGone.partial).toBe(true);

    // Known whole: all of it went, nothing to re-read...
    const whole = () => [c3, c2, c1];
    const allGone = dropEmails(inPart(), new Set(['13', '12', '11']), whole);
    expect(allGone.pages![0].threads.map((t) => t.id)).toEqual(['t3']);
    expect(allGone.partial).toBe(false);
    // ...only its newest went: the row stays with the newest left and the number left.
    const rest = dropEmails(inPart(), new Set(['13']), whole);
    const kept = rest.pages![0].threads[0];
    expect(kept.emails.map((e) => e.id)).toEqual(['12']);
    expect(kept.count).toBe(2);
    expect(rest.pages![0].total).toBe(2);
    expect(rest.partial).toBe(true);

    // Two of five here, one goes: four are left, not one.
    const two = { ...thread([c3, c2]), count: 5 };
    const out = dropEmails([{ threads: [two], total: 1 }], new Set(['13']));
    expect(out.pages![0].threads[0]).toMatchObject({ count: 4 });
    expect(out.pages![0].threads[0].emails.map((e) => e.id)).toEqual(['12']);
    expect(out.partial).toBe(true);
  });

  it('the server\'s thread replaces the one whose whole holds its mail', () => {
    const answer = { ...thread([c3, c2, c1]), id: '<merged@example.test>' };
    // The list has only the newest of it: by the whole thread, mail 11 is in it.
    const out = replaceThread(inPart(), answer, '11', (t) => (t.id === convo.id ? [c3, c2, c1] : undefined))!;
    expect(out[0].threads.map((t) => t.id)).toEqual(['<merged@example.test>', 't3']);
    expect(replaceThread(inPart(), answer, '11')).toEqual(inPart());
  });
});

describe('useThreads', () => {
  function wrapper({ children }: { children: ReactNode }) {
    return (
      <SWRConfig value={{ fetcher: swrFetcher, provider: () => new Map(), dedupingInterval: 0, shouldRetryOnError: false }}>
        {children}
      </SWRConfig>
    );
  }

  it('re-reads the list when mail leaves a thread that keeps other mail, not when whole threads go', async () => {
    signInAs();
    const fetch = mockFetch({ 'GET /api/threads/inbox': () => list([pair, solo(3)]) });
    const { result } = renderHook(() => useThreads('/api/threads/inbox'), { wrapper });
    await waitFor(() => expect(result.current.threads).toHaveLength(2));
    const reads = () => calls(fetch, 'GET', '/api/threads/inbox').length;
    const before = reads();

    await act(() => result.current.removeEmails(['3']));
    expect(result.current.threads.map((t) => t.id)).toEqual(['x']);
    expect(result.current.total).toBe(1);
    expect(reads()).toBe(before);

    await act(() => result.current.removeEmails(['2']));
    await waitFor(() => expect(reads()).toBeGreaterThan(before));
  });

  it('reads a thread held in part whole, and patches reach it and the row\'s flags', async () => {
    signInAs();
    const fetch = mockFetch({
      'GET /api/threads/inbox': () => list([convo, solo(3)]),
      [`GET ${threadPath('inbox', convo.id)}`]: () => json(200, thread([c3, c2, c1])),
    });
    const { result } = renderHook(() => ({ list: useThreads('/api/threads/inbox'), cache: useSWRConfig().cache }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.list.threads).toHaveLength(2));
    // A thread held whole is itself, with no call.
    const three = result.current.list.threads[1];
    expect(await result.current.list.full(three)).toBe(three);
    const whole = await act(() => result.current.list.full(result.current.list.threads[0]));
    expect(whole.emails.map((e) => e.id)).toEqual(['13', '12', '11']);
    expect(calls(fetch, 'GET', threadPath('inbox', convo.id))).toHaveLength(1);
    const key = result.current.list.threadKey(convo.id)!;
    expect(key).toBe(threadPath('inbox', convo.id));
    const cached = () => result.current.cache.get(key)?.data as Thread;
    expect(cached().emails).toHaveLength(3);

    // Unstarring the middle mail (not in the list) clears the row's star; reading the newest reads it.
    await act(() => result.current.list.patch('12', { is_starred: false }));
    expect(result.current.list.threads[0]).toMatchObject({ isStarred: false, isRead: false });
    await act(() => result.current.list.patch('13', { is_read: true }));
    expect(result.current.list.threads[0]).toMatchObject({ isStarred: false, isRead: true });
    // The whole thread in the cache followed.
    expect(cached().emails.map((e) => [e.id, e.is_read, e.is_starred])).toEqual([
      ['13', true, false],
      ['12', true, false],
      ['11', true, false],
    ]);
    expect(cached()).toMatchObject({ isRead: true, isStarred: false });

    // Its mail moved away: the row goes without a re-read, the whole thread being known.
    const reads = calls(fetch, 'GET', '/api/threads/inbox').length;
    await act(() => result.current.list.removeEmails(['13', '12', '11']));
    expect(result.current.list.threads.map((t) => t.id)).toEqual(['t3']);
    expect(result.current.list.total).toBe(1);
    expect(calls(fetch, 'GET', '/api/threads/inbox')).toHaveLength(reads);
  });

  it('puts the server\'s thread in the list without a re-read', async () => {
    signInAs();
    const fetch = mockFetch({ 'GET /api/threads/inbox': () => list([pair, solo(3)]) });
    const { result } = renderHook(() => useThreads('/api/threads/inbox'), { wrapper });
    await waitFor(() => expect(result.current.threads).toHaveLength(2));
    const before = calls(fetch, 'GET', '/api/threads/inbox').length;
    const answer = thread([{ ...newer, status: 'needs_reply' }, older], { labels: ['needs_reply', 'work'] });
    await act(() => result.current.applyThread(answer, '2'));
    expect(result.current.threads[0]).toEqual(answer);
    expect(calls(fetch, 'GET', '/api/threads/inbox')).toHaveLength(before);
  });
});
