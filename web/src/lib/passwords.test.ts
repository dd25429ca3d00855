import { describe, expect, it } from 'vitest';
import { he } from '../i18n/he';
import { validateSetup } from '../features/auth/SetupPage';
import { passwordProblem } from './passwords';

describe('password rule', () => {
  it('counts characters like the server, not UTF-16 units', () => {
    expect(passwordProblem('אבגדהוזח')).toBeNull();
    // Four emoji are eight UTF-16 units but four characters: too short, as the server says.
    expect(passwordProblem('😀😀😀😀')).toBe(he.passwords.tooShort);
    expect(passwordProblem('1234567')).toBe(he.passwords.tooShort);
  });

  it('checks the confirmation when given', () => {
    expect(passwordProblem('password-1', 'password-2')).toBe(he.passwords.mismatch);
    expect(passwordProblem('password-1', 'password-1')).toBeNull();
  });

  it('is the rule the first-run setup uses', () => {
    const f = { name: 'דנה', username: 'dana', password: '😀😀😀😀', confirm: '😀😀😀😀' };
    expect(validateSetup(f)).toBe(he.passwords.tooShort);
  });
});
