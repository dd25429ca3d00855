// Attachments: each chosen file uploads at once with progress; sending waits for uploads; a
// refused upload shows the server's message; removing an uploaded file deletes the upload.

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/helpers';
import { FakeXHR, bodyOf, calls, composeServer, renderCompose, typeBody } from './composeFixtures';

beforeEach(() => FakeXHR.install());

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const file = (name: string, size: number, type = 'application/pdf') => new File([new Uint8Array(size)], name, { type });

const named = (name: string) =>
  screen.getAllByTestId('attachment-item').find((el) => el.dataset.name === name) as HTMLElement;

describe('attachments', () => {
  it('uploads with progress, holds sending until done, and sends the upload ids', async () => {
    const fetch = composeServer({
      'POST /api/emails/send': () => json(200, { success: true, outboxId: 'o1', undoSeconds: 10, sendAt: 'x', message: 'המייל נשלח' }),
    });
    renderCompose();
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('compose-to'), 'dana@example.test{Enter}');
    await user.type(screen.getByTestId('compose-subject'), 'קבצים');
    typeBody('<p>מצורף</p>');

    await user.upload(screen.getByTestId('compose-file-input'), [file('דוח.pdf', 3000), file('תמונה.png', 500, 'image/png')]);
    expect(FakeXHR.requests.map((x) => [x.method, x.url, x.headers['Content-Type']])).toEqual([
      ['POST', `/api/attachments?name=${encodeURIComponent('דוח.pdf')}`, 'application/pdf'],
      ['POST', `/api/attachments?name=${encodeURIComponent('תמונה.png')}`, 'image/png'],
    ]);
    expect(FakeXHR.requests[0].headers.Authorization).toBe('tok-1');

    act(() => FakeXHR.requests[0].progress(1500, 3000));
    expect(within(named('דוח.pdf')).getByTestId('attachment-progress')).toHaveAttribute('value', '0.5');
    expect(screen.getByTestId('compose-send')).toBeDisabled();
    // Not removable mid-upload (the upload cannot be cancelled).
    expect(within(named('דוח.pdf')).queryByTestId('attachment-remove')).not.toBeInTheDocument();

    act(() => FakeXHR.requests[0].respond(200, { id: 'up1', name: 'דוח.pdf', size: 3000, contentType: 'application/pdf' }));
    expect(screen.getByTestId('compose-send')).toBeDisabled();
    act(() => FakeXHR.requests[1].respond(200, { id: 'up2', name: 'תמונה.png', size: 500, contentType: 'image/png' }));
    await waitFor(() => expect(screen.getByTestId('compose-send')).toBeEnabled());
    expect(named('דוח.pdf')).toHaveTextContent('2.9 KB');
    expect(named('תמונה.png')).toHaveTextContent('500 בתים');

    await user.click(screen.getByTestId('compose-send'));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/emails/send')).toHaveLength(1));
    expect(bodyOf(calls(fetch, 'POST', '/api/emails/send')[0]).attachments).toEqual(['up1', 'up2']);
  });

  it('a refused upload shows the server message and is left out of the mail', async () => {
    composeServer();
    renderCompose();
    const user = userEvent.setup();
    await user.upload(await screen.findByTestId('compose-file-input'), file('גדול.zip', 100, 'application/zip'));
    act(() => FakeXHR.requests[0].respond(413, { success: false, error: 'too_large', message: 'הקובץ גדול מדי (מקסימום 25MB)' }));

    const failed = await waitFor(() => {
      const el = named('גדול.zip');
      expect(el).toHaveAttribute('data-state', 'failed');
      return el;
    });
    expect(within(failed).getByRole('alert')).toHaveTextContent('הקובץ גדול מדי (מקסימום 25MB)');
    expect(screen.getByTestId('compose-send')).toBeEnabled();

    // Dismissing a failed one calls nothing: there is no upload to delete.
    const fetchCalls = (globalThis.fetch as unknown as { mock: { calls: unknown[] } }).mock.calls.length;
    await user.click(within(failed).getByTestId('attachment-remove'));
    expect(screen.queryByTestId('attachment-item')).not.toBeInTheDocument();
    expect((globalThis.fetch as unknown as { mock: { calls: unknown[] } }).mock.calls.length).toBe(fetchCalls);
  });

  it('removing an uploaded file deletes the upload on the server', async () => {
    const fetch = composeServer({ 'DELETE /api/attachments/up9': () => json(200, { success: true }) });
    renderCompose();
    const user = userEvent.setup();
    await user.upload(await screen.findByTestId('compose-file-input'), file('a.txt', 10, 'text/plain'));
    act(() => FakeXHR.requests[0].respond(200, { id: 'up9', name: 'a.txt', size: 10, contentType: 'text/plain' }));
    await user.click(await screen.findByTestId('attachment-remove'));
    expect(screen.queryByTestId('attachment-item')).not.toBeInTheDocument();
    await waitFor(() => expect(calls(fetch, 'DELETE', '/api/attachments/up9')).toHaveLength(1));
  });

  it('the side panel’s "attach files" opens the same file picker', async () => {
    composeServer();
    renderCompose();
    const input = (await screen.findByTestId('compose-file-input')) as HTMLInputElement;
    const click = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByTestId('quick-attach'));
    fireEvent.click(screen.getByTestId('compose-attach'));
    expect(click).toHaveBeenCalledTimes(2);
  });
});
