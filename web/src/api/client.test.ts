import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, signInAs } from '../test/helpers';
import { ApiError, api } from './client';
import { onUnauthorized } from './session';

describe('api client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the stored token as Authorization and parses JSON', async () => {
    signInAs(undefined, 'tok-9');
    const fetch = mockFetch({ 'GET /api/health': () => json(200, { status: 'ok', version: '0.1.0', schemaVersion: 1 }) });
    await expect(api('/api/health')).resolves.toEqual({ status: 'ok', version: '0.1.0', schemaVersion: 1 });
    const headers = fetch.mock.calls[0][1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('tok-9');
  });

  it('omits the token for unauthenticated calls', async () => {
    signInAs(undefined, 'tok-9');
    const fetch = mockFetch({ 'POST /api/app/login': () => json(200, { success: true }) });
    await api('/api/app/login', { method: 'POST', body: { username: 'a', password: 'b' }, auth: false });
    const headers = fetch.mock.calls[0][1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('sends a file as the raw body with its own content type, not as JSON', async () => {
    signInAs(undefined, 'tok-9');
    const fetch = mockFetch({ 'POST /api/upload': () => json(200, { ok: true }) });
    const file = new File(['BEGIN:VCARD'], 'c.vcf', { type: 'text/vcard' });
    await api('/api/upload', { method: 'POST', rawBody: file });
    const init = fetch.mock.calls[0][1]!;
    expect(init.body).toBe(file);
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('text/vcard');
    expect(headers.Authorization).toBe('tok-9');

    await api('/api/upload', { method: 'POST', rawBody: new Blob(['x']) });
    expect((fetch.mock.calls[1][1]!.headers as Record<string, string>)['Content-Type']).toBe('application/octet-stream');
  });

  it("throws ApiError with the server's message, else its error code, else שגיאה בשרת", async () => {
    mockFetch({
      'GET /a': () => json(403, { success: false, error: 'forbidden', message: 'אין הרשאה' }),
      'GET /b': () => json(400, { error: 'bad_request' }),
      'GET /c': () => new Response('<html>oops</html>', { status: 502 }),
    });
    await expect(api('/a')).rejects.toMatchObject({ status: 403, code: 'forbidden', message: 'אין הרשאה' });
    await expect(api('/b')).rejects.toMatchObject({ status: 400, message: 'bad_request' });
    await expect(api('/c')).rejects.toMatchObject({ status: 502, message: 'שגיאה בשרת' });
  });

  it('turns a network failure into the Hebrew connection message', async () => {
    mockFetch({ 'GET /x': () => Promise.reject(new TypeError('Failed to fetch')) });
    const err = await api('/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).isNetworkError).toBe(true);
    expect((err as ApiError).message).toBe('לא ניתן להתחבר לשרת. אנא בדוק את החיבור לאינטרנט.');
  });

  it('signals sign-out on a 401 from an authenticated call only', async () => {
    const listener = vi.fn();
    const off = onUnauthorized(listener);
    mockFetch({
      'GET /api/app/me': () => json(401, { success: false, error: 'unauthorized', message: 'עליך להתחבר תחילה' }),
      'POST /api/app/login': () => json(401, { success: false, error: 'invalid_credentials', message: 'x' }),
    });
    await expect(api('/api/app/login', { method: 'POST', body: {}, auth: false })).rejects.toBeInstanceOf(ApiError);
    expect(listener).not.toHaveBeenCalled();
    await expect(api('/api/app/me')).rejects.toMatchObject({ status: 401, message: 'עליך להתחבר תחילה' });
    expect(listener).toHaveBeenCalledTimes(1);
    off();
  });
});
