// The fields that set a new password, the same on every form that sets one (first-run setup, own
// password, an admin adding a user or resetting one's password): the new password with the
// length rule (lib/passwords) and, where the form asks for it, its confirmation; then the form's
// error, which is where passwordProblem's messages (too short, no match) appear.

import type { ReactNode } from 'react';
import { MIN_PASSWORD_LENGTH } from '../lib/passwords';
import { TextField } from './Field';

/** One password input: what differs between the forms. */
export interface PasswordInput {
  id: string;
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  hint?: ReactNode;
  name?: string;
  testId?: string;
  autoFocus?: boolean;
}

export interface NewPasswordFieldsProps {
  password: PasswordInput;
  /** The "type it again" field; none when the form does not ask for it. */
  confirm?: PasswordInput;
  disabled?: boolean;
  /** The form's error, shown under the fields (e.g. passwordProblem's answer). */
  error?: string | null;
  errorTestId?: string;
}

export function NewPasswordFields({ password, confirm, disabled, error, errorTestId }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        {...password}
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        disabled={disabled}
      />
      {confirm && <TextField {...confirm} type="password" autoComplete="new-password" required disabled={disabled} />}
      {error && (
        <p className="notice notice--error" role="alert" data-testid={errorTestId}>
          {error}
        </p>
      )}
    </>
  );
}
