import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type FormEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { he } from '../i18n/he';
import { MIN_PASSWORD_LENGTH, passwordProblem } from '../lib/passwords';
import { NewPasswordFields } from './NewPasswordFields';

/** A form as the app's forms use the fields: the rule is checked on submit. */
function Harness({ withConfirm = true }: { withConfirm?: boolean }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(passwordProblem(password, withConfirm ? confirm : undefined));
  }
  return (
    <form onSubmit={onSubmit} noValidate>
      <NewPasswordFields
        password={{ id: 'pw', label: 'סיסמה', name: 'password', value: password, onValueChange: setPassword }}
        confirm={withConfirm ? { id: 'pw-confirm', label: 'אימות סיסמה', value: confirm, onValueChange: setConfirm } : undefined}
        error={error}
        errorTestId="pw-error"
      />
      <button type="submit">שמירה</button>
    </form>
  );
}

/** Types into both fields (adding to what is there) and submits. */
async function submit(password: string, confirm: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('סיסמה'), password);
  await user.type(screen.getByLabelText('אימות סיסמה'), confirm);
  await user.click(screen.getByRole('button', { name: 'שמירה' }));
}

describe('NewPasswordFields', () => {
  it('shows the mismatch message when the confirmation differs', async () => {
    render(<Harness />);
    await submit('new-secret-1', 'new-secret-2');
    expect(screen.getByTestId('pw-error')).toHaveTextContent(he.passwords.mismatch);
    expect(screen.getByRole('alert')).toHaveTextContent('הסיסמאות אינן תואמות');
  });

  it('shows the length rule for a short password, and nothing once it is fine', async () => {
    render(<Harness />);
    await submit('short', 'short');
    expect(screen.getByRole('alert')).toHaveTextContent(he.passwords.tooShort);
    await submit('-but-longer', '-but-longer');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('marks both inputs as new passwords, the rule on the first; no confirmation unless asked', () => {
    const { unmount } = render(<Harness />);
    const password = screen.getByLabelText('סיסמה');
    const confirm = screen.getByLabelText('אימות סיסמה');
    for (const input of [password, confirm]) {
      expect(input).toHaveAttribute('type', 'password');
      expect(input).toHaveAttribute('autocomplete', 'new-password');
      expect(input).toBeRequired();
    }
    expect(password).toHaveAttribute('minlength', String(MIN_PASSWORD_LENGTH));
    expect(password).toHaveAttribute('name', 'password');
    expect(confirm).not.toHaveAttribute('minlength');
    unmount();

    render(<Harness withConfirm={false} />);
    expect(screen.getByLabelText('סיסמה')).toBeInTheDocument();
    expect(screen.queryByLabelText('אימות סיסמה')).toBeNull();
  });
});
