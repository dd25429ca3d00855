import { createElement, type ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, signInAs } from '../test/helpers';
import { useThreads } from '../features/inbox/useThreads';
import { folderSource } from '../features/inbox/folders';
import { firstReads } from '../app/firstReads';
import { api, apiWithHeaders } from './client';
import { EARLY_TTL_MS, earlyAnswered, earlyReadsSettled, forgetEarly, startEarly } from './early';
import { keys } from './keys';

describe('reads started before the first render', () => {
  afterEach(() => {
    forgetEarly();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('answers the first call for the path from the read already made, and only the first', async () => {
    signInAs(undefined, 'tok-1');
    let n = 0;
    const fetch = mockFetch({ 'GET /api/threads/inbox': () => new Response(JSON.stringify([{ n: ++n }]), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': '7' } }) });
    startEarly(['/api/threads/inbox?page=1&perPage=50']);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((fetch.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBe('tok-1');
    const first = await apiWithHeaders('/api/threads/inbox?page=1&perPage=50');
    expect(first.data).toEqual([{ n: 1 }]);
    expect(first.headers.get('X-Total-Count')).toBe('7');
    expect(fetch).toHaveBeenCalledTimes(1);
    // A later read of the same path is a real one.
    await expect(api('/api/threads/inbox?page=1&perPage=50')).resolves.toEqual([{ n: 2 }]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('starts nothing without a session, and never answers for another token', async () => {
    const fetch = mockFetch({ 'GET /api/auth/accounts': () => json(200, { accounts: [] }) });
    localStorage.clear();
    startEarly([keys.mailAccounts()]);
    expect(fetch).not.toHaveBeenCalled();

    signInAs(undefined, 'tok-a');
    startEarly([keys.mailAccounts()]);
    signInAs(undefined, 'tok-b');
    await api(keys.mailAccounts());
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((fetch.mock.calls[1][1]?.headers as Record<string, string>).Authorization).toBe('tok-b');
  });

  it('is not taken once stale, nor by a call with options of its own', async () => {
    signInAs(undefined, 'tok-1');
    const fetch = mockFetch({ 'GET /api/auth/accounts': () => json(200, { accounts: [] }) });
    vi.useFakeTimers({ toFake: ['Date'] });
    startEarly([keys.mailAccounts()]);
    vi.setSystemTime(Date.now() + EARLY_TTL_MS + 1);
    await api(keys.mailAccounts());
    expect(fetch).toHaveBeenCalledTimes(2);

    startEarly([keys.mailAccounts()]);
    await api(keys.mailAccounts(), { headers: { 'x-extra': '1' } });
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it("an answer that arrived is the first render's data, and the list's own read still takes it", async () => {
    signInAs(undefined, 'tok-1');
    const thread = { id: 't1', subject: 'שלום', emails: [], count: 1 };
    const fetch = mockFetch({
      'GET /api/threads/inbox': () =>
        new Response(JSON.stringify([thread]), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Total-Count': '40' } }),
    });
    const path = firstReads('#/Inbox').paths[1];
    startEarly([path]);
    await earlyReadsSettled();
    expect(earlyAnswered(path, 'tok-2')).toBeUndefined();
    expect(earlyAnswered(path, 'tok-1')?.data).toEqual([thread]);

    const wrapper = ({ children }: { children: ReactNode }) => createElement(SWRConfig, { value: { provider: () => new Map() } }, children);
    const { result } = renderHook(() => useThreads(folderSource('inbox')), { wrapper });
    // The first render has the rows and the total, before any read of the hook's own.
    expect(result.current.threads.map((t) => t.id)).toEqual(['t1']);
    expect(result.current.total).toBe(40);
    // Its revalidation takes the started read: the server is asked once.
    await waitFor(() => expect(earlyAnswered(path, 'tok-1')).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a read that failed is made again by the caller', async () => {
    signInAs(undefined, 'tok-1');
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls++;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ accounts: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    startEarly([keys.mailAccounts()]);
    await expect(api(keys.mailAccounts())).resolves.toEqual({ accounts: [] });
    expect(calls).toBe(2);
  });

  it('the inbox starts its mailboxes and the first page its list asks for; other pages nothing', () => {
    expect(firstReads('#/Inbox')).toEqual({ page: 'Inbox', paths: ['/api/auth/accounts', '/api/threads/inbox?page=1&perPage=50'] });
    expect(firstReads('')).toEqual({ page: 'Inbox', paths: ['/api/auth/accounts', '/api/threads/inbox?page=1&perPage=50'] });
    expect(firstReads('#/Inbox?folder=sent&mail=x').paths[1]).toBe('/api/threads/sent?page=1&perPage=50');
    expect(firstReads('#/Inbox?box=INBOX.a').paths).toEqual(['/api/auth/accounts']);
    expect(firstReads('#/Settings')).toEqual({ page: 'Settings', paths: [] });
  });
});
