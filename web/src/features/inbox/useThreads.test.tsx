import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { swrFetcher } from '../../api/client';
import type { ThreadPage } from '../../api/types';
import { mockFetch, signInAs } from '../../test/helpers';
import { calls, list, mail, solo, thread } from './testFixtures';
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
