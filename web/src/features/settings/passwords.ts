// Client-side password checks shared by the settings forms; the server checks the same rules
// and its Hebrew message is shown when it disagrees.

import { he } from '../../i18n/he';

export const MIN_PASSWORD_LENGTH = 8;

/** The first problem with a new password (and its confirmation, when given), or null. */
export function passwordProblem(password: string, confirm?: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return he.settings.validation.passwordTooShort;
  if (confirm !== undefined && password !== confirm) return he.settings.validation.passwordMismatch;
  return null;
}
