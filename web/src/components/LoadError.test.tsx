import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { he } from '../i18n/he';
import { LoadError } from './LoadError';

describe('LoadError', () => {
  it('shows the message in an alert, and the retry button asks again', async () => {
    const onRetry = vi.fn();
    render(<LoadError message="לא ניתן לטעון: שגיאה בשרת" onRetry={onRetry} testId="x-error" className="extra" />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveAttribute('data-testid', 'x-error');
    expect(alert).toHaveClass('notice', 'notice--error', 'extra');
    expect(alert.querySelector('p')).toHaveTextContent('לא ניתן לטעון: שגיאה בשרת');
    expect(onRetry).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: he.app.retry }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('has no button when there is nothing to retry, and keeps what is put between', () => {
    render(
      <LoadError message="השאילתה אינה תקינה" messageDir="auto">
        <a href="#/Settings">הגדרות</a>
      </LoadError>,
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('link', { name: 'הגדרות' })).toBeInTheDocument();
    expect(screen.getByText('השאילתה אינה תקינה')).toHaveAttribute('dir', 'auto');
  });
});
