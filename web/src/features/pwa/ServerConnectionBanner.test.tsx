import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reportServerReachable } from '../../lib/serverConnection';
import { setOfflineState } from '../offline/state';
import { ServerConnectionBanner } from './ServerConnectionBanner';

afterEach(() => {
  reportServerReachable(true);
  setOfflineState({ active: false, pending: 0 });
});

describe('ServerConnectionBanner', () => {
  it('says in Hebrew that the server cannot be reached, and goes once it answers again', () => {
    render(<ServerConnectionBanner />);
    expect(screen.queryByTestId('server-offline')).toBeNull();
    act(() => reportServerReachable(false));
    expect(screen.getByTestId('server-offline')).toHaveTextContent('אין חיבור לשרת');
    act(() => reportServerReachable(true));
    expect(screen.queryByTestId('server-offline')).toBeNull();
  });

  it('with offline reading: says the kept mail is shown, counts the waiting actions, and the app ends above it', () => {
    render(<ServerConnectionBanner />);
    act(() => {
      setOfflineState({ active: true, pending: 2 });
      reportServerReachable(false);
    });
    const banner = screen.getByTestId('server-offline');
    expect(banner).toHaveTextContent('מוצג הדואר שנשמר במכשיר');
    expect(screen.getByTestId('offline-pending')).toHaveTextContent('2 פעולות ממתינות לשרת');
    expect(document.documentElement.dataset.serverOffline).toBe('');
    act(() => reportServerReachable(true));
    expect(document.documentElement.dataset.serverOffline).toBeUndefined();
  });
});
