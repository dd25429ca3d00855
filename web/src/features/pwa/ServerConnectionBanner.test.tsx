import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reportServerReachable } from '../../lib/serverConnection';
import { ServerConnectionBanner } from './ServerConnectionBanner';

afterEach(() => reportServerReachable(true));

describe('ServerConnectionBanner', () => {
  it('says in Hebrew that the server cannot be reached, and goes once it answers again', () => {
    render(<ServerConnectionBanner />);
    expect(screen.queryByTestId('server-offline')).toBeNull();
    act(() => reportServerReachable(false));
    expect(screen.getByTestId('server-offline')).toHaveTextContent('אין חיבור לשרת');
    act(() => reportServerReachable(true));
    expect(screen.queryByTestId('server-offline')).toBeNull();
  });
});
