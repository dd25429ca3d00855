// The password rule for every form that sets one (first-run setup, own password, admin
// forms). The server checks the same rule, counting characters, not UTF-16 units, so
// eight Hebrew letters or emoji pass here exactly when they pass there.

import { he } from '../i18n/he';
import { heSettings } from '../i18n/settings';

export const MIN_PASSWORD_LENGTH = 8;

/** The first problem with a new password (and its confirmation, when given), or null. */
export function passwordProblem(password: string, confirm?: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return he.passwords.tooShort;
  if (confirm !== undefined && password !== confirm) return he.passwords.mismatch;
  return null;
}

/**
 * The first problem of a form that sets a password: `required` when a field it needs is empty,
 * then the password's own (passwordProblem).
 */
export function passwordFormProblem(
  empty: boolean,
  password: string,
  confirm?: string,
  required: string = heSettings.validation.required,
): string | null {
  return empty ? required : passwordProblem(password, confirm);
}
