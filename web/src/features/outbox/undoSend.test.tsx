import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxMail, SendResult } from '../../api/outgoing';
import { outboxMail } from './outboxFixtures';
import { DANA, json, mockFetch, renderWithProviders, signInAs } from '../../test/helpers';
import { calls, toasts } from '../inbox/testFixtures';
import { useUndoSend } from './undoSend';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const MAIL: OutboxMail = outboxMail({
  attachments: [{ id: 'u1', name: 'a.pdf', size: 10, contentType: 'application/pdf' }],
});

/** Stands in for the compose page: announces, then leaves for the Sent folder as it does. */
function Sender({ result }: { result: SendResult }) {
  const announce = useUndoSend();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      onClick={() => {
        announce(result);
        navigate('/Inbox?folder=sent');
      }}
    >
      send
    </button>
  );
}

function renderSender(result: SendResult, undo: () => Response = () => json(200, { success: true, mail: MAIL })) {
  const fetch = mockFetch({
    'GET /api/app/me': () => json(200, { success: true, user: DANA }),
    'POST /api/outbox/5/undo': undo,
  });
  signInAs();
  const r = renderWithProviders(
    <Routes>
      <Route path="/Compose" element={<Sender result={result} />} />
      <Route path="*" element={<p>elsewhere</p>} />
    </Routes>,
    { route: '/Compose' },
  );
  fireEvent.click(screen.getByRole('button', { name: 'send' }));
  return { ...r, fetch };
}

const QUEUED: SendResult = { success: true, outboxId: '5', undoSeconds: 10, sendAt: '2026-01-01T10:00:10Z', message: 'המייל נשלח' };

describe('undo send', () => {
  it('counts down the undo delay across a route change and closes at zero', () => {
    vi.useFakeTimers();
    const r = renderSender(QUEUED);
    expect(r.location().pathname).toBe('/Inbox');
    expect(screen.getByText('elsewhere')).toBeInTheDocument();
    expect(screen.getByTestId('undo-toast')).toHaveTextContent('המייל נשלח');
    expect(screen.getByTestId('undo-countdown')).toHaveTextContent('המייל יישלח בעוד 10 שניות');

    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('undo-countdown')).toHaveTextContent('המייל יישלח בעוד 7 שניות');
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByTestId('undo-countdown')).toHaveTextContent('המייל יישלח בעוד 2 שניות');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('undo-countdown')).toHaveTextContent('המייל יישלח בעוד שנייה אחת');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByTestId('undo-toast')).not.toBeInTheDocument();
    expect(screen.queryByTestId('undo-send')).not.toBeInTheDocument();
  });

  it('undo takes the mail back and reopens it in Compose with the mail in the location state', async () => {
    const r = renderSender(QUEUED);
    fireEvent.click(screen.getByTestId('undo-send'));
    await waitFor(() => expect(r.location().pathname).toBe('/Compose'));
    expect(calls(r.fetch, 'POST', '/api/outbox/5/undo')).toHaveLength(1);
    expect(r.location().state).toEqual({ mail: MAIL });
    expect(screen.queryByTestId('undo-toast')).not.toBeInTheDocument();
    expect(toasts()).toContainEqual({ kind: 'info', text: 'השליחה בוטלה' });
  });

  it('too late (409): says so and does not navigate', async () => {
    const r = renderSender(QUEUED, () => json(409, { success: false, error: 'conflict', message: 'המייל כבר נשלח' }));
    fireEvent.click(screen.getByTestId('undo-send'));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', text: 'המייל כבר נשלח' }));
    expect(r.location().pathname).toBe('/Inbox');
    expect(screen.queryByTestId('undo-toast')).not.toBeInTheDocument();
  });

  it('without an undo delay it is only the server message', () => {
    renderSender({ success: true, outboxId: '5', undoSeconds: 0, message: 'המייל נשלח' });
    expect(screen.queryByTestId('undo-send')).not.toBeInTheDocument();
    expect(toasts()).toEqual([{ kind: 'success', text: 'המייל נשלח' }]);
  });
});
