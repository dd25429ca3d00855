import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationBell } from './NotificationBell';
import { TOAST_LIMIT, ToastProvider, useToast, type ToastApi } from '../session/Toasts';

let toast!: ToastApi;
function Grab() {
  toast = useToast();
  return null;
}

function renderToasts() {
  return render(
    <ToastProvider>
      <Grab />
      <NotificationBell />
    </ToastProvider>,
  );
}

describe('Toasts', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps at most 20, dropping the oldest', () => {
    renderToasts();
    act(() => {
      for (let i = 1; i <= 25; i++) toast.info(`הודעה ${i}`);
    });
    const items = screen.getAllByTestId('toast');
    expect(TOAST_LIMIT).toBe(20);
    expect(items).toHaveLength(20);
    expect(items[0]).toHaveTextContent('הודעה 6');
    expect(items[19]).toHaveTextContent('הודעה 25');
  });

  it('clearAll drops toasts and notifications (a session ended)', () => {
    renderToasts();
    act(() => {
      toast.success('של המשתמש הקודם');
      toast.error('עוד אחת');
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(2);
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');
    act(() => toast.clearAll());
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
    expect(screen.queryByTestId('notification-count')).toBeNull();
  });

  it('closes a toast with its close button', async () => {
    renderToasts();
    act(() => {
      toast.success('נשמר');
      toast.error('נכשל');
    });
    const failed = screen.getByRole('alert');
    expect(failed).toHaveTextContent('נכשל');
    await userEvent.setup().click(within(failed).getByRole('button', { name: 'סגירת הודעה' }));
    expect(screen.queryByText('נכשל')).not.toBeInTheDocument();
    expect(screen.getByText('נשמר')).toBeInTheDocument();
  });

  it('shows success and info for the spec\'s 3 s, warnings and errors longer', () => {
    vi.useFakeTimers();
    renderToasts();
    act(() => {
      toast.success('נשמר');
      toast.info('לידיעתך');
      toast.warning('זהירות');
      toast.error('נכשל');
    });
    act(() => {
      vi.advanceTimersByTime(2900);
    });
    expect(screen.getByText('נשמר')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('נשמר')).not.toBeInTheDocument();
    expect(screen.queryByText('לידיעתך')).not.toBeInTheDocument();
    expect(screen.getByText('זהירות')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(screen.queryByText('זהירות')).not.toBeInTheDocument();
    expect(screen.getByText('נכשל')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.queryByText('נכשל')).not.toBeInTheDocument();
  });

  it('dismisses itself after a few seconds', () => {
    vi.useFakeTimers();
    renderToasts();
    act(() => {
      toast.success('נשמר');
    });
    expect(screen.getByText('נשמר')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.queryByText('נשמר')).not.toBeInTheDocument();
  });

  it('marks each kind with its own class', () => {
    renderToasts();
    act(() => {
      toast.warning('זהירות');
      toast.info('לידיעתך');
    });
    expect(screen.getByText('זהירות').closest('li')).toHaveClass('toast--warning');
    expect(screen.getByText('לידיעתך').closest('li')).toHaveClass('toast--info');
  });

  it('records toasts as notifications for the bell', async () => {
    renderToasts();
    const bell = screen.getByTestId('notification-bell');
    expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument();
    act(() => {
      toast.success('הטיוטה נמחקה בהצלחה');
      toast.error('שגיאה במחיקת הטיוטה');
    });
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');
    expect(bell).toHaveAccessibleName('התראות, 2 שלא נקראו');

    const user = userEvent.setup();
    await user.click(bell);
    const panel = screen.getByRole('dialog', { name: 'התראות' });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(2);
    expect(within(panel).getAllByText(/^\d\d:\d\d$/)).toHaveLength(2);

    await user.click(within(panel).getByRole('button', { name: 'סמן הכל כנקרא' }));
    expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument();
    expect(bell).toHaveAccessibleName('התראות');
  });

  it('carries live content with a way to close itself, and logs its plain message', async () => {
    vi.useFakeTimers();
    renderToasts();
    act(() => {
      toast.show('success', 'המייל נשלח', {
        duration: 0,
        render: (close) => (
          <button type="button" onClick={close}>
            ביטול
          </button>
        ),
      });
    });
    // Duration 0: it stays until its content closes it.
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByTestId('toast')).toHaveTextContent('ביטול');
    expect(screen.getByTestId('notification-count')).toHaveTextContent('1');
    act(() => screen.getByRole('button', { name: 'ביטול' }).click());
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });
});
