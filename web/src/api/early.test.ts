import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, signInAs } from '../test/helpers';
import { firstReads } from '../app/firstReads';
import { api, apiWithHeaders } from './client';
import { EARLY_TTL_MS, forgetEarly, startEarly } from './early';
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
